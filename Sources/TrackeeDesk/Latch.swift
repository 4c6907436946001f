import Glibc

/// A value set once by one thread and awaited, with a deadline, by
/// another: how `DeskMonitor.start()` learns what each bus attached first.
final class Latch<Value: Sendable>: @unchecked Sendable {
    // The pthread objects live at fixed addresses for the object's life, as
    // POSIX requires; every access to `value` holds the mutex.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var value: Value?

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Waits count on the monotonic clock, so a wall clock step cannot stretch them.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Sets the value, unless one is set already, and wakes the waiter.
    func set(_ newValue: Value) {
        pthread_mutex_lock(mutex)
        if value == nil { value = newValue }
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// The value, waiting for it until `deadline` (a `CLOCK_MONOTONIC`
    /// time); nil when none came by then.
    func wait(until deadline: timespec) -> Value? {
        var deadline = deadline
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while value == nil {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
        }
        return value
    }

    /// The monotonic time `milliseconds` from now, for ``wait(until:)``.
    static func deadline(inMilliseconds milliseconds: Int) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = Int(now.tv_nsec) + (milliseconds % 1000) * 1_000_000
        return timespec(tv_sec: now.tv_sec + milliseconds / 1000 + nanoseconds / 1_000_000_000,
                        tv_nsec: nanoseconds % 1_000_000_000)
    }
}
