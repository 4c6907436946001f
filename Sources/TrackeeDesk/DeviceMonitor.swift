import Glibc
import Synchronization
import TrackeeCore

/// Watches devices being plugged in and pulled out, on a thread of its
/// own, and hands each edge to the daemon as a `DeskChange`.
///
/// It reads the kernel's uevent netlink socket (see `UeventSocket` for why
/// not libudev), or, in tests, any datagram socket it is given. Each
/// datagram goes through `Uevent` and `DeviceEdges`; what is not an edge
/// or not a whole uevent is dropped without a word, as the kernel and
/// `udevadm trigger` also send many events nobody asked about. The time of
/// a change is when its uevent arrived.
///
/// ```swift
/// let devices = try DeviceMonitor.kernel()
/// try devices.start { change in continuation.yield(change) }
/// …
/// devices.stop()
/// ```
public final class DeviceMonitor: Sendable {
    private let reader: Reader
    private let running = Mutex<Running?>(nil)

    private struct Running {
        var thread: DeskThread
        var watch: Watch
        /// Written to by `stop`; the thread holds the other end.
        var wake: Int32
    }

    /// The kernel's uevent socket; fails with one sentence where the system
    /// refuses it (a sandbox without `AF_NETLINK`, a container).
    public static func kernel(
        sysfs: SysfsAttributes = SysfsAttributes(), now: @escaping @Sendable () -> Instant = SystemClock.now
    ) throws(DeviceMonitorFailure) -> DeviceMonitor {
        DeviceMonitor(socket: try UeventSocket.kernel(), sysfs: sysfs, now: now)
    }

    /// Reads uevent datagrams from `descriptor`, a datagram socket it takes
    /// over and closes when it is released.
    public convenience init(
        reading descriptor: Int32, sysfs: SysfsAttributes = SysfsAttributes(),
        now: @escaping @Sendable () -> Instant = SystemClock.now
    ) {
        self.init(socket: UeventSocket(adopting: descriptor), sysfs: sysfs, now: now)
    }

    private init(socket: UeventSocket, sysfs: SysfsAttributes, now: @escaping @Sendable () -> Instant) {
        reader = Reader(socket: socket, edges: DeviceEdges(sysfs: sysfs), now: now)
    }

    deinit { stop() }

    /// Starts the thread, which calls `yield` for every edge until `stop`.
    /// Should the socket itself fail, the thread ends and `ended` gets the
    /// sentence saying why. Starting a running monitor does nothing.
    public func start(
        yield: @escaping @Sendable (DeskChange) -> Void, ended: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(DeviceMonitorFailure) {
        try running.withLock { (running: inout Running?) throws(DeviceMonitorFailure) in
            guard running == nil else { return }
            var pair: [Int32] = [-1, -1]
            let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            guard socketpair(AF_UNIX, type, 0, &pair) == 0 else {
                throw DeviceMonitorFailure("the device monitor could not start: \(String(cString: strerror(errno))).")
            }
            let watch = Watch(reader: reader, wake: pair[1], yield: yield, ended: ended)
            do throws(DeviceMonitorFailure) {
                let thread: DeskThread
                do throws(DeskThread.Refused) {
                    thread = try DeskThread { watch.run() }
                } catch {
                    throw DeviceMonitorFailure("the device monitor could not start a thread: \(error.reason).")
                }
                running = Running(thread: thread, watch: watch, wake: pair[0])
            } catch {
                close(pair[0])
                close(pair[1])
                throw error
            }
        }
    }

    /// Ends the thread and waits for it: nothing is yielded after it
    /// returns. Called from `yield` itself, it cannot wait for its own
    /// thread, which ends as that call returns. Stopping a stopped monitor
    /// does nothing.
    public func stop() {
        guard let stopping = running.withLock({ (running: inout Running?) -> Running? in
            defer { running = nil }
            return running
        }) else { return }
        stopping.watch.isStopping.store(true, ordering: .releasing)
        var byte: UInt8 = 1
        _ = send(stopping.wake, &byte, 1, Int32(MSG_NOSIGNAL))
        close(stopping.wake)
        if stopping.thread.isCurrent {
            stopping.thread.detach()
        } else {
            stopping.thread.join()
        }
    }
}

/// The socket and what the monitor remembers of devices, kept across a
/// stop and a start, so a device added before keeps its serial and name
/// at its removal.
private final class Reader: Sendable {
    let socket: UeventSocket
    let edges: Mutex<DeviceEdges>
    let now: @Sendable () -> Instant

    init(socket: UeventSocket, edges: DeviceEdges, now: @escaping @Sendable () -> Instant) {
        self.socket = socket
        self.edges = Mutex(edges)
        self.now = now
    }

    /// The change one datagram makes, stamped with its arrival.
    func change(_ datagram: UnsafeRawBufferPointer) -> DeskChange? {
        guard let uevent = Uevent(datagram: datagram),
              let change = edges.withLock({ $0.take(uevent) })
        else { return nil }
        return DeskChange(.device(change), time: now())
    }
}

/// What the monitor's thread runs between a start and a stop: wait for a
/// datagram or the wake-up, read what is waiting, hand on the edges.
private final class Watch: Sendable {
    /// Set by `stop`, read between datagrams: a handler that stops the
    /// monitor gets nothing more, even from the round being read.
    let isStopping = Atomic(false)
    let reader: Reader
    let wake: Int32
    let yield: @Sendable (DeskChange) -> Void
    let ended: @Sendable (String) -> Void

    /// Uevents beyond this many in one wake-up wait for the next round, so
    /// that a flood cannot hold off `stop`.
    static let roundLimit = 256

    init(reader: Reader, wake: Int32, yield: @escaping @Sendable (DeskChange) -> Void,
         ended: @escaping @Sendable (String) -> Void) {
        self.reader = reader
        self.wake = wake
        self.yield = yield
        self.ended = ended
    }

    func run() {
        defer { close(wake) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Uevent.maximumSize, alignment: 1)
        defer { buffer.deallocate() }
        let readable = Int16(POLLIN)
        var waiting = [
            pollfd(fd: reader.socket.descriptor, events: readable, revents: 0),
            pollfd(fd: wake, events: readable, revents: 0),
        ]
        while true {
            waiting[0].revents = 0
            waiting[1].revents = 0
            if poll(&waiting, 2, -1) < 0 {
                if errno == EINTR { continue }
                return ended("waiting for device events failed: \(String(cString: strerror(errno))).")
            }
            if waiting[1].revents != 0 || isStopping.load(ordering: .acquiring) { return }
            if waiting[0].revents & Int16(POLLNVAL) != 0 {
                return ended("the device events socket was closed.")
            }
            guard waiting[0].revents != 0 else { continue }
            if let failure = readWaiting(into: buffer) { return ended(failure) }
        }
    }

    /// Reads up to a round of datagrams; a sentence when the socket failed.
    private func readWaiting(into buffer: UnsafeMutableRawBufferPointer) -> String? {
        for _ in 0..<Self.roundLimit {
            if isStopping.load(ordering: .acquiring) { return nil }
            switch reader.socket.receive(into: buffer) {
            case .datagram(let count):
                if let change = reader.change(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { yield(change) }
            case .dropped: continue
            case .nothing: return nil
            case .failed(let sentence): return sentence
            }
        }
        return nil
    }
}
