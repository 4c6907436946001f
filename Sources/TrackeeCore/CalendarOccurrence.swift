/// One occurrence of a calendar event, after recurrence rules, exclusions
/// and overrides: what calendar triggers fire on and `trackee calendar
/// list` shows.
///
/// ```swift
/// // the 2026-11-23 instance of a weekly 09:30 standup, Europe/Prague
/// CalendarOccurrence(calendar: "work", uid: "standup@example.com",
///                    recurrenceID: .instant(Instant(seconds: 1_795_422_600)),
///                    start: Instant(seconds: 1_795_422_600), end: Instant(seconds: 1_795_423_500),
///                    allDay: false, summary: "Standup")
/// ```
public struct CalendarOccurrence: Sendable, Equatable {
    /// The event's text, shared by all its occurrences: a year of a daily
    /// meeting is hundreds of occurrences, and copying one then costs one
    /// reference rather than six strings.
    public let text: EventText
    /// Which instance of a recurring event this is: its original start,
    /// before any override moved it. Nil for an event that does not recur.
    public var recurrenceID: RecurrenceID?
    public var start: Instant
    /// Never before `start`.
    public var end: Instant
    /// A DATE event: `start` and `end` are local midnights.
    public var allDay: Bool
    public var status: Status

    /// The name the rule file gives the calendar.
    public var calendar: String { text.calendar }
    public var uid: String { text.uid }
    public var summary: String { text.summary }
    public var description: String { text.description }
    public var location: String { text.location }
    public var categories: [String] { text.categories }

    /// What an event says about itself, as one shared value.
    public final class EventText: Sendable, Equatable {
        public let calendar: String
        public let uid: String
        public let summary: String
        public let description: String
        public let location: String
        public let categories: [String]

        public init(calendar: String, uid: String, summary: String = "", description: String = "", location: String = "",
                    categories: [String] = []) {
            self.calendar = calendar
            self.uid = uid
            self.summary = summary
            self.description = description
            self.location = location
            self.categories = categories
        }

        public static func == (a: EventText, b: EventText) -> Bool {
            a === b || (a.calendar == b.calendar && a.uid == b.uid && a.summary == b.summary
                && a.description == b.description && a.location == b.location && a.categories == b.categories)
        }
    }

    public enum Status: String, Sendable, Equatable, CaseIterable {
        case confirmed, tentative, cancelled
    }

    /// An instance's original start, as the calendar writes it. A DATE or a
    /// floating time is kept as wall time, so the identity of an instance
    /// does not change with the zone it is read in.
    public enum RecurrenceID: Sendable, Hashable, CustomStringConvertible {
        case date(LocalDate)
        case floating(LocalDateTime)
        case instant(Instant)

        /// `20261123`, `20261123T093000` (floating) or seconds since the
        /// epoch: stable text for firing keys.
        public var description: String {
            switch self {
            case .date(let d): "\(pad(d.year, 4))\(pad(d.month, 2))\(pad(d.day, 2))"
            case .floating(let t):
                "\(pad(t.date.year, 4))\(pad(t.date.month, 2))\(pad(t.date.day, 2))T\(pad(t.hour, 2))\(pad(t.minute, 2))\(pad(t.second, 2))"
            case .instant(let i): "\(i.seconds)"
            }
        }

        /// The instant in `zone` (dates at local midnight).
        public func instant(in zone: Zone) -> Instant {
            switch self {
            case .date(let d): zone.startOfDay(d)
            case .floating(let t): zone.instant(for: t)
            case .instant(let i): i
            }
        }
    }

    public init(
        calendar: String, uid: String, recurrenceID: RecurrenceID? = nil, start: Instant, end: Instant,
        allDay: Bool = false, summary: String = "", description: String = "", location: String = "",
        categories: [String] = [], status: Status = .confirmed
    ) {
        self.init(
            text: EventText(calendar: calendar, uid: uid, summary: summary, description: description, location: location,
                            categories: categories),
            recurrenceID: recurrenceID, start: start, end: end, allDay: allDay, status: status)
    }

    public init(text: EventText, recurrenceID: RecurrenceID?, start: Instant, end: Instant, allDay: Bool, status: Status) {
        self.text = text
        self.recurrenceID = recurrenceID
        self.start = start
        self.end = end
        self.allDay = allDay
        self.status = status
    }
}

/// The start or the end of a calendar occurrence: what a calendar trigger
/// watches.
public enum CalendarEdge: String, Sendable, Equatable, CaseIterable {
    case start, end
}
