import Foundation

/// A sleep that can be cut short: the schedule loop sleeps on it until the
/// next deadline, and a reload rings it so the new rules' deadlines are
/// armed at once. A ring while nobody sleeps makes the next sleep return
/// at once. Cancelling the sleeping task ends the sleep too.
///
/// It sleeps on the clock it is given (the daemon's counts suspend), so a
/// test can ring it and move its time by hand.
final class Alarm: @unchecked Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Void, Never>)
        case rung
        case released
    }

    private let lock = NSLock()
    private var state = State.idle
    private let clock: any Clock<Duration>

    init(clock: any Clock<Duration>) {
        self.clock = clock
    }

    /// Sleeps `nanoseconds` on the alarm's clock, or less if the alarm
    /// rings or the task is cancelled.
    func sleep(nanoseconds: Int64) async {
        let early: Bool = lock.withLock {
            if case .rung = state {
                state = .idle
                return true
            }
            state = .idle
            return false
        }
        if early { return }
        await withTaskGroup(of: Void.self) { group in
            let clock = clock
            group.addTask { try? await clock.sleep(for: .nanoseconds(nanoseconds)) }
            group.addTask { await self.waitForRing() }
            await group.next()
            group.cancelAll()
            lock.withLock {
                if case .waiting(let continuation) = state { continuation.resume() }
                state = .released
            }
        }
        lock.withLock {
            if case .released = state { state = .idle }
        }
    }

    /// Wakes the sleeper, or the next one.
    func ring() {
        lock.withLock {
            switch state {
            case .waiting(let continuation):
                state = .idle
                continuation.resume()
            case .idle:
                state = .rung
            case .rung, .released:
                break
            }
        }
    }

    private func waitForRing() async {
        await withCheckedContinuation { continuation in
            lock.withLock {
                switch state {
                case .idle:
                    state = .waiting(continuation)
                case .rung, .released, .waiting:
                    // Rung, or the sleep is already over.
                    continuation.resume()
                }
            }
        }
    }
}
