import TrackeeCore
import TrackeeStore

/// What `trackee import` reads.
public enum ImportFormat: String, Sendable, CaseIterable {
    /// The JSON of `timew export`.
    case timewarrior
    /// Watson's frames file, or `watson log --json`.
    case watson
    /// Toggl Track's detailed report, as CSV.
    case toggl
    /// Clockify's detailed report, as CSV.
    case clockify
    /// trackee's own CSV and JSON exports.
    case trackee
}

/// How the options of `trackee import` shape what a file means.
public struct ImportOptions: Sendable, Equatable {
    /// Which of an interval's tags names its project (Timewarrior, whose
    /// intervals have tags alone).
    public enum ProjectTag: Sendable, Equatable {
        /// The first tag.
        case first
        /// The tag that begins with this (`project:` in `project:Docs`);
        /// the project is the rest of it.
        case prefix(String)
    }

    /// The order of a date's day, month and year (Clockify writes dates in
    /// the order its user chose); nil: worked out from the dates.
    public enum DateOrder: String, Sendable, CaseIterable {
        case ymd, mdy, dmy
    }

    public var projectFromTag: ProjectTag?
    public var dateOrder: DateOrder?
    /// Where local times without an offset (Toggl, Clockify) are.
    public var zone: Zone

    public init(projectFromTag: ProjectTag? = nil, dateOrder: DateOrder? = nil, zone: Zone) {
        self.projectFromTag = projectFromTag
        self.dateOrder = dateOrder
        self.zone = zone
    }
}

/// What a file held that can be imported, and a sentence for each row that
/// cannot (`export.json:4: end: the interval is still open; skipped`).
public struct ImportParse: Sendable, Equatable {
    public var rows: [ImportRow] = []
    public var warnings: [String] = []
}

/// A file that cannot be read as its format at all: nothing of it is used.
public struct ImportRefusal: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

extension ImportFormat {
    /// Reads `text` (from `file`, as messages name it) as this format.
    public func parse(_ text: String, file: String, options: ImportOptions) throws(ImportRefusal) -> ImportParse {
        let reader = ImportReader(file: file, options: options)
        switch self {
        case .timewarrior: try reader.timewarrior(text)
        case .watson: try reader.watson(text)
        case .toggl: try reader.toggl(text)
        case .clockify: try reader.clockify(text)
        case .trackee: try reader.trackee(text)
        }
        return reader.parse
    }
}

/// One bad field of one row: what is said of it, and the row is skipped.
struct RowProblem: Error {
    let field: String
    let problem: String
}

/// Reads one file into rows, keeping what is wrong with each row that
/// cannot be read.
final class ImportReader {
    let file: String
    let options: ImportOptions
    var parse = ImportParse()

    init(file: String, options: ImportOptions) {
        self.file = file
        self.options = options
    }

    /// Reads one row with `read`, or notes why it is skipped.
    func row(line: Int, _ read: () throws(RowProblem) -> ImportRow?) {
        do {
            if let row = try read() { parse.rows.append(row) }
        } catch {
            parse.warnings.append("\(file):\(line): \(error.field): \(error.problem); skipped")
        }
    }

    /// A refusal of the whole file, at `line`.
    func refusal(_ line: Int, _ what: String) -> ImportRefusal {
        ImportRefusal("\(file):\(line): \(what)")
    }

    /// Tags as trackee keeps them: none with a comma.
    static func tags(_ tags: [String]) throws(RowProblem) -> [String] {
        if let bad = Tags.invalid(tags) {
            throw RowProblem(field: "tags", problem: "\"\(bad)\" holds a comma, which a trackee tag cannot")
        }
        return tags
    }

    /// A start and end in order.
    static func span(_ start: Instant, _ end: Instant) throws(RowProblem) -> (Instant, Instant) {
        guard end >= start else {
            throw RowProblem(field: "end", problem: "it is before the start")
        }
        return (start, end)
    }
}
