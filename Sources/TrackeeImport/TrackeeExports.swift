import TrackeeCore
import TrackeeStore

extension ImportReader {
    /// trackee's own exports, `--format json` or `--format csv`: every
    /// field of an entry, its id and source kept (the id where the store
    /// has it free), so that an export imported into an empty store
    /// exports again byte for byte. An entry is known by its id and start.
    func trackee(_ text: String) throws(ImportRefusal) {
        if text.utf8.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "[") {
            try trackeeJSON(text)
        } else {
            try trackeeCSV(text)
        }
    }

    private func trackeeJSON(_ text: String) throws(ImportRefusal) {
        let entries: [(value: JSONNode, line: Int)]
        do {
            entries = try JSONReader.lines(text)
        } catch {
            throw refusal(JSONReader.line(of: error.offset, in: text), "not the JSON of trackee export --format json")
        }
        for (entry, line) in entries {
            row(line: line) { () throws(RowProblem) -> ImportRow? in
                func text(_ key: String) throws(RowProblem) -> String {
                    guard case .string(let value)? = entry[key] else { throw RowProblem(field: key, problem: "it is not text") }
                    return value
                }
                guard case .integer(let id)? = entry["id"] else { throw RowProblem(field: "id", problem: "it is not a number") }
                var tags: [String] = []
                guard case .array(let items)? = entry["tags"] else { throw RowProblem(field: "tags", problem: "it is not a list") }
                for item in items {
                    guard case .string(let tag) = item else { throw RowProblem(field: "tags", problem: "a tag is not text") }
                    tags.append(tag)
                }
                guard case .bool(let billable)? = entry["billable"] else {
                    throw RowProblem(field: "billable", problem: "it is neither true nor false")
                }
                var rate: Int64?
                switch entry["rate"] {
                case .null?, nil: rate = nil
                case .integer(let n)?: rate = n * 100
                case .number?:
                    guard let cents = Self.cents(String(entry.text(of: "rate") ?? "")) else {
                        throw RowProblem(field: "rate", problem: "it is not an amount")
                    }
                    rate = cents
                default: throw RowProblem(field: "rate", problem: "it is not an amount")
                }
                return try Self.trackeeRow(
                    line: line, id: id, start: try text("start"), end: try text("end"), project: try text("project"),
                    client: try text("client"), description: try text("description"), tags: tags, billable: billable,
                    rate: rate, source: try text("source"))
            }
        }
    }

    private func trackeeCSV(_ text: String) throws(ImportRefusal) {
        let table = try CSVTable(text, file: file)
        let names = ["id", "start", "end", "project", "client", "description", "tags", "billable", "rate", "source"]
        let c = try table.require(names, file: file, format: "trackee export --format csv")
        for record in table.records {
            row(line: record.line) { () throws(RowProblem) -> ImportRow? in
                guard let id = Int64(record[c[0]]) else { throw RowProblem(field: "id", problem: "it is not a number") }
                let billable: Bool
                switch record[c[7]] {
                case "true": billable = true
                case "false": billable = false
                default: throw RowProblem(field: "billable", problem: "it is neither true nor false")
                }
                var rate: Int64?
                if !record[c[8]].isEmpty {
                    guard let cents = Self.cents(record[c[8]]) else { throw RowProblem(field: "rate", problem: "it is not an amount") }
                    rate = cents
                }
                // The CSV's own fields, whitespace and all.
                let raw = { (index: Int) in index < record.fields.count ? record.fields[index] : "" }
                return try Self.trackeeRow(
                    line: record.line, id: id, start: record[c[1]], end: record[c[2]], project: raw(c[3]), client: raw(c[4]),
                    description: raw(c[5]), tags: raw(c[6]).split(separator: ",").map(String.init), billable: billable,
                    rate: rate, source: record[c[9]])
            }
        }
    }

    private static func trackeeRow(
        line: Int, id: Int64, start: String, end: String, project: String, client: String, description: String,
        tags: [String], billable: Bool, rate: Int64?, source: String
    ) throws(RowProblem) -> ImportRow {
        guard let from = ImportTime.iso8601(start) else {
            throw RowProblem(field: "start", problem: "it is not a time such as 2026-11-20T09:00:00+01:00")
        }
        guard let to = ImportTime.iso8601(end) else {
            throw RowProblem(field: "end", problem: "it is not a time such as 2026-11-20T10:00:00+01:00")
        }
        guard ChangeSource(storedText: source) != nil else {
            throw RowProblem(field: "source", problem: "\"\(source)\" is no source trackee writes")
        }
        let (begun, ended) = try span(from, to)
        return ImportRow(
            key: "trackee:\(id)@\(from.seconds)", line: line, start: begun, end: ended,
            project: project.isEmpty ? nil : project, client: project.isEmpty || client.isEmpty ? nil : client,
            description: description, tags: try Self.tags(tags), billable: billable, rateCents: rate, id: id, source: source)
    }
}
