import Glibc

/// The clock a desk thread reads and waits on: every deadline of a bus's
/// thread (the reconnect backoff, a watch's retry, how long a connection
/// lasted) is a reading of it, and every wait is its ``poll(_:until:)``.
///
/// The thread waits in poll(2) on its sockets, so it cannot `await` a
/// Swift `Clock`'s sleep: a desk clock does the wait itself. `trackee run`
/// hands in ``PollClock`` over its sleep clock; a test hands in one it
/// moves by hand, whose waits end when it moves time past them.
public protocol DeskClock: Sendable {
    /// The time since this clock's own origin; it never runs back.
    var now: Duration { get }

    /// Waits until one of `descriptors` is ready, or until ``now`` reaches
    /// `deadline` (when nil, as long as it takes), and returns what poll(2)
    /// does: how many are ready, 0 at the deadline, -1 with `errno` set.
    func poll(_ descriptors: inout [pollfd], until deadline: Duration?) -> Int32
}

/// A Swift `Clock` as a ``DeskClock``: read from `base`, waited on in
/// poll(2) for the time left on it, so `base` must run at the pace of real
/// time (`ContinuousClock`, the default, counts suspend: a deadline that
/// passed while the machine slept is due at resume).
public struct PollClock<Base: Clock>: DeskClock where Base.Duration == Duration {
    private let base: Base
    private let origin: Base.Instant

    public init(_ base: Base) {
        self.base = base
        origin = base.now
    }

    public var now: Duration { origin.duration(to: base.now) }

    public func poll(_ descriptors: inout [pollfd], until deadline: Duration?) -> Int32 {
        var timeout: Int32 = -1
        if let deadline {
            let left = deadline - now
            // The whole milliseconds left and one more, so the wait does not
            // end just short of the deadline.
            let (seconds, attoseconds) = left.components
            timeout = left <= .zero ? 0 : Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
        }
        return Glibc.poll(&descriptors, nfds_t(descriptors.count), timeout)
    }
}

extension PollClock where Base == ContinuousClock {
    /// The desk's clock unless told otherwise.
    public static var continuous: PollClock<ContinuousClock> { PollClock(ContinuousClock()) }
}
