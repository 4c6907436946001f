import TrackeeCore

/// The times other trackers write, read without Foundation.
enum ImportTime {
    /// `bytes`, all ASCII digits (at most nine), as a number; nil if any is
    /// not a digit.
    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 9 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    private static func valid(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> Bool {
        (1...12).contains(month) && day >= 1 && day <= LocalDate.daysIn(year: year, month: month) && hour < 24
            && minute < 60 && second < 61
    }

    /// `20261120T080000Z`, Timewarrior's UTC.
    static func compactUTC(_ text: String) -> Instant? {
        let b = Array(text.utf8)
        guard b.count == 16, b[8] == UInt8(ascii: "T"), b[15] == UInt8(ascii: "Z"),
              let year = number(b[0..<4]), let month = number(b[4..<6]), let day = number(b[6..<8]),
              let hour = number(b[9..<11]), let minute = number(b[11..<13]), let second = number(b[13..<15]),
              valid(year, month, day, hour, minute, second)
        else { return nil }
        return Instant(seconds: LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute,
                                              second: second).secondsSinceEpoch)
    }

    /// `2026-11-20T09:00:00+01:00` (or `Z`, `+0100`, a fraction of a
    /// second, which is dropped).
    static func iso8601(_ text: String) -> Instant? {
        let b = Array(text.utf8)
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "), b[13] == UInt8(ascii: ":"),
              b[16] == UInt8(ascii: ":"),
              let year = number(b[0..<4]), let month = number(b[5..<7]), let day = number(b[8..<10]),
              let hour = number(b[11..<13]), let minute = number(b[14..<16]), let second = number(b[17..<19]),
              valid(year, month, day, hour, minute, second)
        else { return nil }
        var at = 19
        if b[at] == UInt8(ascii: ".") {
            at += 1
            while at < b.count, b[at] >= 0x30 && b[at] <= 0x39 { at += 1 }
        }
        guard at < b.count else { return nil }
        var offset = 0
        if b[at] == UInt8(ascii: "Z") {
            guard at + 1 == b.count else { return nil }
        } else {
            guard b[at] == UInt8(ascii: "+") || b[at] == UInt8(ascii: "-") else { return nil }
            let rest = b[(at + 1)...].filter { $0 != UInt8(ascii: ":") }
            guard rest.count == 4, let hours = number(rest.prefix(2)), let minutes = number(rest.suffix(2)),
                  hours < 24, minutes < 60
            else { return nil }
            offset = (hours * 3600 + minutes * 60) * (b[at] == UInt8(ascii: "-") ? -1 : 1)
        }
        let local = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return Instant(seconds: local.secondsSinceEpoch - Int64(offset))
    }

    /// A date as a report writes it: `2026-11-20`, or with `/` or `.`
    /// between its parts in `order`.
    static func date(_ text: String, _ order: ImportOptions.DateOrder) -> LocalDate? {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "/" || $0 == "." }).map { number(ArraySlice($0.utf8)) }
        guard parts.count == 3, let a = parts[0], let b = parts[1], let c = parts[2] else { return nil }
        let (year, month, day): (Int, Int, Int)
        switch order {
        case .ymd: (year, month, day) = (a, b, c)
        case .mdy: (year, month, day) = (c, a, b)
        case .dmy: (year, month, day) = (c, b, a)
        }
        guard year >= 1000, valid(year, month, day, 0, 0, 0) else { return nil }
        return LocalDate(year: year, month: month, day: day)
    }

    /// The order `dates` can only be in: ymd when the year comes first;
    /// otherwise the one a day above 12 gives away; nil when nothing does.
    static func order(of dates: [String]) -> ImportOptions.DateOrder? {
        var first = false, second = false
        for text in dates {
            let parts = text.split(whereSeparator: { $0 == "-" || $0 == "/" || $0 == "." }).map { number(ArraySlice($0.utf8)) }
            guard parts.count == 3, let a = parts[0], let b = parts[1] else { continue }
            if a > 31 { return .ymd }
            if a > 12 { first = true }
            if b > 12 { second = true }
        }
        if first && !second { return .dmy }
        if second && !first { return .mdy }
        return nil
    }

    /// A time of day: `08:00:00`, `8:00`, `08:00:00 PM`, `8:00 am`.
    static func time(_ text: String) -> (hour: Int, minute: Int, second: Int)? {
        var clock = text.trimmingWhitespace()
        var meridiem: Int?
        let lower = clock.lowercased()
        if lower.hasSuffix("am") || lower.hasSuffix("pm") {
            meridiem = lower.hasSuffix("pm") ? 12 : 0
            clock = String(clock.dropLast(2)).trimmingWhitespace()
        }
        let parts = clock.split(separator: ":").map { number(ArraySlice($0.utf8)) }
        guard parts.count == 2 || parts.count == 3, var hour = parts[0], let minute = parts[1],
              let second = parts.count == 3 ? parts[2] : 0, minute < 60, second < 61
        else { return nil }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + meridiem
        }
        guard hour < 24 else { return nil }
        return (hour, minute, second)
    }
}
