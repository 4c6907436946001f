import GRDB
import TrackeeCore

/// Which sources `trackee history --source` asks for.
public enum SourceFilter: Sendable, Equatable {
    /// This one source.
    case exactly(ChangeSource)
    /// Every source of a kind: every rule, every device of the HTTP API,
    /// every token signed in on the web page.
    case every(ChangeSource.Kind)

    /// `cli`, `rule:ID`, `web:DEVICE`, or a named kind's name alone for
    /// every source of that kind (`rule`, `http`, `web`, `import`); nil for
    /// text no source has.
    public init?(_ text: String) {
        if let kind = ChangeSource.Kind(rawValue: text), ChangeSource.isNamed(kind) {
            self = .every(kind)
        } else if let source = ChangeSource(storedText: text) {
            self = .exactly(source)
        } else {
            return nil
        }
    }

    /// The SQL condition on `column`, and its arguments.
    func condition(_ column: String) -> (sql: String, arguments: StatementArguments) {
        switch self {
        case .exactly(let source):
            return ("\(column) = ?", [source])
        case .every(let kind):
            // The prefix is letters and a colon, so LIKE needs no escaping.
            return ("\(column) LIKE ?", [ChangeSource.storedPrefix(kind) + "%"])
        }
    }
}
