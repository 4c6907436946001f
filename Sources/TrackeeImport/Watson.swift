import TrackeeCore
import TrackeeStore

extension ImportReader {
    /// Watson's frames file (an array of `[start, stop, project, id, tags,
    /// updated]`, times in seconds since 1970) or `watson log --json` (an
    /// array of `{"id", "project", "start", "stop", "tags"}`, times in ISO
    /// 8601). A frame is known by its id.
    func watson(_ text: String) throws(ImportRefusal) {
        let frames: [(value: JSONNode, line: Int)]
        do {
            frames = try JSONReader.lines(text)
        } catch {
            throw refusal(JSONReader.line(of: error.offset, in: text),
                          "neither Watson's frames file nor the JSON of watson log --json")
        }
        for (frame, line) in frames {
            row(line: line) { () throws(RowProblem) -> ImportRow? in
                let start: Instant, end: Instant, project: String, id: String, tagNodes: [JSONNode]
                switch frame {
                case .array(let fields):
                    guard fields.count >= 5 else {
                        throw RowProblem(field: "frame", problem: "it has \(fields.count) fields, not 6")
                    }
                    guard case .integer(let from) = fields[0] else {
                        throw RowProblem(field: "start", problem: "it is not a number of seconds")
                    }
                    guard case .integer(let to) = fields[1] else {
                        throw RowProblem(field: "stop", problem: "it is not a number of seconds")
                    }
                    guard case .string(let name) = fields[2] else { throw RowProblem(field: "project", problem: "it is not text") }
                    guard case .string(let key) = fields[3], !key.isEmpty else {
                        throw RowProblem(field: "id", problem: "it is not text")
                    }
                    guard case .array(let items) = fields[4] else { throw RowProblem(field: "tags", problem: "it is not a list") }
                    (start, end, project, id, tagNodes) = (Instant(seconds: from), Instant(seconds: to), name, key, items)
                case .object:
                    guard case .string(let from)? = frame["start"], let begun = ImportTime.iso8601(from) else {
                        throw RowProblem(field: "start", problem: "it is not a time such as 2026-11-20T08:00:00+01:00")
                    }
                    guard case .string(let to)? = frame["stop"], let ended = ImportTime.iso8601(to) else {
                        throw RowProblem(field: "stop", problem: "it is not a time such as 2026-11-20T09:00:00+01:00")
                    }
                    guard case .string(let name)? = frame["project"] else {
                        throw RowProblem(field: "project", problem: "it is not text")
                    }
                    guard case .string(let key)? = frame["id"], !key.isEmpty else {
                        throw RowProblem(field: "id", problem: "it is not text")
                    }
                    var items: [JSONNode] = []
                    if let node = frame["tags"] {
                        guard case .array(let list) = node else { throw RowProblem(field: "tags", problem: "it is not a list") }
                        items = list
                    }
                    (start, end, project, id, tagNodes) = (begun, ended, name, key, items)
                default:
                    throw RowProblem(field: "frame", problem: "it is neither a frame nor an object")
                }
                var tags: [String] = []
                for node in tagNodes {
                    guard case .string(let tag) = node else { throw RowProblem(field: "tags", problem: "a tag is not text") }
                    tags.append(tag)
                }
                let (from, to) = try Self.span(start, end)
                return ImportRow(
                    key: "watson:" + id, line: line, start: from, end: to, project: project.isEmpty ? nil : project,
                    client: nil, description: "", tags: try Self.tags(tags))
            }
        }
    }
}
