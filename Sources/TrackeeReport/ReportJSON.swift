import Foundation
import TrackeeCore
import TrackeeStore

extension Report {
    /// The report as `trackee report --json` prints it and `trackee-report`
    /// reads it: keys in snake_case, sorted; no newline at the end.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// A report read back from ``json()``.
    public static func decode(_ data: Data) throws -> Report {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Report.self, from: data)
    }
}

/// The filters of a report as a person reads them on it.
public enum ReportFilters {
    /// `project Docs`, `client "Acme Corp"`, `tag urgent`, `description
    /// contains "review"`, `billable only`, `timeline of alice`; a name is
    /// quoted when it holds a space, comma or quote.
    public static func describe(_ filter: EntryFilter, person: String? = nil) -> [String] {
        func shown(_ name: String) -> String {
            name.contains(where: { $0 == " " || $0 == "," || $0 == "\"" }) || name.isEmpty ? "\"\(name)\"" : name
        }
        var lines: [String] = []
        if let person { lines.append("timeline of \(shown(person))") }
        lines += filter.projects.map { "project " + shown($0) }
        lines += filter.clients.map { "client " + shown($0) }
        lines += filter.tags.map { "tag " + shown($0) }
        if let text = filter.description { lines.append("description contains \"\(text)\"") }
        switch filter.billable {
        case true?: lines.append("billable only")
        case false?: lines.append("non-billable only")
        case nil: break
        }
        return lines
    }
}
