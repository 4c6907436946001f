/// When a fix was measured, to the millisecond.
///
/// Receivers report several fixes a second, so ordering, duplicates and
/// dwells compare fixes at this precision. Everything else in trackee
/// (entries, firing keys, transition times) is whole seconds: ``instant``
/// is the second the fix falls in, rounded down (12:00:00.999 is 12:00:00,
/// and before 1970 too, -0.5 s is -1 s).
///
/// ```swift
/// FixTime(milliseconds: 1_795_417_020_500).instant  // Instant(seconds: 1_795_417_020)
/// ```
public struct FixTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// The start of a whole second.
    public init(_ instant: Instant) { milliseconds = instant.seconds &* 1000 }

    /// A whole second and the milliseconds into it (0…999).
    public init(_ instant: Instant, millisecond: Int64) { milliseconds = instant.seconds &* 1000 &+ millisecond }

    /// The whole second it falls in, rounded down.
    public var instant: Instant {
        let (q, r) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        return Instant(seconds: r < 0 ? q - 1 : q)
    }

    /// Milliseconds past ``instant``, 0…999.
    public var millisecond: Int64 { milliseconds - instant.seconds * 1000 }

    public static func < (a: FixTime, b: FixTime) -> Bool { a.milliseconds < b.milliseconds }

    /// The UTC form, with the milliseconds when there are any:
    /// `2026-11-20T10:03:00Z`, `2026-11-20T10:03:00.250Z`.
    public var description: String { Zone.utc.iso8601(self) }
}
