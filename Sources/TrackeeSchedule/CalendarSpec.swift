import TrackeeCore

/// A systemd calendar event, such as `Mon..Fri 09:00` or `*-*-* 02:30 Europe/Prague`.
///
/// The syntax and the meaning are systemd's (systemd.time(7), "Calendar
/// Events"): an optional weekday list, a date `YYYY-MM-DD` or `MM-DD`, a time
/// `HH:MM[:SS]`, and an optional time zone; each date and time field takes
/// `*`, values, `,` lists, `a..b` ranges and `start/step` repetitions, and
/// `~` counts days back from the end of the month. The shorthands `minutely`,
/// `hourly`, `daily`, `weekly`, `monthly`, `yearly` (`annually`), `quarterly`
/// and `semiannually` are accepted too, and so is `@1700000000`, one second. ``next(after:zone:)`` finds elapses
/// the way systemd's timers do, across daylight-saving changes included.
///
/// Not supported: fractional seconds, and the abbreviations of the local
/// zone as a suffix (`CET` is read as the tzdata zone of that name).
///
///     let spec = try CalendarSpec("mon..fri 9:00 Europe/Prague")
///     spec.normalized  // "Mon..Fri *-*-* 09:00:00 Europe/Prague"
///     spec.next(after: Instant(seconds: 1_795_168_980), zone: .utc)  // 2026-11-23T08:00:00Z
public struct CalendarSpec: Sendable, Hashable {
    /// Bit `n` allows ISO weekday `n + 1` (bit 0 is Monday).
    var weekdays = CalendarSpec.everyWeekday
    var year = CalendarField.any
    var month = CalendarField.any
    var day = CalendarField.any
    var hour = CalendarField.any
    var minute = CalendarField.any
    var second = CalendarField.any
    /// `~` before the day: its values count back from the month's last day.
    var daysFromMonthEnd = false
    /// The zone named by the expression; nil evaluates in the caller's zone.
    var zone: CalendarZone?

    static let everyWeekday: UInt8 = 0x7F

    /// Parses a calendar expression.
    ///
    ///     try CalendarSpec("*:0/15").normalized  // "*-*-* *:00/15:00"
    ///     try CalendarSpec("monthly").normalized  // "*-*-01 00:00:00"
    ///     try CalendarSpec("*-02~03").normalized  // "*-02~03 00:00:00", the third-last day of February
    public init(_ text: String) throws(CalendarSpecError) {
        var parser = CalendarSpecParser(text)
        self = try parser.parse()
    }

    init(
        weekdays: UInt8 = CalendarSpec.everyWeekday, month: CalendarField = .any, day: CalendarField = .any,
        hour: CalendarField = .any, minute: CalendarField = .any, second: CalendarField = .any
    ) {
        self.weekdays = weekdays
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The expression as `systemd-analyze calendar` prints its "Normalized
    /// form": every field spelled out, lists sorted, two-digit years expanded.
    ///
    ///     try CalendarSpec("Wed,Mon 2:30 UTC").normalized  // "Mon,Wed *-*-* 02:30:00 UTC"
    ///     try CalendarSpec("weekly").normalized  // "Mon *-*-* 00:00:00"
    public var normalized: String {
        var text = weekdays == CalendarSpec.everyWeekday ? "" : weekdayList + " "
        text += year.formatted(.year) + "-" + month.formatted(.month)
        text += (daysFromMonthEnd ? "~" : "-") + day.formatted(.day)
        text += " " + hour.formatted(.hour) + ":" + minute.formatted(.minute) + ":" + second.formatted(.second)
        switch zone {
        case .utc: text += " UTC"
        case .named(let name, _): text += " " + name
        case nil: break
        }
        return text
    }

    /// The first elapse strictly after `instant`, or nil if there is none:
    /// the expression names only past dates, or dates that do not exist
    /// (`*-02-30`), or none before 2200, where systemd stops looking.
    ///
    /// The expression is evaluated in its own time zone if it names one, else
    /// in `zone`. Like systemd, the search walks the wall clock of that zone:
    /// a time that is skipped when clocks go forward does not elapse that day
    /// (a repetition that steps over the gap resumes after it), and a time
    /// that happens twice when clocks go back elapses once, at its earliest
    /// instant after `instant`. So `*-*-* 02:30` in Prague elapses on neither
    /// 2026-03-29 nor twice on 2026-10-25, and `hourly` leaves out the second
    /// 02:00 of that day. The rare searches that systemd 252 gives up on
    /// (it stops after 1000 rounds when a daylight-saving change sends it in
    /// circles) also give nil.
    ///
    ///     let spec = try CalendarSpec("*-*-* 02:30 Europe/Prague")
    ///     spec.next(after: Instant(seconds: 1_792_843_200), zone: .utc)  // 2026-10-25T00:30:00Z, 02:30 CEST
    public func next(after instant: Instant, zone: Zone) -> Instant? {
        var search = CalendarSearch(spec: self, zone: evaluationZone(zone))
        return search.next(after: instant)
    }

    /// Up to `count` successive elapses after `instant`, as ``next(after:zone:)`` finds them.
    ///
    ///     try CalendarSpec("quarterly UTC").elapses(after: Instant(seconds: 1_792_843_200), zone: .utc, count: 2)
    ///     // [2027-01-01T00:00:00Z, 2027-04-01T00:00:00Z]
    public func elapses(after instant: Instant, zone: Zone, count: Int) -> [Instant] {
        var search = CalendarSearch(spec: self, zone: evaluationZone(zone))
        var elapses: [Instant] = []
        var last = instant
        while elapses.count < count, let next = search.next(after: last) {
            elapses.append(next)
            last = next
        }
        return elapses
    }

    private func evaluationZone(_ fallback: Zone) -> Zone {
        switch zone {
        case .utc: .utc
        case .named(_, let named): named
        case nil: fallback
        }
    }

    func field(_ unit: CalendarUnit) -> CalendarField {
        switch unit {
        case .year: year
        case .month: month
        case .day: day
        case .hour: hour
        case .minute: minute
        case .second: second
        }
    }

    func allows(_ date: LocalDate) -> Bool {
        weekdays & (1 << (date.weekday - 1)) != 0
    }

    /// `Mon..Wed,Fri,Sat`: runs of three or more days become ranges.
    private var weekdayList: String {
        func name(_ bit: Int) -> String { Weekday(rawValue: bit + 1)!.shortName }
        var parts: [String] = []
        var first = 0
        while first < 7 {
            guard weekdays & (1 << first) != 0 else {
                first += 1
                continue
            }
            var last = first
            while last < 6, weekdays & (1 << (last + 1)) != 0 { last += 1 }
            switch last - first {
            case 0: parts.append(name(first))
            case 1: parts += [name(first), name(last)]
            default: parts.append(name(first) + ".." + name(last))
            }
            first = last + 1
        }
        return parts.joined(separator: ",")
    }
}

/// The time zone an expression names.
enum CalendarZone: Hashable, Sendable {
    case utc
    /// A tzdata name as written, and the zone it loads.
    case named(String, Zone)
}
