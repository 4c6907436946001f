import Glibc

/// A POSIX thread of its own, so TrackeeDesk needs nothing from
/// Foundation; joined by ``join()``. The bus monitors and the device
/// monitor block in `poll`, which a Swift task must not.
struct DeskThread: Sendable {
    private let thread: pthread_t

    /// The system refused a thread; `status` is pthread_create's error.
    struct Refused: Error, CustomStringConvertible {
        let status: Int32
        var reason: String { String(cString: strerror(status)) }
        var description: String { "no thread could be started: \(reason)" }
    }

    /// Starts `body` at once; throws when the system refuses a thread.
    init(_ body: @escaping @Sendable () -> Void) throws(Refused) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        // libdbus, the watches and the uevent reader need little: a
        // message is a few levels deep.
        pthread_attr_setstacksize(&attributes, 512 << 10)
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw Refused(status: status)
        }
        self.thread = thread
    }

    func join() { pthread_join(thread, nil) }

    /// Whether the caller runs on this thread (which cannot join itself).
    var isCurrent: Bool { pthread_equal(pthread_self(), thread) != 0 }

    /// Lets the thread end on its own, unjoined.
    func detach() { pthread_detach(thread) }

    /// What the thread runs, passed to it through a raw pointer.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
