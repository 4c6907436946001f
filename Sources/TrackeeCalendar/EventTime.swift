import TrackeeCore

/// A DATE or DATE-TIME value together with what places it on the time
/// line: its TZID's zone, UTC (`Z`), or nothing (floating, and every DATE),
/// which means the local zone.
struct EventTime: Hashable, Sendable {
    var value: TimeValue
    var placement: Placement

    enum Placement: Hashable, Sendable {
        case floating
        case utc
        case zone(Zone)
    }

    var isDate: Bool { value.isDate }

    /// The zone whose wall clock this value is read on.
    func zone(local: Zone) -> Zone {
        switch placement {
        case .floating: local
        case .utc: .utc
        case .zone(let zone): zone
        }
    }

    /// The instant: local midnight for a DATE, and for a wall time that a
    /// DST change skips or repeats, the rules of ``Zone/instant(for:)``
    /// (moved forward by the gap; the first of two).
    func instant(local: Zone) -> Instant {
        if value.isDate { return local.startOfDay(value.local.date) }
        return zone(local: local).instant(for: value.local)
    }

    /// The identity of an instance that starts at this value: wall time
    /// for a DATE or a floating time, else the instant.
    func recurrenceID(local: Zone) -> CalendarOccurrence.RecurrenceID {
        if value.isDate { return .date(value.local.date) }
        if case .floating = placement { return .floating(value.local) }
        return .instant(instant(local: local))
    }

    /// This value as the identity of an instance of a series whose DTSTART
    /// is `start`, so that an EXDATE or RECURRENCE-ID written in another
    /// form (UTC for a zoned series, say) still names the same instance.
    func recurrenceID(matching start: EventTime, local: Zone) -> CalendarOccurrence.RecurrenceID {
        if start.isDate { return .date(isDate ? value.local.date : zone(local: local).localDateTime(instant(local: local)).date) }
        if case .floating = start.placement {
            if isDate { return .floating(LocalDateTime(date: value.local.date)) }
            if case .floating = placement { return .floating(value.local) }
            return .floating(local.localDateTime(instant(local: local)))
        }
        if isDate {
            // A DATE in a timed series means that day's midnight on the series' clock.
            return .instant(start.zone(local: local).startOfDay(value.local.date))
        }
        if case .floating = placement { return .instant(start.zone(local: local).instant(for: value.local)) }
        return .instant(instant(local: local))
    }
}

extension EventTime {
    /// The instant of this value as an instance of a series whose DTSTART
    /// is `start`: a DATE in a timed series is midnight on the series' clock.
    func instant(matching start: EventTime, local: Zone) -> Instant {
        if isDate && !start.isDate { return start.zone(local: local).startOfDay(value.local.date) }
        if case .floating = placement, !isDate { return start.zone(local: local).instant(for: value.local) }
        return instant(local: local)
    }
}

/// How long an event lasts, per RFC 5545 3.8.5.3: DTEND gives an exact
/// length that every instance keeps; DURATION a nominal one (days follow
/// the wall clock); an all-day event without either lasts one day.
enum EventLength: Hashable, Sendable {
    case exact(seconds: Int64)
    case nominal(NominalDuration)

    /// The end of an instance starting at `start`, whose wall clock is `zone`'s.
    func end(from start: Instant, zone: Zone) -> Instant {
        switch self {
        case .exact(let seconds):
            return start + seconds
        case .nominal(let d):
            guard d.days != 0 else { return start + d.seconds }
            let wall = zone.localDateTime(start)
            let moved = LocalDateTime(date: wall.date.adding(days: d.days), hour: wall.hour, minute: wall.minute, second: wall.second)
            return zone.instant(for: moved) + d.seconds
        }
    }
}
