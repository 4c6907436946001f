import Foundation
import TrackeeCore
import TrackeeDaemon

/// A machine's clocks that a test moves by hand: the wall clock the daemon
/// reads, and ``boot``, the clock it sleeps on, whose sleeps end only when
/// the test moves time past their deadlines.
///
/// Time can pass three ways, as on a real machine: awake (all clocks
/// move), in suspend (wall and boot move, awake does not), or by someone
/// setting the wall clock (only it moves).
///
/// ```swift
/// let machine = ManualClock(Instant(seconds: 1_792_360_800))
/// let core = DaemonCore(runner: runner, ruleFiles: paths, systemd: notifier, clocks: machine.clocks)
/// machine.suspend(for: 3 * 3600)    // wakes whoever slept past it
/// await machine.untilAsleep()       // the daemon has done its pass
/// ```
final class ManualClock: WallClock, @unchecked Sendable {
    private struct Sleeper {
        var deadline: Int64
        var continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var reading: ClockReading
    private var sleepers: [UInt64: Sleeper] = [:]
    /// Sleeps cancelled before they were registered.
    private var cancelled: Set<UInt64> = []
    private var nextSleep: UInt64 = 0
    private var waitingForSleepers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Wall time `start`, booted a day before.
    init(_ start: Instant) {
        reading = ClockReading(wall: start.seconds * 1_000_000_000, boot: 86_400_000_000_000, awake: 86_400_000_000_000)
    }

    func read() -> ClockReading { lock.withLock { reading } }

    /// The wall time. Set forward, the machine was awake meanwhile; set
    /// back, someone set the clock back.
    var now: Instant {
        get { Instant(seconds: read().wall / 1_000_000_000) }
        set {
            let by = (newValue.seconds - now.seconds) * 1_000_000_000
            if by >= 0 { move(wall: by, boot: by, awake: by) } else { move(wall: by, boot: 0, awake: 0) }
        }
    }

    /// The wall and sleep clocks for a daemon.
    var clocks: Clocks { Clocks(wall: self, sleep: boot) }

    /// The clock sleeps run on (CLOCK_BOOTTIME's stand-in).
    var boot: BootClock { BootClock(machine: self) }

    /// Time passes awake to wall time `instant`; returns how many sleepers woke.
    @discardableResult
    func advance(to instant: Instant) -> Int {
        let by = (instant.seconds - now.seconds) * 1_000_000_000
        precondition(by >= 0, "awake time does not run back")
        return move(wall: by, boot: by, awake: by)
    }

    /// Time passes awake by `nanoseconds`; returns how many sleepers woke.
    @discardableResult
    func advance(nanoseconds: Int64) -> Int {
        precondition(nanoseconds >= 0, "awake time does not run back")
        return move(wall: nanoseconds, boot: nanoseconds, awake: nanoseconds)
    }

    /// The machine sleeps `seconds`: wall and boot move, awake does not.
    @discardableResult
    func suspend(for seconds: Int64) -> Int {
        move(wall: seconds * 1_000_000_000, boot: seconds * 1_000_000_000, awake: 0)
    }

    /// Someone sets the wall clock by `seconds`; nothing else moves.
    func setWall(by seconds: Int64) {
        move(wall: seconds * 1_000_000_000, boot: 0, awake: 0)
    }

    /// How many sleeps wait now.
    var sleeping: Int { lock.withLock { sleepers.count } }

    /// Returns once at least `count` sleeps wait.
    func untilAsleep(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready: Bool = lock.withLock {
                if sleepers.count >= count { return true }
                waitingForSleepers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    @discardableResult
    private func move(wall: Int64, boot: Int64, awake: Int64) -> Int {
        let woken: [Sleeper] = lock.withLock {
            reading.wall += wall
            reading.boot += boot
            reading.awake += awake
            let due = sleepers.filter { $0.value.deadline <= reading.boot }
            for id in due.keys { sleepers[id] = nil }
            return Array(due.values)
        }
        for sleeper in woken { sleeper.continuation.resume() }
        return woken.count
    }

    fileprivate func sleep(until deadline: Int64) async throws {
        let id: UInt64 = lock.withLock {
            nextSleep += 1
            return nextSleep
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Now { case sleep, wake, cancel }
                var waiters: [CheckedContinuation<Void, Never>] = []
                let now: Now = lock.withLock {
                    if cancelled.remove(id) != nil { return .cancel }
                    if deadline <= reading.boot { return .wake }
                    sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    let count = sleepers.count
                    waiters = waitingForSleepers.filter { $0.count <= count }.map(\.continuation)
                    waitingForSleepers.removeAll { $0.count <= count }
                    return .sleep
                }
                switch now {
                case .sleep: for waiter in waiters { waiter.resume() }
                case .wake: continuation.resume()
                case .cancel: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let sleeper: Sleeper? = lock.withLock {
                if let sleeper = sleepers.removeValue(forKey: id) { return sleeper }
                cancelled.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}

/// A ``ManualClock``'s boot time as a Swift `Clock`, to sleep on.
struct BootClock: Clock {
    struct Instant: InstantProtocol {
        var nanoseconds: Int64

        func advanced(by duration: Duration) -> Instant {
            Instant(nanoseconds: nanoseconds + duration.nanoseconds)
        }

        func duration(to other: Instant) -> Duration {
            .nanoseconds(other.nanoseconds - nanoseconds)
        }

        static func < (a: Instant, b: Instant) -> Bool { a.nanoseconds < b.nanoseconds }
    }

    let machine: ManualClock

    var now: Instant { Instant(nanoseconds: machine.read().boot) }
    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await machine.sleep(until: deadline.nanoseconds)
    }
}

extension Duration {
    /// Whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
