/// Something in a calendar file that trackee read past rather than refuse
/// the calendar for: where it is, what is wrong, and what was done.
///
/// Calendars are written by other programs, so one oddly written line or
/// event must not stop the rest of a calendar from firing. Each skip or
/// fallback gives one of these; `calendar list` prints them, `--strict`
/// turns them into errors, and the daemon logs them.
///
///     work.ics:12: SUMMARY: expected ":" before the value; skipped the property
public struct CalendarWarning: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// 1-based.
    public var line: Int
    /// What is wrong, then after a semicolon what was done.
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { "\(file):\(line): \(message)" }

    /// The first `shown` of `warnings` as lines, then one line saying how
    /// many more there are, so a file with thousands of odd lines does not
    /// drown what else is said.
    public static func shown(_ warnings: [CalendarWarning], first shown: Int = 10) -> [String] {
        var lines = warnings.prefix(shown).map(\.description)
        if warnings.count > shown {
            let more = warnings.count - shown
            lines.append("… and \(more) more calendar warning\(more == 1 ? "" : "s")")
        }
        return lines
    }
}

/// A warning found while reading, before the file name is known to the
/// reader. `once` names a warning that is given once per file however
/// often its cause recurs (an unknown TZID used by many events).
struct LineWarning: Sendable, Equatable {
    var line: Int
    var message: String
    var once: String?

    init(line: Int, _ message: String, once: String? = nil) {
        self.line = line
        self.message = message
        self.once = once
    }

    /// `warnings` in line order, each `once` kept at its first line only,
    /// as positioned warnings of `file`.
    static func positioned(_ warnings: [LineWarning], file: String) -> [CalendarWarning] {
        var seen: Set<String> = []
        return warnings.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
            .compactMap { _, w in
                if let key = w.once, !seen.insert(key).inserted { return nil }
                return CalendarWarning(file: file, line: w.line, message: w.message)
            }
    }
}
