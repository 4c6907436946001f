import Testing
import TrackeeCore

@testable import TrackeeCalendar

/// The test calendars: `Calendars/` next to this file.
let calendarsFolder: String = {
    let here = "\(#filePath)"
    return String(here[..<here.lastIndex(of: "/")!]) + "/Calendars"
}()

let prague = Zone.tzdata("Europe/Prague")!
let newYork = Zone.tzdata("America/New_York")!

/// The path of `Calendars/NAME`.
func calendarPath(_ name: String) -> String { calendarsFolder + "/" + name }

/// Loads `Calendars/NAME` (a file or a vdir folder), DATE and floating
/// times read in `zone`.
func calendar(_ name: String, zone: Zone = prague) throws -> EventCalendar {
    try EventCalendar.load(name: "test", path: calendarPath(name), zone: zone)
}

/// `2026-03-02T00:00:00+01:00` (or `…Z`) as an instant, read from the text
/// alone so that a window never depends on the zone code under test.
func instant(_ text: String) -> Instant {
    let fields = text.split { "-T:+Z".contains($0) }.map { Int($0)! }
    let wall = LocalDateTime(year: fields[0], month: fields[1], day: fields[2], hour: fields[3], minute: fields[4],
                             second: fields[5])
    guard fields.count == 8 else { return Instant(seconds: wall.secondsSinceEpoch) }
    let offset = Int64(fields[6] * 3600 + fields[7] * 60) * (text.dropFirst(19).hasPrefix("-") ? -1 : 1)
    return Instant(seconds: wall.secondsSinceEpoch - offset)
}

extension EventCalendar {
    /// The occurrences overlapping `[from, to)`, both written with their offset.
    func occurrences(_ from: String, _ to: String) -> [CalendarOccurrence] {
        occurrences(from: instant(from), to: instant(to))
    }
}

/// `2026-11-23T09:30:00+01:00`: an instant as `zone`'s wall clock shows it.
func iso(_ instant: Instant, _ zone: Zone = prague) -> String { zone.iso8601(instant) }

/// The start of each occurrence, in order.
func starts(_ occurrences: [CalendarOccurrence], _ zone: Zone = prague) -> [String] {
    occurrences.map { iso($0.start, zone) }
}

/// `START/END` of each occurrence, in order.
func spans(_ occurrences: [CalendarOccurrence], _ zone: Zone = prague) -> [String] {
    occurrences.map { "\(iso($0.start, zone))/\(iso($0.end, zone))" }
}

/// The length of each occurrence in seconds.
func lengths(_ occurrences: [CalendarOccurrence]) -> [Int64] {
    occurrences.map { $0.end - $0.start }
}

/// Each occurrence's recurrence id: an instant in `zone`, a DATE
/// (`2026-03-02`), a floating time (`2026-11-23T09:30:00`), or `-` for an
/// event that does not recur.
func recurrenceIDs(_ occurrences: [CalendarOccurrence], _ zone: Zone = prague) -> [String] {
    occurrences.map {
        switch $0.recurrenceID {
        case nil: "-"
        case .date(let date): date.description
        case .floating(let wall): wall.description
        case .instant(let instant): iso(instant, zone)
        }
    }
}
