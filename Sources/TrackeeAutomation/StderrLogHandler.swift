import Glibc
import Logging
import TrackeeCore

/// Writes log records to stderr, one line each.
///
/// Under systemd, when stderr is the journal's stream (`$JOURNAL_STREAM`
/// names its device and inode), each line starts with its syslog priority
/// as `<N>`, so `journalctl -p warning` works, and ends in the record's
/// metadata (`rule.id=…`, `firing.key=…`). Elsewhere a person reads it:
/// the level is spelled out after the label, and the metadata is left out
/// unless `verbose` (`trackee run --verbose`) asks for it.
///
/// ```
/// <3>rule "w": focus work on at 2026-11-23T10:00:00+01:00: refused: no project "Nowhere"; … firing.key=w@focus:1 rule.id=w
/// trackee run: error: rule "w": focus work on at 2026-11-23T10:00:00+01:00: refused: no project "Nowhere"; …
/// ```
public struct StderrLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let journal: Bool
    private let showsMetadata: Bool
    private let label: String

    /// `stream` is the descriptor written to (stderr), compared with
    /// `$JOURNAL_STREAM`.
    public init(label: String, environment: [String: String], level: Logger.Level = .info, verbose: Bool = false,
                stream: Int32 = 2) {
        self.label = label
        logLevel = level
        journal = Self.isJournal(stream, environment: environment)
        showsMetadata = journal || verbose
    }

    /// Whether `stream` is the journal's: systemd sets `$JOURNAL_STREAM`
    /// to `DEVICE:INODE` of the stream it connected to a service's stderr
    /// (systemd.exec(5)). A program started from a service inherits the
    /// variable, but not always the stream: a shell in a terminal that a
    /// user service runs writes to its terminal.
    static func isJournal(_ stream: Int32, environment: [String: String]) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(stream, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
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
        var text = message
        if showsMetadata {
            var all = metadata
            if let extra { all.merge(extra) { $1 } }
            let fields = all.keys.sorted().map { "\($0)=\(all[$0]!)" }.joined(separator: " ")
            if !fields.isEmpty { text += " " + fields }
        }
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
