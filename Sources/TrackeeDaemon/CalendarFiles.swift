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
        public var description: String { "calendar \"\(calendar)\": \(error)" }
    }

    /// Reads every calendar in `sources`; those that fail are left out and
    /// reported.
    public static func read(_ sources: [TrackeeRules.CalendarSource], zone: Zone, environment: [String: String])
        -> (calendars: [String: EventCalendar], problems: [Problem])
    {
        var calendars: [String: EventCalendar] = [:]
        var problems: [Problem] = []
        for source in sources {
            do {
                calendars[source.name] = try EventCalendar.load(
                    name: source.name, path: XDGDirectories.expandingHome(source.path, environment: environment), zone: zone)
            } catch {
                problems.append(Problem(calendar: source.name, error: error))
            }
        }
        return (calendars, problems)
    }
}
