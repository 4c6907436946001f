import Glibc

/// A POSIX thread of its own, so TrackeeDesk needs nothing from
/// Foundation; joined by ``join()``.
struct DeskThread: Sendable {
    private let thread: pthread_t

    /// Starts `body` at once; throws when the system refuses a thread.
    init(_ body: @escaping @Sendable () -> Void) throws {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        // libdbus and the watches need little: a message is a few levels deep.
        pthread_attr_setstacksize(&attributes, 512 << 10)
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw DBusFailure("could not start a thread for the desk sources (error \(status)).")
        }
        self.thread = thread
    }

    func join() { pthread_join(thread, nil) }

    /// What the thread runs, passed to it through a raw pointer.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
