/// A calendar date with no zone: a day on the wall calendar.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` days after 1970-01-01 (negative is before).
    public init(daysSinceEpoch days: Int64) {
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: Int(m <= 2 ? y + 1 : y), month: Int(m), day: Int(d))
    }

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    public var daysSinceEpoch: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// ISO weekday: 1 is Monday, 7 is Sunday.
    public var weekday: Int {
        let d = daysSinceEpoch
        // 1970-01-01 was a Thursday (4).
        let w = ((d % 7) + 7 + 3) % 7
        return Int(w) + 1
    }

    public func adding(days: Int) -> LocalDate {
        LocalDate(daysSinceEpoch: daysSinceEpoch + Int64(days))
    }

    /// Adds months, clamping the day to the target month's length.
    public func adding(months: Int) -> LocalDate {
        let total = year * 12 + (month - 1) + months
        let y = total >= 0 ? total / 12 : (total - 11) / 12
        let m = total - y * 12 + 1
        return LocalDate(year: y, month: m, day: min(day, LocalDate.daysIn(year: y, month: m)))
    }

    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// True when the fields name a real calendar day.
    public var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= LocalDate.daysIn(year: year, month: month)
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// `2026-11-20`.
    public var description: String {
        "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}

/// A wall-clock date and time with no zone.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var date: LocalDate
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(date: LocalDate, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.init(date: LocalDate(year: year, month: month, day: day), hour: hour, minute: minute, second: second)
    }

    /// Seconds since 1970-01-01T00:00:00 on the same wall clock, as if the
    /// zone were UTC. Subtract a UTC offset to get an ``Instant``.
    public var secondsSinceEpoch: Int64 {
        date.daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    public init(secondsSinceEpoch s: Int64) {
        let days = s >= 0 ? s / 86_400 : (s - 86_399) / 86_400
        let rest = Int(s - days * 86_400)
        self.init(date: LocalDate(daysSinceEpoch: days), hour: rest / 3600, minute: rest / 60 % 60, second: rest % 60)
    }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        a.secondsSinceEpoch < b.secondsSinceEpoch
    }

    /// `2026-11-20T11:03:00`.
    public var description: String {
        "\(date)T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
    }
}

/// Zero-pads a non-negative number to `width` digits without Foundation's
/// formatters, which are slow to load.
@inlinable
public func pad(_ value: Int, _ width: Int) -> String {
    var s = String(value < 0 ? -value : value)
    if s.utf8.count < width {
        s = String(repeating: "0", count: width - s.utf8.count) + s
    }
    return value < 0 ? "-" + s : s
}

/// `+01:00`, `-05:00`, or `Z` when `utc` is set and the offset is zero.
public func formatOffset(_ seconds: Int, zulu: Bool = false) -> String {
    if seconds == 0 && zulu { return "Z" }
    let sign = seconds < 0 ? "-" : "+"
    let a = abs(seconds)
    var s = sign + pad(a / 3600, 2) + ":" + pad(a / 60 % 60, 2)
    if a % 60 != 0 { s += ":" + pad(a % 60, 2) }
    return s
}
