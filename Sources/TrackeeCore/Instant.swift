/// A point in time: whole seconds since 1970-01-01T00:00:00Z.
///
/// trackee stores every instant as UTC seconds; local time is a view
/// computed through a ``Zone``. Second precision is what a timesheet needs,
/// and integers keep range queries and comparisons exact.
public struct Instant: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var seconds: Int64

    public init(seconds: Int64) { self.seconds = seconds }

    public static func < (a: Instant, b: Instant) -> Bool { a.seconds < b.seconds }

    public static func + (a: Instant, b: Int64) -> Instant { Instant(seconds: a.seconds + b) }
    public static func - (a: Instant, b: Int64) -> Instant { Instant(seconds: a.seconds - b) }
    public static func - (a: Instant, b: Instant) -> Int64 { a.seconds - b.seconds }

    /// The UTC form, `2026-11-20T10:03:00Z`.
    public var description: String { Zone.utc.iso8601(self) }

    public init(from decoder: any Decoder) throws {
        seconds = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(seconds)
    }
}

/// Reads the system clock. Code that waits or stamps takes the instant as a
/// parameter; only the edges (commands, the daemon) call this.
public enum SystemClock {
    public static func now() -> Instant {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Instant(seconds: Int64(ts.tv_sec))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
