import Glibc
import Synchronization
import TrackeeCore
import TrackeeDesk

/// A ``DeskClock`` the test moves by hand, starting at zero. A bus
/// thread's wait on it ends when one of its descriptors is ready (looked at
/// every 2 ms: a signal, the bus going away, `stop()`), or once the test
/// has moved time to its deadline; ``nextWait()`` tells the test what the
/// thread waits for.
///
/// ```swift
/// let clock = ManualDeskClock()
/// #expect(await clock.nextWait() == .until(.milliseconds(250)))
/// clock.advance(to: .milliseconds(250))    // the thread tries again
/// ```
final class ManualDeskClock: DeskClock {
    /// What a waiting thread waits for: time to reach a deadline, or only
    /// a descriptor however long it takes.
    enum Wait: Equatable, CustomStringConvertible {
        case until(Duration)
        case forever

        var description: String {
            switch self {
            case .until(let deadline): "until \(deadline)"
            case .forever: "forever"
            }
        }
    }

    private struct State {
        var now = Duration.zero
        /// The deadline of each wait in progress, by a number of its own.
        var waits: [Int: Duration?] = [:]
        var lastWait = 0
    }

    private let state = Mutex(State())

    var now: Duration { state.withLock { $0.now } }

    /// Time passes to `instant`; the waits it reaches end.
    func advance(to instant: Duration) {
        state.withLock {
            precondition(instant >= $0.now, "a monotonic clock does not run back")
            $0.now = instant
        }
    }

    func poll(_ descriptors: inout [pollfd], until deadline: Duration?) -> Int32 {
        let wait = state.withLock {
            $0.lastWait += 1
            $0.waits[$0.lastWait] = deadline
            return $0.lastWait
        }
        defer { state.withLock { _ = $0.waits.removeValue(forKey: wait) } }
        while true {
            let due = deadline.map { $0 <= now } ?? false
            let ready = Glibc.poll(&descriptors, nfds_t(descriptors.count), due ? 0 : 2)
            if ready != 0 || due { return ready }
        }
    }

    /// What a thread waits for once one waits for time to pass: a deadline
    /// still ahead (one the clock has reached is ending), or forever. Nil
    /// when no thread did so within 10 s.
    func nextWait() async -> Wait? {
        var found: Wait?
        _ = await until {
            found = state.withLock { state in
                let waits = state.waits.values.filter { $0.map { $0 > state.now } ?? true }
                guard let first = waits.first else { return nil }
                return first.map(Wait.until) ?? .forever
            }
            return found != nil
        }
        return found
    }
}

/// When each attach of a test's watches was tried, read on the desk clock.
final class AttachTries: Sendable {
    private let clock: ManualDeskClock
    private let tries = Mutex<[Duration]>([])

    init(on clock: ManualDeskClock) { self.clock = clock }

    var all: [Duration] { tries.withLock { $0 } }

    /// Notes a try now; how many there have been, this one included.
    func note() -> Int {
        let now = clock.now
        return tries.withLock {
            $0.append(now)
            return $0.count
        }
    }
}

/// A watch whose first `failures` attaches fail, as a service's that is not
/// ready yet; it notes every try in `tries` and reports nothing.
struct FlakyWatch: DeskWatch {
    let name: String
    let bus = DeskBus.session
    let serviceName: String
    let failures: Int
    let tries: AttachTries

    static func plan(_ name: String, reports: String, serviceName: String, failures: Int,
                     tries: AttachTries) -> DeskWatchPlan {
        DeskWatchPlan(reports: reports, bus: .session, serviceName: serviceName) {
            FlakyWatch(name: name, serviceName: serviceName, failures: failures, tries: tries)
        }
    }

    mutating func attach(_ connection: DBusConnection, now: Instant) throws -> [DeskChange] {
        if tries.note() <= failures { throw DBusFailure("\(name) is not ready.") }
        return []
    }

    mutating func take(_ signal: DBusSignal, connection: DBusConnection, now: Instant) -> [DeskChange] { [] }
}
