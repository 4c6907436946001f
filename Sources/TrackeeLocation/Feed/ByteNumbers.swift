import TrackeeCore

#if canImport(Glibc)
import Glibc
#endif

/// Numbers and times read straight from a line's bytes, without building
/// strings: the path of every valid fix goes through here.
///
/// Ranges are half-open byte offsets `start..<end` into the buffer.
enum ByteNumbers {
    /// Powers of ten that a double holds exactly, so a number of up to 15
    /// significant digits and 22 fraction digits is read correctly rounded.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    /// The number that fills the range exactly: an optional sign, digits
    /// with an optional fraction, an optional exponent (`-12.5e-3`). Nil
    /// for anything else, such as `NaN`, `1.2.3` or an empty range.
    /// Digits past the 19th significant one only scale the value.
    static func decimal(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        if let value = plainDecimal(p, start, end) { return value }
        var i = start
        guard i < end else { return nil }
        var negative = false
        if p[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        } else if p[i] == UInt8(ascii: "+") {
            i += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var sawDigit = false
        while i < end, isDigit(p[i]) {
            sawDigit = true
            if significant < 19 {
                mantissa = mantissa &* 10 &+ UInt64(p[i] &- 0x30)
                if mantissa != 0 { significant += 1 }
            } else {
                exponent += 1
            }
            i += 1
        }
        if i < end, p[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, isDigit(p[i]) {
                sawDigit = true
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(p[i] &- 0x30)
                    exponent -= 1
                    if mantissa != 0 { significant += 1 }
                }
                i += 1
            }
        }
        guard sawDigit else { return nil }
        if i < end, p[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var exponentNegative = false
            if i < end, p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+") {
                exponentNegative = p[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < end else { return nil }
            var written = 0
            while i < end, isDigit(p[i]) {
                // Beyond 10^5 every double is already 0 or infinite.
                if written < 100_000 { written = written * 10 + Int(p[i] &- 0x30) }
                i += 1
            }
            exponent += exponentNegative ? -written : written
        }
        guard i == end else { return nil }
        var value = Double(mantissa)
        if mantissa != 0 && exponent != 0 {
            if exponent > 0 {
                while exponent > 22 && value.isFinite {
                    value *= 1e22
                    exponent -= 22
                }
                value *= powersOfTen[min(exponent, 22)]
            } else {
                while exponent < -22 && value != 0 {
                    value /= 1e22
                    exponent += 22
                }
                value /= powersOfTen[min(-exponent, 22)]
            }
        }
        return negative ? -value : value
    }

    /// What feeds write nearly always, `-50.0812345`: a sign, at most 19
    /// digits and a fraction, in one pass. Nil for anything else, which
    /// ``decimal(_:_:_:)`` then reads the long way. With no digit beyond
    /// the 19th, both ways make the same mantissa and exponent, so the
    /// same value.
    @inline(__always)
    private static func plainDecimal(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var i = start
        guard i < end else { return nil }
        let negative = p[i] == UInt8(ascii: "-")
        if negative || p[i] == UInt8(ascii: "+") { i += 1 }
        var mantissa: UInt64 = 0
        let first = i
        while i < end {
            let d = p[i] &- 0x30
            guard d < 10 else { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            i += 1
        }
        var digits = i - first
        var fractionDigits = 0
        if i < end, p[i] == UInt8(ascii: ".") {
            i += 1
            let fraction = i
            while i < end {
                let d = p[i] &- 0x30
                guard d < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                i += 1
            }
            fractionDigits = i - fraction
            digits += fractionDigits
        }
        guard i == end, digits > 0, digits <= 19 else { return nil }
        var value = Double(mantissa)
        if mantissa != 0 && fractionDigits != 0 { value /= powersOfTen[fractionDigits] }
        return negative ? -value : value
    }

    /// A run of exactly `count` digits at `start`, or nil.
    @inline(__always)
    static func digits(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for i in start..<start + count {
            let d = p[i] &- 0x30
            guard d < 10 else { return nil }
            value = value * 10 + Int(d)
        }
        return value
    }

    /// An ISO 8601 date and time, as milliseconds since 1970 UTC.
    ///
    /// `2026-11-23T08:57:03Z`, `2026-11-23T09:57:03.250+01:00`, `…+0100`,
    /// `…+01`, `2026-11-23 08:57Z` (no seconds). A fraction of a second is
    /// kept to the millisecond; digits past the third are dropped (rounded
    /// toward the earlier time). `zoned` is false when the text gives no
    /// offset; the time is then that of the wall time as if it were UTC,
    /// and the caller decides whether that is acceptable.
    static func iso8601(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (milliseconds: Int64, zoned: Bool)? {
        guard end - start >= 16,
            let year = digits(p, start, 4), p[start + 4] == UInt8(ascii: "-"),
            let month = digits(p, start + 5, 2), p[start + 7] == UInt8(ascii: "-"),
            let day = digits(p, start + 8, 2),
            p[start + 10] | 0x20 == UInt8(ascii: "t") || p[start + 10] == UInt8(ascii: " "),
            let hour = digits(p, start + 11, 2), p[start + 13] == UInt8(ascii: ":"),
            let minute = digits(p, start + 14, 2)
        else { return nil }
        var i = start + 16
        var second = 0
        var millisecond: Int64 = 0
        if i < end, p[i] == UInt8(ascii: ":") {
            guard i + 3 <= end, let s = digits(p, i + 1, 2) else { return nil }
            second = s
            i += 3
            if i < end, p[i] == UInt8(ascii: ".") || p[i] == UInt8(ascii: ",") {
                i += 1
                guard i < end, isDigit(p[i]) else { return nil }
                var scale: Int64 = 100
                while i < end, isDigit(p[i]) {
                    millisecond += Int64(p[i] &- 0x30) * scale
                    scale /= 10
                    i += 1
                }
            }
        }
        // Second 60 is a leap second; it reads as the next minute's first.
        guard hour < 24, minute < 60, second <= 60 else { return nil }
        let date = LocalDate(year: year, month: month, day: day)
        guard date.isValid else { return nil }
        let wall = (date.daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1000 + millisecond
        if i == end { return (wall, false) }
        if p[i] | 0x20 == UInt8(ascii: "z") {
            return i + 1 == end ? (wall, true) : nil
        }
        guard p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-"), i + 3 <= end,
            let offsetHours = digits(p, i + 1, 2)
        else { return nil }
        let sign: Int64 = p[i] == UInt8(ascii: "-") ? -1 : 1
        var j = i + 3
        var offsetMinutes = 0
        if j < end {
            if p[j] == UInt8(ascii: ":") { j += 1 }
            guard j + 2 == end, let m = digits(p, j, 2) else { return nil }
            offsetMinutes = m
        }
        guard offsetHours < 24, offsetMinutes < 60 else { return nil }
        return (wall - sign * Int64(offsetHours * 3600 + offsetMinutes * 60) * 1000, true)
    }

    /// Seconds since 1970 written as a number (`1795417023`, `1795417023.5`),
    /// rounded down to the second; nil when not a number or beyond any date.
    static func unixSeconds(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int64? {
        guard let value = decimal(p, start, end), value.isFinite, abs(value) < 1e15 else { return nil }
        return Int64(value.rounded(.down))
    }

    /// Seconds since 1970 written as a number (`1795417023.25`), as
    /// milliseconds rounded down; nil when not a number or beyond any date.
    /// Plain digits with a fraction are read exactly (a double would make
    /// `.123` into 122.99… ms); other forms (`1.795e9`, times before 1970)
    /// go through a double.
    static func unixMilliseconds(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int64? {
        var i = start
        let negative = i < end && p[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var whole: Int64 = 0
        var wholeDigits = 0
        while i < end, isDigit(p[i]), wholeDigits < 15 {
            whole = whole * 10 + Int64(p[i] &- 0x30)
            wholeDigits += 1
            i += 1
        }
        var fraction: Int64 = 0
        var fractionDigits = 0
        var plain = wholeDigits > 0
        if plain, i < end, p[i] == UInt8(ascii: ".") {
            i += 1
            var scale: Int64 = 100
            while i < end, isDigit(p[i]) {
                fraction += Int64(p[i] &- 0x30) * scale
                scale /= 10
                fractionDigits += 1
                i += 1
            }
            plain = fractionDigits > 0
        }
        if plain && i == end && !negative { return whole * 1000 + fraction }
        guard let value = decimal(p, start, end), value.isFinite, abs(value) < 1e15 else { return nil }
        return Int64((value * 1000).rounded(.down))
    }

    /// Up to 40 bytes of input for a message: invalid UTF-8 and control
    /// bytes show as `�`, and a longer text ends in `…`.
    static func quoted(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        let cut = min(end, start + 40)
        var text = ""
        for scalar in String(decoding: UnsafeBufferPointer(rebasing: p[start..<cut]), as: UTF8.self).unicodeScalars {
            text.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? "\u{FFFD}" : scalar)
        }
        return cut < end ? text + "…" : text
    }
}
