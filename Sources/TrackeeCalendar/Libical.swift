import CLibical
import Glibc
import TrackeeCore

/// Everything trackee asks of libical, behind Swift values: parsing DATE,
/// DATE-TIME, DURATION, PERIOD and RECUR values, and iterating a
/// recurrence rule. This file is the only place that calls into C or holds
/// a C pointer.
enum Libical {
    /// libical reports bad input through `icalerrno`; make sure no build of
    /// it turns that into an abort.
    private static let configured: Bool = {
        icalerror_set_errors_are_fatal(0)
        return true
    }()

    /// `20261123`, `20261123T093000` or `20261123T093000Z`; nil when libical
    /// cannot read it or the fields are out of range.
    static func time(_ text: String) -> TimeValue? {
        _ = configured
        guard text.utf8.count >= 8, text.utf8.count <= 16,
              text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "Z") })
        else { return nil }
        let t = text.withCString { icaltime_from_string($0) }
        guard icaltime_is_null_time(t) == 0 else { return nil }
        return TimeValue(t)
    }

    /// `PT1H30M`, `-P1D`, `P2W`; nil when libical cannot read it.
    static func duration(_ text: String) -> NominalDuration? {
        _ = configured
        let d = text.withCString { icaldurationtype_from_string($0) }
        guard icaldurationtype_is_bad_duration(d) == 0 else { return nil }
        return NominalDuration(d)
    }

    /// `START/END` or `START/DURATION`; nil when libical cannot read it.
    static func period(_ text: String) -> (start: TimeValue, length: PeriodEnd)? {
        _ = configured
        let p = text.withCString { icalperiodtype_from_string($0) }
        guard icaltime_is_null_time(p.start) == 0, let start = TimeValue(p.start) else { return nil }
        if icaltime_is_null_time(p.end) == 0 {
            guard let end = TimeValue(p.end) else { return nil }
            return (start, .end(end))
        }
        guard icaldurationtype_is_bad_duration(p.duration) == 0 else { return nil }
        return (start, .duration(NominalDuration(p.duration)))
    }

    /// A parsed RRULE (or the RRULE of a VTIMEZONE observance).
    ///
    /// libical's struct holds one pointer, `rscale`, which is set only for
    /// RFC 7529 rules; those are refused, so a stored rule never points
    /// anywhere and may cross threads.
    struct Rule: @unchecked Sendable {
        fileprivate var raw: icalrecurrencetype

        /// The rule's UNTIL, if any.
        var until: TimeValue? {
            icaltime_is_null_time(raw.until) != 0 ? nil : TimeValue(raw.until)
        }

        /// The rule's COUNT, or 0.
        var count: Int { Int(raw.count) }

        /// The same rule without UNTIL: trackee compares UNTIL itself,
        /// because libical would compare a UTC UNTIL with floating local
        /// times.
        var withoutUntil: Rule {
            var copy = self
            copy.raw.until = icaltime_null_time()
            return copy
        }

        /// The same rule without UNTIL and COUNT: every instance it gives.
        var unbounded: Rule {
            var copy = withoutUntil
            copy.raw.count = 0
            return copy
        }

        /// For a SECONDLY, MINUTELY or HOURLY rule, the seconds between two
        /// of its steps (INTERVAL units); nil for longer frequencies.
        var stepSeconds: Int64? {
            let interval = Int64(max(1, Int(raw.interval)))
            switch raw.freq {
            case ICAL_SECONDLY_RECURRENCE: return interval
            case ICAL_MINUTELY_RECURRENCE: return 60 * interval
            case ICAL_HOURLY_RECURRENCE: return 3600 * interval
            default: return nil
            }
        }

        /// After how many days the rule's instances repeat on the wall
        /// clock, when its parts alone show it: a DAILY or WEEKLY rule
        /// whose only BY parts are BYDAY without ordinals, BYHOUR, BYMINUTE
        /// and BYSECOND. Such a rule, walked from DTSTART, gives in each
        /// span of that many days the instances of the first span moved by
        /// whole days. Nil for any other rule.
        var periodDays: Int? {
            let none = Int16(ICAL_RECURRENCE_ARRAY_MAX.rawValue)
            func isEmpty<T>(_ list: T) -> Bool { withUnsafeBytes(of: list) { $0.load(as: Int16.self) == none } }
            guard isEmpty(raw.by_month_day), isEmpty(raw.by_year_day), isEmpty(raw.by_week_no), isEmpty(raw.by_month),
                  isEmpty(raw.by_set_pos)
            else { return nil }
            let byDay = withUnsafeBytes(of: raw.by_day) { Array($0.bindMemory(to: Int16.self).prefix { $0 != none }) }
            guard byDay.allSatisfy({ icalrecurrencetype_day_position($0) == 0 }) else { return nil }
            let interval = max(1, Int(raw.interval))
            switch raw.freq {
            case ICAL_DAILY_RECURRENCE:
                guard !byDay.isEmpty else { return interval }
                var a = interval
                var b = 7
                while b != 0 { (a, b) = (b, a % b) }
                return interval / a * 7
            case ICAL_WEEKLY_RECURRENCE:
                return 7 * interval
            default:
                return nil
            }
        }
    }

    /// Why a RECUR value was refused.
    enum RuleProblem: Error {
        case unreadable
        case rscale(String)
    }

    static func rule(_ text: String) -> Result<Rule, RuleProblem> {
        _ = configured
        icalerror_clear_errno()
        var raw = text.withCString { icalrecurrencetype_from_string($0) }
        if let rscale = raw.rscale {
            let name = String(cString: rscale)
            free(rscale)
            raw.rscale = nil
            return .failure(.rscale(name))
        }
        guard raw.freq != ICAL_NO_RECURRENCE, icalerrno_return().pointee == ICAL_NO_ERROR else {
            return .failure(.unreadable)
        }
        return .success(Rule(raw: raw))
    }

    /// Walks a rule's instants from a start, in the start's own wall time.
    /// libical is handed floating times, so it never converts zones; the
    /// caller turns each wall time into an instant.
    final class Iterator {
        private let pointer: OpaquePointer
        private let isDate: Bool

        /// Nil when libical refuses the rule for this start (a BY part out
        /// of range for the frequency, for example).
        init?(_ rule: Rule, start: TimeValue) {
            _ = configured
            isDate = start.isDate
            guard let pointer = icalrecur_iterator_new(rule.raw, start.floating) else { return nil }
            self.pointer = pointer
        }

        deinit { icalrecur_iterator_free(pointer) }

        /// Jumps ahead: the next instance returned is the first at or after
        /// `start`. Only for rules without COUNT; false when libical
        /// refuses.
        func jump(to start: LocalDateTime) -> Bool {
            var t = TimeValue(local: start, isDate: isDate, isUTC: false).floating
            t.is_date = isDate ? 1 : 0
            return icalrecur_iterator_set_start(pointer, t) != 0
        }

        func next() -> LocalDateTime? {
            let t = icalrecur_iterator_next(pointer)
            guard icaltime_is_null_time(t) == 0 else { return nil }
            return LocalDateTime(year: Int(t.year), month: Int(t.month), day: Int(t.day),
                                 hour: Int(t.hour), minute: Int(t.minute), second: Int(t.second))
        }
    }
}

/// A DATE or DATE-TIME value as written: wall time, whether it is a DATE,
/// whether it ends in `Z`. Its TZID, if any, is the property's.
struct TimeValue: Hashable, Sendable {
    var local: LocalDateTime
    var isDate: Bool
    var isUTC: Bool

    init(local: LocalDateTime, isDate: Bool, isUTC: Bool) {
        self.local = local
        self.isDate = isDate
        self.isUTC = isUTC
    }

    fileprivate init?(_ t: icaltimetype) {
        let local = LocalDateTime(year: Int(t.year), month: Int(t.month), day: Int(t.day),
                                  hour: t.is_date != 0 ? 0 : Int(t.hour), minute: t.is_date != 0 ? 0 : Int(t.minute),
                                  second: t.is_date != 0 ? 0 : Int(t.second))
        guard local.date.isValid, (0...23).contains(local.hour), (0...59).contains(local.minute),
              (0...60).contains(local.second)
        else { return nil }
        self.init(local: local, isDate: t.is_date != 0, isUTC: icaltime_is_utc(t) != 0)
    }

    fileprivate var floating: icaltimetype {
        var t = icaltime_null_time()
        t.year = Int32(local.date.year)
        t.month = Int32(local.date.month)
        t.day = Int32(local.date.day)
        t.hour = Int32(local.hour)
        t.minute = Int32(local.minute)
        t.second = Int32(local.second)
        t.is_date = isDate ? 1 : 0
        return t
    }
}

/// A DURATION value: weeks and days are nominal (they follow the wall
/// clock across a DST change), hours, minutes and seconds exact.
struct NominalDuration: Hashable, Sendable {
    var days: Int
    var seconds: Int64

    init(days: Int, seconds: Int64) {
        self.days = days
        self.seconds = seconds
    }

    fileprivate init(_ d: icaldurationtype) {
        let sign = d.is_neg != 0 ? -1 : 1
        days = sign * (Int(d.weeks) * 7 + Int(d.days))
        seconds = Int64(sign) * (Int64(d.hours) * 3600 + Int64(d.minutes) * 60 + Int64(d.seconds))
    }
}

/// How an RDATE PERIOD gives its instance's length.
enum PeriodEnd: Hashable, Sendable {
    case end(TimeValue)
    case duration(NominalDuration)
}

extension Libical.Rule {
    /// For a MONTHLY rule on one weekday of the month by its place in it
    /// (`BYDAY=-1FR`, the last Friday; `BYDAY=2TU`, the second Tuesday)
    /// with no other BY parts: every how many months, the ISO weekday
    /// (1 Monday … 7 Sunday) and the place (negative counts from the
    /// month's end). Such a rule needs no walk: each month's instance is
    /// found by arithmetic, at DTSTART's time of day. Nil for any other rule.
    var monthlyWeekday: (interval: Int, weekday: Int, ordinal: Int)? {
        guard raw.freq == ICAL_MONTHLY_RECURRENCE else { return nil }
        let none = Int16(ICAL_RECURRENCE_ARRAY_MAX.rawValue)
        func isEmpty<T>(_ list: T) -> Bool { withUnsafeBytes(of: list) { $0.load(as: Int16.self) == none } }
        guard isEmpty(raw.by_second), isEmpty(raw.by_minute), isEmpty(raw.by_hour), isEmpty(raw.by_month_day),
              isEmpty(raw.by_year_day), isEmpty(raw.by_week_no), isEmpty(raw.by_month), isEmpty(raw.by_set_pos)
        else { return nil }
        let byDay = withUnsafeBytes(of: raw.by_day) { Array($0.bindMemory(to: Int16.self).prefix { $0 != none }) }
        guard byDay.count == 1 else { return nil }
        let ordinal = Int(icalrecurrencetype_day_position(byDay[0]))
        let day = Int(icalrecurrencetype_day_day_of_week(byDay[0]).rawValue)  // 1 Sunday … 7 Saturday
        guard ordinal != 0, (-5...5).contains(ordinal), (1...7).contains(day) else { return nil }
        return (max(1, Int(raw.interval)), day == 1 ? 7 : day - 1, ordinal)
    }
}


extension Libical.Rule {
    /// The rule's parts as Swift values, for ``RuleExpansion``.
    var parts: RecurrenceParts {
        let none = Int16(ICAL_RECURRENCE_ARRAY_MAX.rawValue)
        func list<T>(_ values: T) -> [Int16] {
            withUnsafeBytes(of: values) { Array($0.bindMemory(to: Int16.self).prefix { $0 != none }) }
        }
        func iso(_ day: icalrecurrencetype_weekday) -> Int {
            let sundayFirst = Int(day.rawValue)  // 1 Sunday … 7 Saturday
            return sundayFirst == 1 ? 7 : sundayFirst - 1
        }
        let frequency: RecurrenceParts.Frequency =
            switch raw.freq {
            case ICAL_SECONDLY_RECURRENCE: .secondly
            case ICAL_MINUTELY_RECURRENCE: .minutely
            case ICAL_HOURLY_RECURRENCE: .hourly
            case ICAL_DAILY_RECURRENCE: .daily
            case ICAL_WEEKLY_RECURRENCE: .weekly
            case ICAL_MONTHLY_RECURRENCE: .monthly
            default: .yearly
            }
        var parts = RecurrenceParts(frequency: frequency)
        parts.interval = max(1, Int(raw.interval))
        parts.count = max(0, Int(raw.count))
        parts.bySecond = list(raw.by_second).map(Int.init)
        parts.byMinute = list(raw.by_minute).map(Int.init)
        parts.byHour = list(raw.by_hour).map(Int.init)
        parts.byDay = list(raw.by_day).map {
            RecurrenceParts.Weekday(day: iso(icalrecurrencetype_day_day_of_week($0)), ordinal: Int(icalrecurrencetype_day_position($0)))
        }
        parts.byMonthDay = list(raw.by_month_day).map(Int.init)
        parts.byYearDay = list(raw.by_year_day).map(Int.init)
        parts.byWeekNo = list(raw.by_week_no).map(Int.init)
        parts.byMonth = list(raw.by_month).map { Int(icalrecurrencetype_month_month($0)) }
        parts.bySetPos = list(raw.by_set_pos).map(Int.init)
        if raw.week_start != ICAL_NO_WEEKDAY { parts.weekStart = iso(raw.week_start) }
        return parts
    }
}
