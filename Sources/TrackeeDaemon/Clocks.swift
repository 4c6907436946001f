import Glibc
import TrackeeCore

/// The three clocks of a Linux machine, read at one moment, in nanoseconds.
///
/// Told apart, two readings say what happened between them: the wall
/// clock moving unlike `boot` means someone set it; `boot` moving unlike
/// `awake` means the machine slept.
public struct ClockReading: Sendable, Equatable {
    /// Since the epoch (CLOCK_REALTIME): what a person or NTP may set.
    public var wall: Int64
    /// Since boot, counting suspend (CLOCK_BOOTTIME).
    public var boot: Int64
    /// Since boot, not counting suspend (CLOCK_MONOTONIC).
    public var awake: Int64

    public init(wall: Int64, boot: Int64, awake: Int64) {
        self.wall = wall
        self.boot = boot
        self.awake = awake
    }
}

/// Where a waiter reads what time it is. The daemon's parts never read a
/// system clock themselves, so a test can run them in manual time.
public protocol WallClock: Sendable {
    /// The wall, boot and awake clocks now.
    func read() -> ClockReading
    /// The wall time, in whole seconds.
    var now: Instant { get }
}

extension WallClock {
    public var now: Instant {
        let wall = read().wall
        // Floor, so a moment before the epoch is not rounded up.
        return Instant(seconds: wall >= 0 ? wall / 1_000_000_000 : (wall + 1) / 1_000_000_000 - 1)
    }
}

/// The machine's own clocks.
public struct SystemWallClock: WallClock {
    public init() {}

    public func read() -> ClockReading {
        ClockReading(wall: Self.nanoseconds(CLOCK_REALTIME), boot: Self.nanoseconds(CLOCK_BOOTTIME),
                     awake: Self.nanoseconds(CLOCK_MONOTONIC))
    }

    static func nanoseconds(_ clock: clockid_t) -> Int64 {
        var t = timespec()
        clock_gettime(clock, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }
}

/// What every waiter of `trackee run` is given: a wall clock to read and a
/// clock to sleep on.
///
/// The system's sleep clock is `.continuous` (CLOCK_BOOTTIME), which
/// counts suspend: a deadline that passed while the machine slept wakes
/// the sleeper at resume, not hours later. A test passes a manual clock
/// for both, whose sleeps end when the test moves time.
///
/// ```swift
/// let core = DaemonCore(runner: runner, ruleFiles: paths, systemd: notifier, clocks: .system)
/// ```
public struct Clocks: Sendable {
    public var wall: any WallClock
    public var sleep: any Clock<Duration>

    public init(wall: any WallClock, sleep: any Clock<Duration>) {
        self.wall = wall
        self.sleep = sleep
    }

    /// CLOCK_REALTIME to read, CLOCK_BOOTTIME to sleep on.
    public static var system: Clocks { Clocks(wall: SystemWallClock(), sleep: ContinuousClock()) }

    /// Sleeps `nanoseconds` on the sleep clock; throws when cancelled.
    func sleep(nanoseconds: Int64) async throws {
        try await sleep.sleep(for: .nanoseconds(nanoseconds))
    }
}
