import Glibc
import Synchronization
import TrackeeCore

/// One bus's thread: it owns the connection and the watches on that bus,
/// attaches them (again when their service appears or the bus comes
/// back), and hands every change they report to `yield`.
///
/// The bus going away is never fatal: it logs one line, reconnects when
/// ``Reconnect`` says, and attaches every watch again, whose attach
/// reports what changed meanwhile. Every wait and deadline of the thread
/// is on `monotonic`, so a test can run it on a clock it moves by hand.
final class BusMonitor: Sendable {
    let bus: DeskBus
    let address: String
    private let plans: [DeskWatchPlan]
    private let clock: @Sendable () -> Instant
    private let monotonic: any DeskClock
    private let log: DeskLog
    private let yield: @Sendable (DeskChange) -> Void
    /// What the first attach found, for the start line.
    let firstReport = Latch<BusReport>()
    private let stopping = Atomic<Bool>(false)
    private let thread = Mutex<DeskThread?>(nil)

    /// A socket ``requestStop()`` writes to: the thread waits on its other end
    /// beside the bus's socket, so it sleeps until a signal comes, a retry
    /// is due or it is asked to stop, and never wakes for nothing.
    private let wake: Int32
    private let wakeWriter: Int32

    /// `clock` stamps the changes whose watch gives no time; `monotonic`
    /// is what the thread waits on and reckons its retries by.
    init(bus: DeskBus, address: String, plans: [DeskWatchPlan], clock: @escaping @Sendable () -> Instant,
         monotonic: any DeskClock, log: @escaping DeskLog, yield: @escaping @Sendable (DeskChange) -> Void) {
        self.bus = bus
        self.address = address
        self.plans = plans
        self.clock = clock
        self.monotonic = monotonic
        self.log = log
        self.yield = yield
        var ends: [Int32] = [-1, -1]
        // A socket pair rather than a pipe: it is made close-on-exec in the
        // same call, so no child started meanwhile inherits it. Without it
        // (no descriptors left) the thread looks at `stopping` four times a
        // second instead.
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        _ = socketpair(AF_UNIX, type, 0, &ends)
        (wake, wakeWriter) = (ends[0], ends[1])
    }

    deinit {
        for end in [wake, wakeWriter] where end >= 0 { close(end) }
    }

    func start() throws {
        let started = try DeskThread { [self] in run() }
        thread.withLock { $0 = started }
    }

    /// Asks the thread to end, which it does at once.
    func requestStop() {
        stopping.store(true, ordering: .relaxed)
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
    }

    /// Ends the thread and waits for it; the watches, and any inhibitor
    /// they hold, go with it.
    func stop() {
        requestStop()
        let running = thread.withLock { thread -> DeskThread? in
            defer { thread = nil }
            return thread
        }
        running?.join()
    }

    private var isStopping: Bool { stopping.load(ordering: .relaxed) }

    // MARK: - The thread

    private func run() {
        var slots = plans.map { WatchSlot(plan: $0, watch: $0.make()) }
        var reconnect = Reconnect()
        var reported = false
        /// Set while the bus is away, so that coming back is logged once.
        var away = false
        var everConnected = false
        while !isStopping {
            let connection: DBusConnection
            do {
                connection = try DBusConnection(address: address)
                for name in Set(plans.map(\.serviceName)).sorted() {
                    try connection.addMatch(
                        "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
                            + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'")
                }
            } catch {
                if !reported {
                    firstReport.set(BusReport(attached: [], absent: ["\(bus) bus (could not connect to \(address))"]))
                    reported = true
                    away = true
                }
                pause(until: reconnect.retry(after: monotonic.now))
                continue
            }
            for index in slots.indices { attach(&slots[index], connection) }
            let report = BusReport(slots, bus: bus)
            if !reported {
                firstReport.set(report)
                reported = true
            } else if away {
                log(.info, "desk: connected to the \(bus) bus\(everConnected ? " again" : ""): \(report.line)")
            }
            away = false
            everConnected = true
            reconnect.connected(at: monotonic.now)
            do {
                try listen(connection, &slots)
                return
            } catch {
                log(.warning, "desk: lost the \(bus) bus (\(Self.reason(error))); reconnecting")
                away = true
                for index in slots.indices { slots[index].state = .waiting }
                pause(until: reconnect.retry(after: monotonic.now))
            }
        }
    }

    /// Hands signals to the watches until stopped; throws when the bus goes away.
    private func listen(_ connection: DBusConnection, _ slots: inout [WatchSlot]) throws {
        while !isStopping {
            if let signal = try connection.nextSignal(until: deadline(slots), on: monotonic, wake: wake >= 0 ? wake : nil) {
                if signal.sender == "org.freedesktop.DBus" {
                    ownerChanged(signal, connection, &slots)
                } else {
                    let now = clock()
                    for index in slots.indices where slots[index].state == .attached {
                        for change in slots[index].watch.take(signal, connection: connection, now: now) { yield(change) }
                    }
                }
            }
            retryFailed(connection, &slots)
            wakeDue(connection, &slots)
        }
    }

    /// A watched service appeared, left, or changed hands: attach its
    /// watches again, or remember them as absent.
    private func ownerChanged(_ signal: DBusSignal, _ connection: DBusConnection, _ slots: inout [WatchSlot]) {
        guard signal.member == "NameOwnerChanged", signal.arguments.count == 3,
              case .string(let name) = signal.arguments[0], case .string(let owner) = signal.arguments[2]
        else { return }
        let indices = slots.indices.filter { slots[$0].plan.serviceName == name }
        guard let first = indices.first else { return }
        let watch = slots[first].watch.name
        if owner.isEmpty {
            for index in indices { slots[index].state = .absent }
            log(.info, "desk: \(watch) left the \(bus) bus")
            return
        }
        for index in indices {
            // A service that just appeared gets the shortest wait again if it is not ready.
            slots[index].state = .waiting
            attach(&slots[index], connection)
        }
        let report = BusReport(indices.map { slots[$0] }, bus: bus)
        log(.info, "desk: \(watch) appeared on the \(bus) bus: \(report.line)")
    }

    /// When the first failed watch is due to be tried again, or an attached
    /// one asked to be woken (``DeskWatch/wakeAt``); nil (wait for a signal
    /// however long) when none is and `stop()` can wake the thread.
    private func deadline(_ slots: [WatchSlot]) -> Duration? {
        let now = clock()
        let wakes = slots.compactMap { slot -> Duration? in
            guard slot.state == .attached, let at = slot.watch.wakeAt else { return nil }
            return monotonic.now + .seconds(max(0, at - now))
        }
        let due = (slots.compactMap(\.retryAt) + wakes).min()
        return wake >= 0 ? due : soonest(due)
    }

    /// Wakes the attached watches whose ``DeskWatch/wakeAt`` has come.
    private func wakeDue(_ connection: DBusConnection, _ slots: inout [WatchSlot]) {
        let now = clock()
        for index in slots.indices where slots[index].state == .attached {
            guard let at = slots[index].watch.wakeAt, at <= now else { continue }
            for change in slots[index].watch.wake(connection, now: now) { yield(change) }
        }
    }

    /// `due`, or a quarter of a second from now if that is sooner: how long
    /// the thread waits without a wake socket before it looks at `stopping`.
    private func soonest(_ due: Duration?) -> Duration {
        let soon = monotonic.now + .milliseconds(250)
        return min(due ?? soon, soon)
    }

    private func retryFailed(_ connection: DBusConnection, _ slots: inout [WatchSlot]) {
        let now = monotonic.now
        for index in slots.indices {
            guard let at = slots[index].retryAt, at <= now else { continue }
            attach(&slots[index], connection)
            if slots[index].state == .attached {
                log(.info, "desk: \(BusReport([slots[index]], bus: bus).line)")
            }
        }
    }

    private func attach(_ slot: inout WatchSlot, _ connection: DBusConnection) {
        do {
            let changes = try slot.watch.attach(connection, now: clock())
            slot.state = .attached
            for change in changes { yield(change) }
        } catch {
            let owned = try? connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "NameHasOwner", arguments: [.string(slot.plan.serviceName)])
            if owned == [.bool(true)] {
                // Present but not ready: try again later.
                slot.failed(Self.reason(error), at: monotonic.now)
            } else {
                slot.state = .absent
            }
        }
    }

    /// Sleeps until `monotonic` reaches `end`, or until `stop()` asks the
    /// thread to end.
    private func pause(until end: Duration) {
        var descriptors = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while !isStopping, monotonic.now < end {
            _ = monotonic.poll(&descriptors, until: wake >= 0 ? end : soonest(end))
        }
    }

    /// A failure's sentence without its full stop, to sit inside a line.
    static func reason(_ error: any Error) -> String {
        let sentence = (error as? DBusFailure)?.sentence ?? "\(error)"
        return sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
    }
}
