import TrackeeCore
import TrackeeStore

extension ImportReader {
    /// `timew export`: an array of intervals, each `{"id", "start", "end",
    /// "tags", "annotation"}`, times in UTC (`20261120T080000Z`). An
    /// interval is known by its start: Timewarrior keeps no two at one
    /// time, and its ids are positions that change. The tags are tags,
    /// but for the one `--project-from-tag` names the project by; the
    /// annotation is the description.
    func timewarrior(_ text: String) throws(ImportRefusal) {
        let intervals: [(value: JSONNode, line: Int)]
        do {
            intervals = try JSONReader.lines(text)
        } catch {
            throw refusal(JSONReader.line(of: error.offset, in: text), "not the JSON of timew export")
        }
        for (interval, line) in intervals {
            row(line: line) { () throws(RowProblem) -> ImportRow? in
                guard case .object = interval else { throw RowProblem(field: "interval", problem: "it is not an object") }
                guard case .string(let startText)? = interval["start"], let start = ImportTime.compactUTC(startText) else {
                    throw RowProblem(field: "start", problem: "it is not a time such as 20261120T080000Z")
                }
                guard let endNode = interval["end"] else {
                    throw RowProblem(field: "end", problem: "the interval is still open (stop it in Timewarrior first)")
                }
                guard case .string(let endText) = endNode, let end = ImportTime.compactUTC(endText) else {
                    throw RowProblem(field: "end", problem: "it is not a time such as 20261120T090000Z")
                }
                var tags: [String] = []
                if let node = interval["tags"] {
                    guard case .array(let items) = node else { throw RowProblem(field: "tags", problem: "it is not a list") }
                    for item in items {
                        guard case .string(let tag) = item else {
                            throw RowProblem(field: "tags", problem: "a tag is not text")
                        }
                        tags.append(tag)
                    }
                }
                var description = ""
                if let node = interval["annotation"] {
                    guard case .string(let annotation) = node else {
                        throw RowProblem(field: "annotation", problem: "it is not text")
                    }
                    description = annotation
                }
                var project: String?
                switch options.projectFromTag {
                case .first?:
                    if !tags.isEmpty { project = tags.removeFirst() }
                case .prefix(let prefix)?:
                    if let index = tags.firstIndex(where: { $0.hasPrefix(prefix) && $0.count > prefix.count }) {
                        project = String(tags.remove(at: index).dropFirst(prefix.count))
                    }
                case nil:
                    break
                }
                let (from, to) = try Self.span(start, end)
                return ImportRow(
                    key: "timewarrior:" + startText, line: line, start: from, end: to, project: project, client: nil,
                    description: description, tags: try Self.tags(tags))
            }
        }
    }
}
