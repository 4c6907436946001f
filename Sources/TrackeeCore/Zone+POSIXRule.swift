/// One kind of local time a zone can be in: its UTC offset, whether it is
/// daylight-saving time, and the abbreviation people see ("CET", "CEST").
struct LocalTimeType: Sendable, Hashable {
    /// Seconds east of UTC.
    var offset: Int
    var isDST: Bool
    var abbreviation: String
}

/// A POSIX `TZ` rule such as `CET-1CEST,M3.5.0,M10.5.0/3`.
///
/// TZif files end with one of these to describe every instant after their
/// last stored transition, so the far future needs it; people may also set
/// `TZ` to one directly. The grammar is POSIX's plus the RFC 8536 §3.3.1
/// extension that lets transition times be negative or exceed 24 hours
/// (`-167` to `167`), which tzdata uses for zones such as America/Godthab.
struct POSIXRule: Sendable, Hashable {
    var standard: LocalTimeType
    var daylight: Daylight?

    struct Daylight: Sendable, Hashable {
        var type: LocalTimeType
        /// Into daylight time; the time of day is on the standard-time clock.
        var start: Change
        /// Back to standard time; the time of day is on the daylight-time clock.
        var end: Change
    }

    struct Change: Sendable, Hashable {
        var date: RuleDate
        /// Seconds after local midnight of `date`; may be negative or past 24 h.
        var time: Int
    }

    enum RuleDate: Sendable, Hashable {
        /// `Jn`: day 1...365, never counting February 29, so `J60` is always March 1.
        case julian(Int)
        /// `n`: day 0...365, counting February 29 in leap years.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (5 = the last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)

        /// The date in `year`, as days since 1970-01-01.
        func day(in year: Int) -> Int64 {
            let january1 = LocalDate(year: year, month: 1, day: 1).daysSinceEpoch
            switch self {
            case .julian(let n):
                let skipsLeapDay = LocalDate.isLeap(year) && n >= 60
                return january1 + Int64(n - 1 + (skipsLeapDay ? 1 : 0))
            case .zeroBased(let n):
                return january1 + Int64(n)
            case .monthWeekDay(let month, let week, let weekday):
                let first = LocalDate(year: year, month: month, day: 1)
                let firstWeekday = first.weekday % 7  // ISO Sunday 7 becomes POSIX 0
                var day = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
                let length = LocalDate.daysIn(year: year, month: month)
                while day > length { day -= 7 }
                return first.daysSinceEpoch + Int64(day - 1)
            }
        }
    }

    /// Without an explicit rule POSIX leaves the dates to the implementation;
    /// tzcode and glibc use the current US rule, so we do too.
    static let defaultStart = Change(date: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
    static let defaultEnd = Change(date: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)

    func type(at t: Int64) -> LocalTimeType {
        guard let daylight else { return standard }
        let year = Self.year(ofLocalSeconds: t + Int64(standard.offset))
        // The latest change at or before `t` decides. Changes of `year` can
        // both lie ahead of `t` (January in either hemisphere), so look back
        // one year before giving up.
        for y in [year, year - 1] {
            let start = startInstant(in: y, daylight)
            let end = endInstant(in: y, daylight)
            if start <= end {
                if t >= end { return standard }
                if t >= start { return daylight.type }
            } else {
                if t >= start { return daylight.type }
                if t >= end { return standard }
            }
        }
        return standard
    }

    /// The first instant after `t` at which the rule switches, or nil when
    /// it never does.
    func nextTransition(after t: Int64) -> Int64? {
        guard let daylight else { return nil }
        let year = Self.year(ofLocalSeconds: t + Int64(standard.offset))
        var next: Int64?
        for y in (year - 1)...(year + 1) {
            for candidate in [startInstant(in: y, daylight), endInstant(in: y, daylight)] where candidate > t {
                next = min(next ?? candidate, candidate)
            }
        }
        return next
    }

    private func startInstant(in year: Int, _ daylight: Daylight) -> Int64 {
        daylight.start.date.day(in: year) * 86_400 + Int64(daylight.start.time) - Int64(standard.offset)
    }

    private func endInstant(in year: Int, _ daylight: Daylight) -> Int64 {
        daylight.end.date.day(in: year) * 86_400 + Int64(daylight.end.time) - Int64(daylight.type.offset)
    }

    private static func year(ofLocalSeconds s: Int64) -> Int {
        let days = s >= 0 ? s / 86_400 : (s - 86_399) / 86_400
        return LocalDate(daysSinceEpoch: days).year
    }
}

// MARK: - Parsing

extension POSIXRule {
    /// Parses a `TZ` value; nil when it is not a valid rule.
    init?(_ text: String) {
        var p = RuleParser(bytes: Array(text.utf8))
        guard let standardName = p.name(), let standardOffset = p.offset() else { return nil }
        standard = LocalTimeType(offset: -standardOffset, isDST: false, abbreviation: standardName)
        if p.atEnd {
            daylight = nil
            return
        }
        guard let daylightName = p.name() else { return nil }
        // POSIX offsets count hours west of UTC; daylight defaults to one hour ahead.
        var daylightOffset = -standardOffset + 3600
        if !p.atEnd && p.peek != UInt8(ascii: ",") {
            guard let offset = p.offset() else { return nil }
            daylightOffset = -offset
        }
        var start = Self.defaultStart
        var end = Self.defaultEnd
        if !p.atEnd {
            guard p.eat(","), let s = p.change(), p.eat(","), let e = p.change(), p.atEnd else { return nil }
            start = s
            end = e
        }
        daylight = Daylight(
            type: LocalTimeType(offset: daylightOffset, isDST: true, abbreviation: daylightName),
            start: start, end: end)
    }
}

private struct RuleParser {
    let bytes: [UInt8]
    var index = 0

    var atEnd: Bool { index == bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[index] }

    mutating func eat(_ c: Unicode.Scalar) -> Bool {
        guard peek == UInt8(ascii: c) else { return false }
        index += 1
        return true
    }

    /// `CET` (three or more letters) or `<+03>` (quoted, letters, digits and signs).
    mutating func name() -> String? {
        let begin = index
        if eat("<") {
            let inner = index
            while let c = peek, isLetter(c) || isDigit(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
                index += 1
            }
            let end = index
            guard end - inner >= 3, eat(">") else { return nil }
            return String(decoding: bytes[inner..<end], as: UTF8.self)
        }
        while let c = peek, isLetter(c) { index += 1 }
        guard index - begin >= 3 else { return nil }
        return String(decoding: bytes[begin..<index], as: UTF8.self)
    }

    /// A UTC offset as POSIX writes it: hours west, `[+-]hh[:mm[:ss]]`, hours 0...24.
    mutating func offset() -> Int? {
        signedTime(maxHours: 24)
    }

    /// `date[/time]`, where time is RFC 8536's extended `[+-]hhh[:mm[:ss]]`.
    mutating func change() -> POSIXRule.Change? {
        guard let date = ruleDate() else { return nil }
        var time = 7200
        if eat("/") {
            guard let t = signedTime(maxHours: 167) else { return nil }
            time = t
        }
        return POSIXRule.Change(date: date, time: time)
    }

    private mutating func ruleDate() -> POSIXRule.RuleDate? {
        if eat("J") {
            guard let n = number(maxDigits: 3), (1...365).contains(n) else { return nil }
            return .julian(n)
        }
        if eat("M") {
            guard let m = number(maxDigits: 2), (1...12).contains(m), eat("."),
                let w = number(maxDigits: 1), (1...5).contains(w), eat("."),
                let d = number(maxDigits: 1), (0...6).contains(d)
            else { return nil }
            return .monthWeekDay(month: m, week: w, weekday: d)
        }
        guard let n = number(maxDigits: 3), (0...365).contains(n) else { return nil }
        return .zeroBased(n)
    }

    private mutating func signedTime(maxHours: Int) -> Int? {
        var sign = 1
        if eat("-") { sign = -1 } else { _ = eat("+") }
        guard let hours = number(maxDigits: 3), hours <= maxHours else { return nil }
        var seconds = hours * 3600
        if eat(":") {
            guard let minutes = number(maxDigits: 2), minutes < 60 else { return nil }
            seconds += minutes * 60
            if eat(":") {
                guard let s = number(maxDigits: 2), s < 60 else { return nil }
                seconds += s
            }
        }
        return sign * seconds
    }

    private mutating func number(maxDigits: Int) -> Int? {
        let begin = index
        var value = 0
        while let c = peek, isDigit(c), index - begin < maxDigits {
            value = value * 10 + Int(c - UInt8(ascii: "0"))
            index += 1
        }
        return index > begin ? value : nil
    }

    private func isLetter(_ c: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c | 0x20)
    }

    private func isDigit(_ c: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
    }
}
