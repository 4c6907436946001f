import TrackeeCore

/// A recurrence rule's parts as Swift values (RFC 5545 3.3.10), read from
/// libical's parse of the RECUR value.
struct RecurrenceParts: Sendable {
    enum Frequency: Sendable { case secondly, minutely, hourly, daily, weekly, monthly, yearly }

    /// A BYDAY entry: an ISO weekday (1 Monday … 7 Sunday) and its place
    /// in the month or year (0 for every such weekday; negative counts
    /// from the end).
    struct Weekday: Sendable, Equatable {
        var day: Int
        var ordinal: Int
    }

    var frequency: Frequency
    var interval = 1
    /// 0 when the rule has no COUNT.
    var count = 0
    var bySecond: [Int] = []
    var byMinute: [Int] = []
    var byHour: [Int] = []
    var byDay: [Weekday] = []
    var byMonthDay: [Int] = []
    var byYearDay: [Int] = []
    var byWeekNo: [Int] = []
    var byMonth: [Int] = []
    var bySetPos: [Int] = []
    /// WKST as an ISO weekday; Monday when the rule does not say.
    var weekStart = 1
}

/// The instances of a recurrence rule, worked out on DTSTART's wall clock
/// as RFC 5545 3.3.10 describes rather than walked through libical, which
/// ignores BYSETPOS in DAILY and WEEKLY rules, gives a YEARLY BYMONTHDAY
/// without BYMONTH once a year instead of every month, loses an HOURLY
/// rule's steps behind BYHOUR, and refuses rules such as BYDAY with an
/// ordinal beside BYMONTHDAY.
///
/// Each interval of the rule (the year, month, week from WKST, or day of
/// every INTERVAL-th step from DTSTART's) gives the days that pass every
/// BY part. BYMONTH, BYMONTHDAY, BYYEARDAY and BYDAY expand or limit as
/// the RFC's table says, which comes to the same thing as keeping the
/// days of the interval that match them all, where a YEARLY BYMONTHDAY
/// without BYMONTH matches in every month, and a day matches BYDAY when it
/// matches any of its entries (one with an ordinal counts in the month,
/// for MONTHLY or YEARLY with BYMONTH, or else in the year).
/// Those days at every BYHOUR, BYMINUTE and BYSECOND time (DTSTART's when
/// absent), in order, are the interval's set; BYSETPOS then picks from
/// that whole set, before DTSTART, UNTIL and COUNT cut it. Parts a rule
/// does not give default to DTSTART's: its month day (and month, for
/// YEARLY), or its weekday (WEEKLY).
///
/// An HOURLY, MINUTELY or SECONDLY rule steps from DTSTART's hour,
/// minute or second by INTERVAL on the wall clock; each step is an
/// interval whose set is its minutes and seconds (BYMINUTE and BYSECOND
/// expanding where the table says), kept when its day passes the BY parts
/// above and its hour, minute and second pass BYHOUR, BYMINUTE and
/// BYSECOND where those limit.
///
/// BYWEEKNO, and sub-daily rules on a DATE, are left to libical (no
/// expansion: the initializer answers nil).
struct RuleExpansion: Sendable {
    private let frequency: RecurrenceParts.Frequency
    private let interval: Int
    private let count: Int
    private let first: LocalDateTime
    private let firstDay: Int64
    private let firstSeconds: Int64
    /// Bit `m` set for each BYMONTH month; 0 for any month.
    private let months: UInt16
    /// Bit `d` set for each ISO weekday BYDAY names without an ordinal.
    private let weekdays: UInt8
    /// BYDAY entries with an ordinal.
    private let ordinals: [RecurrenceParts.Weekday]
    /// Whether an ordinal counts within the month rather than the year.
    private let ordinalsInMonth: Bool
    private let monthDays: [Int]
    private let yearDays: [Int]
    /// Seconds into the day, ascending.
    private let times: [Int64]
    private let setPositions: [Int]
    /// The first day of the week holding DTSTART (WEEKLY).
    private let firstWeek: Int64
    /// For a sub-daily rule, the seconds of its unit (an hour, a minute,
    /// a second); 0 otherwise. Its `times` are then seconds into a step.
    private let unit: Int64
    /// BYHOUR, BYMINUTE and BYSECOND where they limit a sub-daily rule:
    /// bit `n` set for each value; 0 where they do not.
    private let hourLimit: UInt32
    private let minuteLimit: UInt64
    private let secondLimit: UInt64

    init?(_ parts: RecurrenceParts, start: TimeValue) {
        unit = switch parts.frequency {
            case .hourly: 3600
            case .minutely: 60
            case .secondly: 1
            default: 0
        }
        guard parts.byWeekNo.isEmpty, unit == 0 || !start.isDate else { return nil }
        frequency = parts.frequency
        interval = max(1, parts.interval)
        count = max(0, parts.count)
        first = start.local
        firstDay = start.local.date.daysSinceEpoch
        firstSeconds = start.local.secondsSinceEpoch
        var byMonth = parts.byMonth
        var byMonthDay = parts.byMonthDay
        var byDay = parts.byDay
        if parts.byDay.isEmpty && parts.byMonthDay.isEmpty && parts.byYearDay.isEmpty {
            switch parts.frequency {
            case .yearly:
                if byMonth.isEmpty { byMonth = [first.date.month] }
                byMonthDay = [first.date.day]
            case .monthly:
                byMonthDay = [first.date.day]
            case .weekly:
                byDay = [.init(day: first.date.weekday, ordinal: 0)]
            default:
                break
            }
        }
        months = byMonth.filter { (1...12).contains($0) }.reduce(0) { $0 | UInt16(1) << $1 }
        // An ordinal means nothing in a week or a day (RFC 5545 forbids
        // it there); such an entry is read as its weekday.
        let counted = parts.frequency == .monthly || parts.frequency == .yearly
        weekdays = byDay.filter { !counted || $0.ordinal == 0 }.filter { (1...7).contains($0.day) }
            .reduce(0) { $0 | UInt8(1) << $1.day }
        ordinals = counted ? byDay.filter { $0.ordinal != 0 && (1...7).contains($0.day) } : []
        ordinalsInMonth = parts.frequency == .monthly || !byMonth.isEmpty
        monthDays = byMonthDay.filter { $0 != 0 && (-31...31).contains($0) }
        yearDays = parts.byYearDay.filter { $0 != 0 && (-366...366).contains($0) }
        func mask<T: FixedWidthInteger>(_ values: [Int], _ range: ClosedRange<Int>) -> T {
            values.filter(range.contains).reduce(0) { $0 | T(1) << $1 }
        }
        hourLimit = unit == 0 ? 0 : mask(parts.byHour, 0...23)
        minuteLimit = unit == 0 || unit == 3600 ? 0 : mask(parts.byMinute, 0...59)
        secondLimit = unit == 1 ? mask(parts.bySecond, 0...60) : 0
        if unit != 0 {
            let minutes = unit == 3600 ? (parts.byMinute.isEmpty ? [first.minute] : parts.byMinute.filter { (0...59).contains($0) }) : [0]
            let seconds = unit >= 60 ? (parts.bySecond.isEmpty ? [first.second] : parts.bySecond.filter { (0...60).contains($0) }) : [0]
            var times: Set<Int64> = []
            for m in minutes { for s in seconds { times.insert(Int64(m * 60 + s)) } }
            self.times = times.sorted()
        } else if start.isDate {
            // A DATE has no time of day for BYHOUR and the like to change.
            times = [Int64(first.hour * 3600 + first.minute * 60 + first.second)]
        } else {
            let hours = parts.byHour.isEmpty ? [first.hour] : parts.byHour.filter { (0...23).contains($0) }
            let minutes = parts.byMinute.isEmpty ? [first.minute] : parts.byMinute.filter { (0...59).contains($0) }
            let seconds = parts.bySecond.isEmpty ? [first.second] : parts.bySecond.filter { (0...60).contains($0) }
            var times: Set<Int64> = []
            for h in hours { for m in minutes { for s in seconds { times.insert(Int64(h * 3600 + m * 60 + s)) } } }
            self.times = times.sorted()
        }
        setPositions = parts.bySetPos.filter { $0 != 0 }
        firstWeek = firstDay - Int64((first.date.weekday - parts.weekStart + 7) % 7)
    }

    /// The rule's wall times in `[low, high]`, from DTSTART on, none after
    /// `until`, and only the first COUNT of them when `counted` (COUNT
    /// counts from DTSTART, so such a rule is walked from there).
    func walls(from low: LocalDateTime, through high: LocalDateTime, until: LocalDateTime?, counted: Bool = true)
        -> [LocalDateTime]
    {
        var found = Found(limit: counted ? count : 0, low: low.secondsSinceEpoch, high: high.secondsSinceEpoch,
                          until: until?.secondsSinceEpoch ?? .max, first: firstSeconds)
        if unit != 0 {
            subDaily(&found, low: low)
            return found.walls
        }
        var step = found.limit == 0 ? firstStep(atOrBefore: low) : 0
        var candidates: [Int64] = []
        var days: [Int64] = []
        for _ in 0..<RuleWalk.countedLimit {
            let (begin, end) = span(step)
            if begin * 86_400 > found.last { break }
            days.removeAll(keepingCapacity: true)
            var day = begin
            while day <= end {
                if matches(day) { days.append(day) }
                day += 1
            }
            candidates.removeAll(keepingCapacity: true)
            if setPositions.isEmpty {
                for day in days { for time in times { candidates.append(day * 86_400 + time) } }
            } else {
                pick(days.count * times.count, into: &candidates) { days[$0 / times.count] * 86_400 + times[$0 % times.count] }
            }
            if !found.take(candidates) { break }
            step += 1
        }
        return found.walls
    }

    /// ``walls(from:through:until:counted:)`` for an HOURLY, MINUTELY or
    /// SECONDLY rule. A step whose day, hour or minute fails a limit skips
    /// to the first step of the next day, hour or minute.
    private func subDaily(_ found: inout Found, low: LocalDateTime) {
        let base = firstSeconds - (firstSeconds % unit + unit) % unit
        let length = unit * Int64(interval)
        func stepAtOrAfter(_ seconds: Int64) -> Int64 { max(0, (seconds - base + length - 1) / length) }
        var step: Int64 = found.limit == 0 ? max(0, (low.secondsSinceEpoch - base) / length) : 0
        var candidates: [Int64] = []
        for _ in 0..<RuleWalk.countedLimit {
            let start = base + step * length
            if start > found.last { return }
            let day = start >= 0 ? start / 86_400 : (start - 86_399) / 86_400
            let second = start - day * 86_400
            if !matches(day) {
                step = max(step + 1, stepAtOrAfter((day + 1) * 86_400))
                continue
            }
            if hourLimit != 0 && hourLimit & (UInt32(1) << (second / 3600)) == 0 {
                step = max(step + 1, stepAtOrAfter(day * 86_400 + (second / 3600 + 1) * 3600))
                continue
            }
            if minuteLimit != 0 && minuteLimit & (UInt64(1) << (second % 3600 / 60)) == 0 {
                step = max(step + 1, stepAtOrAfter(day * 86_400 + (second / 60 + 1) * 60))
                continue
            }
            if secondLimit != 0 && secondLimit & (UInt64(1) << (second % 60)) == 0 {
                step += 1
                continue
            }
            candidates.removeAll(keepingCapacity: true)
            if setPositions.isEmpty {
                for time in times { candidates.append(start + time) }
            } else {
                pick(times.count, into: &candidates) { start + times[$0] }
            }
            if !found.take(candidates) { return }
            step += 1
        }
    }

    /// BYSETPOS: the members of an interval's ordered set of `size` that
    /// its positions name, in order.
    private func pick(_ size: Int, into candidates: inout [Int64], _ member: (Int) -> Int64) {
        for position in setPositions {
            let index = position > 0 ? position - 1 : size + position
            guard index >= 0 && index < size else { continue }
            candidates.append(member(index))
        }
        candidates.sort()
    }

    /// The instances kept so far, and where to stop.
    private struct Found {
        let limit: Int
        let low: Int64
        let high: Int64
        let until: Int64
        let first: Int64
        var last: Int64 { min(high, until) }
        var produced = 0
        var walls: [LocalDateTime] = []

        init(limit: Int, low: Int64, high: Int64, until: Int64, first: Int64) {
            (self.limit, self.low, self.high, self.until, self.first) = (limit, low, high, until, first)
        }

        /// Takes one interval's instances, ascending; false once nothing
        /// later can be kept.
        mutating func take(_ candidates: [Int64]) -> Bool {
            var previous: Int64?
            for wall in candidates where wall != previous {
                previous = wall
                if wall > until { return false }
                if wall < first { continue }
                produced += 1
                if limit > 0 && produced > limit { return false }
                if wall > high { return false }
                if wall >= low { walls.append(LocalDateTime(secondsSinceEpoch: wall)) }
            }
            return true
        }
    }

    /// The step whose interval holds `low`, or the last before it.
    private func firstStep(atOrBefore low: LocalDateTime) -> Int {
        let steps: Int64
        switch frequency {
        case .yearly:
            steps = Int64(low.date.year - first.date.year) / Int64(interval)
        case .monthly:
            steps = Int64((low.date.year - first.date.year) * 12 + low.date.month - first.date.month) / Int64(interval)
        case .weekly:
            steps = (low.date.daysSinceEpoch - firstWeek) / (7 * Int64(interval))
        default:
            steps = (low.date.daysSinceEpoch - firstDay) / Int64(interval)
        }
        return Int(max(0, steps))
    }

    /// The first and last day of the `step`-th interval.
    private func span(_ step: Int) -> (Int64, Int64) {
        switch frequency {
        case .yearly:
            let year = first.date.year + step * interval
            return (LocalDate(year: year, month: 1, day: 1).daysSinceEpoch,
                    LocalDate(year: year, month: 12, day: 31).daysSinceEpoch)
        case .monthly:
            let index = first.date.year * 12 + first.date.month - 1 + step * interval
            let year = index >= 0 ? index / 12 : (index - 11) / 12
            let month = index - year * 12 + 1
            let begin = LocalDate(year: year, month: month, day: 1).daysSinceEpoch
            return (begin, begin + Int64(LocalDate.daysIn(year: year, month: month)) - 1)
        case .weekly:
            let begin = firstWeek + Int64(7 * step * interval)
            return (begin, begin + 6)
        default:
            let day = firstDay + Int64(step * interval)
            return (day, day)
        }
    }

    /// Whether the day passes BYMONTH, BYMONTHDAY, BYYEARDAY and BYDAY.
    private func matches(_ day: Int64) -> Bool {
        let date = LocalDate(daysSinceEpoch: day)
        if months != 0 && months & (UInt16(1) << date.month) == 0 { return false }
        let monthLength = LocalDate.daysIn(year: date.year, month: date.month)
        if !monthDays.isEmpty && !monthDays.contains(where: { $0 == date.day || $0 == date.day - monthLength - 1 }) {
            return false
        }
        if !yearDays.isEmpty {
            let yearDay = Int(day - LocalDate(year: date.year, month: 1, day: 1).daysSinceEpoch) + 1
            let yearLength = LocalDate.isLeap(date.year) ? 366 : 365
            if !yearDays.contains(where: { $0 == yearDay || $0 == yearDay - yearLength - 1 }) { return false }
        }
        if weekdays == 0 && ordinals.isEmpty { return true }
        let weekday = Int((day % 7 + 7 + 3) % 7) + 1
        if weekdays & (UInt8(1) << weekday) != 0 { return true }
        for entry in ordinals where entry.day == weekday {
            let (begin, length) =
                ordinalsInMonth
                ? (day - Int64(date.day - 1), monthLength)
                : (LocalDate(year: date.year, month: 1, day: 1).daysSinceEpoch, LocalDate.isLeap(date.year) ? 366 : 365)
            let place = entry.ordinal > 0
                ? Int(day - begin) / 7 + 1
                : -(Int(begin + Int64(length) - 1 - day) / 7 + 1)
            if place == entry.ordinal { return true }
        }
        return false
    }
}
