/// UTF-8 output under construction.
///
/// Every format writes straight into one byte array, so a 100,000-row
/// export builds no intermediate string per field or per row.
public struct ExportBuffer {
    public var bytes: [UInt8] = []

    public init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func write(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// A literal, appended without going through a `String`.
    public mutating func write(literal text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public mutating func write(byte: UInt8) {
        bytes.append(byte)
    }

    public mutating func writeCRLF() {
        bytes.append(ASCII.cr)
        bytes.append(ASCII.lf)
    }

    mutating func write(_ value: Int64) {
        write(String(value))
    }

    /// `2026-11-20T11:03:00+01:00`; a zero offset is `+00:00`, not `Z`, so
    /// every value has the same shape.
    mutating func writeISO8601(_ t: LocalDateTime, offset: Int) {
        writeDate(t.date, separator: ASCII.hyphen)
        bytes.append(ASCII.letterT)
        writeTime(t, seconds: true)
        write(formatOffset(offset))
    }

    /// `2026-11-20` with `-`, `2026/11/20` with `/`.
    mutating func writeDate(_ d: LocalDate, separator: UInt8) {
        writeDigits(d.year, width: 4)
        bytes.append(separator)
        writeDigits(d.month, width: 2)
        bytes.append(separator)
        writeDigits(d.day, width: 2)
    }

    /// `09:05` or `09:05:07`, 24-hour.
    mutating func writeTime(_ t: LocalDateTime, seconds: Bool) {
        writeDigits(t.hour, width: 2)
        bytes.append(ASCII.colon)
        writeDigits(t.minute, width: 2)
        if seconds {
            bytes.append(ASCII.colon)
            writeDigits(t.second, width: 2)
        }
    }

    /// A non-negative number with leading zeros to `width` digits, as
    /// ``pad(_:_:)`` writes it, without building a string.
    mutating func writeDigits(_ value: Int, width: Int) {
        guard value >= 0 else {
            write(pad(value, width))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            for _ in count..<max(count, width) { bytes.append(UInt8(ascii: "0")) }
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[i]) }
        }
    }

    /// Writes what is buffered to `fd` and empties the buffer, keeping its
    /// room: for output too large to build whole.
    public mutating func flush(to fd: Int32) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { writeAll(fd, $0) }
        bytes.removeAll(keepingCapacity: true)
    }

    /// A duration as `HH:MM:SS`; hours grow past two digits (`100:00:00`)
    /// rather than wrapping into days.
    mutating func writeHoursMinutesSeconds(_ seconds: Int64) {
        writeSign(seconds)
        let s = seconds.magnitude
        write(pad(Int(s / 3600), 2))
        bytes.append(ASCII.colon)
        write(pad(Int(s / 60 % 60), 2))
        bytes.append(ASCII.colon)
        write(pad(Int(s % 60), 2))
    }

    /// An amount in hundredths as a decimal with two places: `8000` is
    /// `80.00`, `-5` is `-0.05`.
    mutating func writeHundredths(_ value: Int64) {
        writeSign(value)
        let v = value.magnitude
        write(String(v / 100))
        bytes.append(ASCII.period)
        write(pad(Int(v % 100), 2))
    }

    /// Writes `-` for a negative value, so callers can format the magnitude.
    /// Finished entries never have negative durations, but a corrupted row
    /// should still come out readable rather than as `-1:-5`.
    mutating func writeSign(_ value: Int64) {
        if value < 0 { bytes.append(ASCII.hyphen) }
    }

    mutating func writeYesNo(_ value: Bool) {
        write(value ? "Yes" : "No")
    }
}

extension ExportBuffer {
    /// Bytes the formats write by hand. Nested so the name cannot clash with
    /// anything else in the module.
    enum ASCII {
        static let tab: UInt8 = 0x09
        static let lf: UInt8 = 0x0A
        static let cr: UInt8 = 0x0D
        static let space: UInt8 = 0x20
        static let quote: UInt8 = 0x22
        static let comma: UInt8 = 0x2C
        static let hyphen: UInt8 = 0x2D
        static let period: UInt8 = 0x2E
        static let slash: UInt8 = 0x2F
        static let colon: UInt8 = 0x3A
        static let backslash: UInt8 = 0x5C
        static let letterT: UInt8 = 0x54
    }
}
