/// Writes instants as `2026-11-20T11:03:00+01:00` (or `…Z` in UTC) straight
/// into memory, remembering the zone's offset until its next change and the
/// last day's date, so that a long run of nearby instants (a calendar
/// listing writes three per occurrence, 600,000 for a busy year) neither
/// searches the zone's transitions nor converts a day number each time.
public struct ISO8601Writer {
    let zone: Zone
    /// The offset in force from `from` until before `until`.
    private var span: (from: Int64, until: Int64, offset: Int) = (1, 0, 0)
    /// The local day last written, and its `YYYY-MM-DD`.
    private var day: Int64 = .min
    private var date: (UInt64, UInt16) = (0, 0)
    /// `+01:00` for the span's offset, or `Z` (`+hh:mm:ss` for a historic
    /// offset with seconds), and its length.
    private var suffix: (bytes: (UInt64, UInt64), count: Int) = ((0, 0), 0)

    public init(zone: Zone) {
        self.zone = zone
    }

    /// The most bytes one instant takes.
    public static let longest = 28

    /// Writes `instant` at `out` and returns the bytes written (at most
    /// ``longest``). Years outside 0…9999 are written as ``Zone/iso8601(_:)``
    /// writes them, which may be longer: callers leave room for
    /// ``longest`` and take such years the slow way (`fits` is false).
    public mutating func write(_ instant: Instant, to out: UnsafeMutablePointer<UInt8>) -> (count: Int, fits: Bool) {
        let t = instant.seconds
        if t < span.from || t >= span.until { settle(t) }
        let local = t + Int64(span.offset)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        if days != day {
            let d = LocalDate(daysSinceEpoch: days)
            guard (0...9999).contains(d.year) else { return (0, false) }
            day = days
            withUnsafeMutableBytes(of: &date) { b in
                Self.two(d.year / 100, b, 0)
                Self.two(d.year % 100, b, 2)
                b[4] = ExportBuffer.ASCII.hyphen
                Self.two(d.month, b, 5)
                b[7] = ExportBuffer.ASCII.hyphen
                Self.two(d.day, b, 8)
            }
        }
        let seconds = Int(local - days * 86_400)
        withUnsafeBytes(of: date) { out.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: 10) }
        out[10] = ExportBuffer.ASCII.letterT
        let b = UnsafeMutableRawBufferPointer(start: out, count: 19)
        Self.two(seconds / 3600, b, 11)
        out[13] = ExportBuffer.ASCII.colon
        Self.two(seconds / 60 % 60, b, 14)
        out[16] = ExportBuffer.ASCII.colon
        Self.two(seconds % 60, b, 17)
        withUnsafeBytes(of: suffix.bytes) { (out + 19).update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: suffix.count) }
        return (19 + suffix.count, true)
    }

    /// The offset at `t` and how long it lasts.
    private mutating func settle(_ t: Int64) {
        let offset = zone.offset(at: Instant(seconds: t))
        let until = zone.rules.nextTransition(after: t) ?? .max
        span = (t, until, offset)
        let text = Array((zone.writesZulu ? "Z" : formatOffset(offset)).utf8)
        var bytes: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &bytes) { b in for (i, c) in text.enumerated() { b[i] = c } }
        suffix = (bytes, text.count)
    }

    private static func two(_ v: Int, _ b: UnsafeMutableRawBufferPointer, _ at: Int) {
        b[at] = UInt8(ascii: "0") + UInt8(v / 10)
        b[at + 1] = UInt8(ascii: "0") + UInt8(v % 10)
    }
}
