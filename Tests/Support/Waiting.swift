import Foundation
import Glibc

// Waits that give their thread back.
//
// Swift Testing runs every test on Swift's cooperative thread pool, which
// has as many threads as the machine has cores: two here. A test that
// waits on a daemon with `usleep` holds one of the two for as long as it
// waits, so no other test runs on it, and `make test` took half a minute
// longer than its work for each such test. These waits suspend instead:
// the thread goes on with other tests until the next look.

/// Looks at `condition` every `interval` until it holds or `seconds` have
/// passed; true if it held.
public func eventually(within seconds: Double, every interval: Duration = .milliseconds(20),
                       _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return try condition()
}

/// The same, holding the thread between looks: for a test that must act
/// within a second or two of the condition (a resumed test may start
/// seconds late when the pool is busy), or that waits on a process doing
/// work of its own.
public func eventuallyHolding(within seconds: Double, every interval: Duration = .milliseconds(20),
                              _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    let (whole, fraction) = interval.components
    let micros = UInt32(whole * 1_000_000 + fraction / 1_000_000_000_000)
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        usleep(micros)
    }
    return try condition()
}

/// Sleeps `seconds` without holding a thread.
public func pause(_ seconds: Double) async {
    try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
}

extension Process {
    /// Waits for the process to end, looking every 10 ms, without holding a
    /// thread; then `terminationStatus` is its status.
    public func ended() async {
        while isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        waitUntilExit()
    }
}
