import TrackeeCalendar
import TrackeeCore
import TrackeeRules

/// Reads the calendars a rule set names, for one-shot commands and the
/// daemon alike.
public enum CalendarFiles {
    /// A calendar that could not be read, with the error naming its file
    /// and line.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var calendar: String
        public var error: CalendarError
        /// Where the rule files name the calendar (``CalendarReference/origin``).
        public var origin: String?
        public var description: String { (origin ?? "calendar \"\(calendar)\"") + ": \(error)" }
    }

    /// Reads every calendar in `sources`; those that fail are left out and
    /// reported. The ones read keep their warnings (``EventCalendar/warnings``).
    public static func read(_ sources: [TrackeeRules.CalendarReference], zone: Zone, environment: [String: String])
        -> (calendars: [String: EventCalendar], problems: [Problem])
    {
        var calendars: [String: EventCalendar] = [:]
        var problems: [Problem] = []
        for source in sources {
            do {
                calendars[source.name] = try EventCalendar.load(
                    name: source.name, path: XDGDirectories.expandingHome(source.path, environment: environment), zone: zone)
            } catch {
                problems.append(Problem(calendar: source.name, error: error, origin: source.origin))
            }
        }
        return (calendars, problems)
    }

    /// The warnings of each calendar in `names`' order, as lines naming the
    /// calendar: the first ``shownWarnings`` of each, then how many more.
    public static func warningLines(_ calendars: [String: EventCalendar], names: [String]) -> [String] {
        names.compactMap { calendars[$0] }.flatMap { calendar in
            CalendarWarning.shown(calendar.warnings, first: shownWarnings).map { "calendar \"\(calendar.name)\": \($0)" }
        }
    }

    /// How many warnings of one calendar are written out before the rest
    /// are counted.
    public static let shownWarnings = 10

    /// The calendar `name` names, as `trackee calendar list` takes it: one
    /// of `defined` (the rules' calendars) by its name, else the path of an
    /// .ics file or a vdir folder. A word that is neither a file nor a
    /// calendar of the rules (no `/` in it) is refused naming the rules'
    /// calendars; anything else wrong, with the calendar's own error (its
    /// file and line).
    public static func named(_ name: String, among defined: [TrackeeRules.CalendarReference], zone: Zone,
                             environment: [String: String]) throws(Refusal) -> EventCalendar {
        let source = defined.first { $0.name == name }
        let path = source.map { XDGDirectories.expandingHome($0.path, environment: environment) } ?? name
        do {
            return try EventCalendar.load(name: source?.name ?? name, path: path, zone: zone)
        } catch {
            if source == nil && error.line == 0 && !name.contains("/") {
                let names = defined.map { "\"\($0.name)\"" }.joined(separator: ", ")
                throw Refusal(
                    "\(name): no such calendar file or folder, and no calendar of that name in the rules"
                        + (names.isEmpty ? "" : " (calendars: \(names))"))
            }
            throw Refusal("\(error)")
        }
    }
}
