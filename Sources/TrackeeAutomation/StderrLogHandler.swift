import Logging
import TrackeeCore

/// Writes log records to stderr, one line each. Under systemd, whose
/// journal reads a service's stderr (`$JOURNAL_STREAM` is set), each line
/// starts with its syslog priority as `<N>`, so `journalctl -p warning`
/// works; elsewhere the level is spelled out.
///
/// ```
/// <6>rule "office-hours" fired: started Docs at 09:00 rule.id=office-hours
/// trackee run: info: rule "office-hours" fired: started Docs at 09:00 rule.id=office-hours
/// ```
public struct StderrLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let journal: Bool
    private let label: String

    public init(label: String, environment: [String: String], level: Logger.Level = .info) {
        self.label = label
        logLevel = level
        journal = !(environment["JOURNAL_STREAM"] ?? "").isEmpty
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        writeAll(2, format(event.level, event.message.description, event.metadata) + "\n")
    }

    /// One line for a record, without the newline.
    func format(_ level: Logger.Level, _ message: String, _ extra: Logger.Metadata?) -> String {
        var all = metadata
        if let extra { all.merge(extra) { $1 } }
        let fields = all.keys.sorted().map { "\($0)=\(all[$0]!)" }.joined(separator: " ")
        let text = fields.isEmpty ? message : message + " " + fields
        // One record is one line, whatever the message holds.
        let flat = text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " ")
        return journal ? "<\(Self.priority(level))>\(flat)" : "\(label): \(level): \(flat)"
    }

    /// syslog priorities, as sd-daemon(3) lists them.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
