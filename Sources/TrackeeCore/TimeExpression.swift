/// Times as people type them on the command line: `--at 9:05`, `--since yesterday`.
public enum TimeExpression {
    /// Parses a user-typed time. `now` and `zone` make it deterministic.
    ///
    /// Accepted forms (surrounding spaces and letter case do not matter):
    /// - with an offset, exact: `2026-11-20T11:03:00+01:00`, `2026-11-20T11:03+01:00`,
    ///   `2026-11-20T10:03:00Z`, `2026-11-20 11:03:00+0100`; fractional seconds are ignored;
    /// - local wall time in `zone`: `2026-11-20 11:03`, `2026-11-20T11:03:15`,
    ///   `11:03` or `9:05` (today), `yesterday 11:03`, `today 11:03`, `tomorrow 11:03`;
    /// - the start of a local day: `2026-11-20`, `today`, `yesterday`, `tomorrow`;
    /// - a weekday, `monday` or `mon`: the coming one, or today if today is
    ///   that day; `next monday` is strictly after today and `last monday`
    ///   strictly before it; alone it is the start of that local day, and it
    ///   takes a wall time as the named days do: `monday 09:00`, `last fri 17:30`;
    /// - `now`;
    /// - relative to `now`, in elapsed seconds: `-2h`, `-1h30m`, `+15m`, `90m ago`,
    ///   `1h 30m ago`, `2 hours ago`, `30 min ago`, with units s/sec/second(s),
    ///   m/min/minute(s), h/hr/hour(s), d/day(s). `-2h` is always 7,200 seconds
    ///   earlier, even across a DST change; `-1d` is 86,400 seconds.
    ///
    /// A wall time resolves through ``Zone/instant(for:)``: one that happens
    /// twice (the hour repeated when clocks go back) means the earlier, and one
    /// that never happens (the hour skipped when clocks go forward) is moved
    /// forward by the gap, so 02:30 on Prague's spring-forward day is 03:30 CEST.
    ///
    ///     // now = 2026-11-20T10:30:00Z, zone = Europe/Prague
    ///     try TimeExpression.parse("yesterday 11:03", now: now, zone: prague)  // 2026-11-19T10:03:00Z
    public static func parse(_ text: String, now: Instant, zone: Zone) throws(TimeParseError) -> Instant {
        var scanner = TimeScanner(text)
        guard let instant = scanner.expression(now: now, zone: zone), scanner.atEnd else {
            throw TimeParseError(input: text)
        }
        return instant
    }

    /// A signed amount of time in seconds: `-2h` is -7,200, `+15m` 900,
    /// `-1h30m` -5,400; spaces and tabs around it do not matter. Nil for
    /// anything else, an unsigned `2h` or `90m ago` too.
    public static func signedAmount(_ text: String) -> Int64? {
        // Spaces and tabs only (Unicode's Zs and U+0009), as Foundation's
        // CharacterSet.whitespaces, which this was read with: a line break
        // is not trimmed.
        func blank(_ s: Unicode.Scalar) -> Bool { s == "\t" || s.properties.generalCategory == .spaceSeparator }
        var scalars = Substring(text).unicodeScalars
        while let first = scalars.first, blank(first) { scalars.removeFirst() }
        while let last = scalars.last, blank(last) { scalars.removeLast() }
        let trimmed = String(scalars)
        guard trimmed.hasPrefix("-") || trimmed.hasPrefix("+"),
              let instant = try? parse(trimmed, now: Instant(seconds: 0), zone: .utc)
        else { return nil }
        return instant.seconds
    }
}

/// Text that ``TimeExpression/parse(_:now:zone:)`` cannot read as a time.
public struct TimeParseError: Error, Equatable, CustomStringConvertible {
    public let input: String

    public init(input: String) { self.input = input }

    public var description: String {
        "cannot read \"\(input)\" as a time; use 2026-11-20T11:03+01:00, 2026-11-20 11:03, 11:03, yesterday 11:03, -2h or 90m ago"
    }
}

/// A cursor over the lower-cased ASCII bytes of the input; anything
/// non-ASCII simply fails to match.
private struct TimeScanner {
    private var bytes: [UInt8]
    private var index = 0

    init(_ text: String) {
        var bytes = Array(text.utf8).map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        while let last = bytes.last, Self.isSpace(last) { bytes.removeLast() }
        bytes.removeFirst(bytes.prefix(while: Self.isSpace).count)
        self.bytes = bytes
    }

    var atEnd: Bool { index == bytes.count }

    mutating func expression(now: Instant, zone: Zone) -> Instant? {
        if bytes.isEmpty { return nil }
        if let instant = attempt({ $0.relative(now: now) }) { return instant }
        if eatWord("now") { return now }
        // Only a word can name a day; dates and clock times skip the names.
        if Self.isLetter(bytes[index]), let date = attempt({ $0.namedDay(today: zone.localDate(now)) }) {
            if atEnd { return zone.startOfDay(date) }
            guard skipSpaces() > 0, let time = timeOfDay() else { return nil }
            return zone.instant(for: LocalDateTime(date: date, hour: time.hour, minute: time.minute, second: time.second))
        }
        if let date = attempt({ $0.date() }) {
            if atEnd { return zone.startOfDay(date) }
            guard eat("t") || skipSpaces() > 0, let time = timeOfDay() else { return nil }
            let local = LocalDateTime(date: date, hour: time.hour, minute: time.minute, second: time.second)
            _ = skipSpaces()
            if atEnd { return zone.instant(for: local) }
            guard let offset = utcOffset() else { return nil }
            return Instant(seconds: local.secondsSinceEpoch - Int64(offset))
        }
        if let time = timeOfDay() {
            let today = zone.localDate(now)
            return zone.instant(for: LocalDateTime(date: today, hour: time.hour, minute: time.minute, second: time.second))
        }
        return nil
    }

    // MARK: Relative

    /// `-2h`, `+1h30m`, `90m ago`, `2 hours ago`.
    private mutating func relative(now: Instant) -> Instant? {
        let sign: Int64? = eat("-") ? -1 : eat("+") ? 1 : nil
        if sign != nil { _ = skipSpaces() }
        guard let amount = amount() else { return nil }
        if sign == nil {
            guard skipSpaces() > 0, eatWord("ago") else { return nil }
        }
        guard atEnd else { return nil }
        let (delta, overflowed) = amount.multipliedReportingOverflow(by: sign ?? -1)
        let (seconds, outOfRange) = now.seconds.addingReportingOverflow(delta)
        return overflowed || outOfRange ? nil : Instant(seconds: seconds)
    }

    /// One or more `number unit` pairs, such as `1h30m` or `1 hour 30 minutes`.
    private mutating func amount() -> Int64? {
        var total: Int64 = 0
        var pairs = 0
        while true {
            let save = index
            if pairs > 0 { _ = skipSpaces() }
            guard let n = number(minDigits: 1, maxDigits: 12) else {
                index = save
                break
            }
            _ = skipSpaces()
            guard let unit = unitSeconds() else { return nil }
            let (part, o1) = Int64(n).multipliedReportingOverflow(by: unit)
            let (sum, o2) = total.addingReportingOverflow(part)
            guard !o1, !o2 else { return nil }
            total = sum
            pairs += 1
        }
        return pairs > 0 ? total : nil
    }

    private static let units: [String: Int64] = [
        "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
        "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
        "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
        "d": 86_400, "day": 86_400, "days": 86_400,
    ]

    private mutating func unitSeconds() -> Int64? {
        let start = index
        while index < bytes.count, Self.isLetter(bytes[index]) { index += 1 }
        return Self.units[String(decoding: bytes[start..<index], as: UTF8.self)]
    }

    // MARK: Named days

    /// `today`, `yesterday`, `tomorrow`, `monday` (the coming one, or today),
    /// `next monday` (strictly after today) and `last monday` (strictly before).
    private mutating func namedDay(today: LocalDate) -> LocalDate? {
        for (word, days) in [("yesterday", -1), ("today", 0), ("tomorrow", 1)] where eatWord(word) {
            return today.adding(days: days)
        }
        let direction: Int
        if eatWord("next") {
            direction = 1
        } else if eatWord("last") {
            direction = -1
        } else {
            direction = 0
        }
        if direction != 0, skipSpaces() == 0 { return nil }
        guard let weekday = weekday() else { return nil }
        // Days from today forward to the weekday, 0 when today is that day.
        let ahead = (weekday.rawValue - today.weekday + 7) % 7
        switch direction {
        case 1: return today.adding(days: ahead == 0 ? 7 : ahead)
        case -1: return today.adding(days: ahead == 0 ? -7 : ahead - 7)
        default: return today.adding(days: ahead)
        }
    }

    /// A weekday's full English name or its first three letters; longer
    /// prefixes such as `tues` are refused so the grammar stays two forms.
    private mutating func weekday() -> Weekday? {
        for day in Weekday.allCases {
            if eatWord(day.fullName) || eatWord(String(day.fullName.prefix(3))) { return day }
        }
        return nil
    }

    // MARK: Dates and times

    /// `2026-11-20`, checked against the calendar.
    private mutating func date() -> LocalDate? {
        guard let year = number(minDigits: 4, maxDigits: 4), eat("-"),
            let month = number(minDigits: 2, maxDigits: 2), eat("-"),
            let day = number(minDigits: 2, maxDigits: 2)
        else { return nil }
        let date = LocalDate(year: year, month: month, day: day)
        return date.isValid ? date : nil
    }

    /// `11:03`, `9:05`, `11:03:15`, `11:03:15.250` (the fraction is dropped).
    private mutating func timeOfDay() -> (hour: Int, minute: Int, second: Int)? {
        guard let hour = number(minDigits: 1, maxDigits: 2), hour < 24, eat(":"),
            let minute = number(minDigits: 2, maxDigits: 2), minute < 60
        else { return nil }
        var second = 0
        if eat(":") {
            guard let s = number(minDigits: 2, maxDigits: 2), s < 60 else { return nil }
            second = s
            if eat(".") {
                let start = index
                while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
                guard index > start else { return nil }
            }
        }
        return (hour, minute, second)
    }

    /// `Z`, `+01:00`, `+0100` or `+01`, in seconds east of UTC, at most 18 hours.
    private mutating func utcOffset() -> Int? {
        if eat("z") { return 0 }
        let sign: Int
        if eat("+") { sign = 1 } else if eat("-") { sign = -1 } else { return nil }
        guard let hours = twoDigits() else { return nil }
        var minutes = 0
        if eat(":") {
            guard let m = twoDigits() else { return nil }
            minutes = m
        } else if let m = twoDigits() {
            minutes = m
        }
        let seconds = hours * 3600 + minutes * 60
        guard minutes < 60, seconds <= 18 * 3600 else { return nil }
        return sign * seconds
    }

    // MARK: Tokens

    /// Runs `parse`, rewinding when it fails so another form can be tried.
    private mutating func attempt<T>(_ parse: (inout TimeScanner) -> T?) -> T? {
        let save = index
        if let value = parse(&self) { return value }
        index = save
        return nil
    }

    /// Consumes `word` only when no letter follows, so `today` does not match `todays`.
    private mutating func eatWord(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, bytes[index..<index + w.count].elementsEqual(w) else { return false }
        if index + w.count < bytes.count, Self.isLetter(bytes[index + w.count]) { return false }
        index += w.count
        return true
    }

    private mutating func eat(_ c: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: c) else { return false }
        index += 1
        return true
    }

    private mutating func skipSpaces() -> Int {
        let start = index
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        return index - start
    }

    /// Between `minDigits` and `maxDigits` digits; nil if more digits follow.
    private mutating func number(minDigits: Int, maxDigits: Int) -> Int? {
        let start = index
        var value = 0
        while index < bytes.count, Self.isDigit(bytes[index]) {
            guard index - start < maxDigits else {
                index = start
                return nil
            }
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        guard index - start >= minDigits else {
            index = start
            return nil
        }
        return value
    }

    /// Exactly two digits, whatever follows (`+0100` packs hours and minutes).
    private mutating func twoDigits() -> Int? {
        guard index + 2 <= bytes.count, Self.isDigit(bytes[index]), Self.isDigit(bytes[index + 1]) else { return nil }
        defer { index += 2 }
        return Int(bytes[index] - 0x30) * 10 + Int(bytes[index + 1] - 0x30)
    }

    private static func isDigit(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) }
    private static func isLetter(_ c: UInt8) -> Bool { (0x61...0x7A).contains(c) }
    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
}
