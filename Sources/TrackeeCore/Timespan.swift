/// A stretch of time, `[start, end)`: it contains `start` but not `end`, so
/// consecutive days or weeks share their boundary without overlapping.
public struct Timespan: Hashable, Sendable {
    public var start: Instant
    public var end: Instant

    public init(start: Instant, end: Instant) {
        self.start = start
        self.end = end
    }

    /// Length in seconds; real elapsed time, so a DST day has 23 or 25 hours.
    public var seconds: Int64 { end - start }

    /// How many seconds of `[start, end)` fall inside this span; never negative.
    /// A timesheet uses this to split an entry across the days it touches.
    public func overlap(start: Instant, end: Instant) -> Int64 {
        max(0, min(self.end, end) - max(self.start, start))
    }
}

/// A calendar period a report groups by.
public enum Period: String, Sendable, CaseIterable {
    case day, week, month, year
}

extension Zone {
    /// The local day, week (beginning on `weekStart`), calendar month or
    /// calendar year that contains `instant`.
    ///
    /// Boundaries are ``startOfDay(_:)`` of local dates, so spans follow the
    /// wall calendar: in Prague the day 2026-03-29 is 23 hours long.
    public func span(_ period: Period, containing instant: Instant, weekStart: Weekday = .monday) -> Timespan {
        let date = localDate(instant)
        let first: LocalDate
        let next: LocalDate
        switch period {
        case .day:
            first = date
            next = date.adding(days: 1)
        case .week:
            first = date.adding(days: -((date.weekday - weekStart.rawValue + 7) % 7))
            next = first.adding(days: 7)
        case .month:
            first = LocalDate(year: date.year, month: date.month, day: 1)
            next = first.adding(months: 1)
        case .year:
            first = LocalDate(year: date.year, month: 1, day: 1)
            next = LocalDate(year: date.year + 1, month: 1, day: 1)
        }
        return Timespan(start: startOfDay(first), end: startOfDay(next))
    }

    /// A period's name in a report's title, for the `span` of it that
    /// ``span(_:containing:weekStart:)`` gives: `Fri 2026-11-20`,
    /// `week 2026-11-16 – 2026-11-22` (first and last day), `2026-11`,
    /// `2026`.
    public func title(of period: Period, span: Timespan) -> String {
        let first = localDate(span.start)
        switch period {
        case .day: return "\(Weekday(rawValue: first.weekday)?.shortName ?? "") \(first)"
        case .week: return "week \(first) – \(localDate(span.end).adding(days: -1))"
        case .month: return "\(first.year)-\(pad(first.month, 2))"
        case .year: return "\(first.year)"
        }
    }

    /// The wall-calendar date at `instant`.
    public func localDate(_ instant: Instant) -> LocalDate {
        localDateTime(instant).date
    }
}
