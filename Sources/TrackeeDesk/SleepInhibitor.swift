import Glibc
import Synchronization

/// logind's delay inhibitor: a file descriptor that holds off sleep or
/// shutdown while it is open. Released once, by whoever comes first (the
/// daemon after committing, or shutdown); closing it lets the machine go.
public final class SleepInhibitor: Sendable {
    private let descriptor: Mutex<Int32?>

    /// Takes ownership of `fd`, as `Inhibit` returned it.
    public init(fd: Int32) {
        descriptor = Mutex(fd)
    }

    /// Closes the descriptor; later calls do nothing.
    public func release() {
        let fd = descriptor.withLock { held -> Int32? in
            defer { held = nil }
            return held
        }
        if let fd { close(fd) }
    }

    /// Whether it is still held.
    public var isHeld: Bool { descriptor.withLock { $0 != nil } }

    deinit { release() }
}
