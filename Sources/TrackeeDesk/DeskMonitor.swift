import Synchronization
import TrackeeCore

/// The desk's system watches, as `trackee run` uses them: one thread per
/// D-Bus bus running its watches, the other watches (udev) on threads of
/// their own, and every change they report on one stream.
///
/// ```swift
/// let desk = DeskMonitor(environment: environment, idleIntervalMilliseconds: 60_000, log: log)
/// log(.info, desk.start().description)
/// for await change in desk.changes { … }
/// ```
public final class DeskMonitor: Sendable {
    /// Every change, in the order the watches reported them; finished by ``stop()``.
    public let changes: AsyncStream<DeskChange>
    private let continuation: AsyncStream<DeskChange>.Continuation
    private let environment: [String: String]
    private let idle: [DeskWatchPlan]
    private let watches: [DeskWatchPlan]
    private let threadWatches: [any DeskThreadWatch]
    private let clock: @Sendable () -> Instant
    private let monotonic: any DeskClock
    private let log: DeskLog
    private let running = Mutex<Running?>(nil)

    /// How long ``start()`` waits for the buses' first attach.
    static let startMilliseconds = 2000

    private struct Running: Sendable {
        var monitors: [BusMonitor]
        var watches: [any DeskThreadWatch]
    }

    /// The watches of ``DeskKind/all``: the first idle watch present
    /// (checked every `idleIntervalMilliseconds` where the watch polls),
    /// logind's lock and sleep, NetworkManager, UPower, udev's devices, and
    /// `threadWatches`.
    public convenience init(environment: [String: String], idleIntervalMilliseconds: Int,
                            threadWatches: [any DeskThreadWatch] = [],
                            clock: @escaping @Sendable () -> Instant = SystemClock.now,
                            monotonic: any DeskClock = PollClock.continuous, settings: DeskSettings = .init(),
                            memory: DeskMemory = .none, log: @escaping DeskLog) {
        self.init(
            environment: environment,
            idle: DeskWatchPlan.standardIdle(environment: environment, intervalMilliseconds: idleIntervalMilliseconds),
            watches: DeskWatchPlan.standard(environment: environment, settings: settings, memory: memory, log: log),
            threadWatches: DeskKind.standardThreadWatches(log: log) + threadWatches, clock: clock, monotonic: monotonic, log: log)
    }

    /// Runs the first of the `idle` candidates present at start, every one
    /// of `watches`, and `threadWatches`, reading the time of a change
    /// from `clock` where its watch gives none. The buses' threads wait on
    /// `monotonic` (to reconnect, to try a watch again).
    public init(environment: [String: String], idle: [DeskWatchPlan], watches: [DeskWatchPlan],
                threadWatches: [any DeskThreadWatch] = [], clock: @escaping @Sendable () -> Instant,
                monotonic: any DeskClock = PollClock.continuous, log: @escaping DeskLog) {
        (changes, continuation) = AsyncStream.makeStream(of: DeskChange.self)
        self.environment = environment
        self.idle = idle
        self.watches = watches
        self.threadWatches = threadWatches
        self.clock = clock
        self.monotonic = monotonic
        self.log = log
    }

    /// Starts every watch and returns, once each bus has attached its
    /// watches (or after two seconds), what attached and what is absent.
    /// Absent services are attached when they appear; nothing here fails.
    public func start() -> DeskSummary {
        var absent: [String] = []
        let chosen = chooseIdle(absent: &absent)
        let plans = (chosen.map { [$0] } ?? []) + watches
        let continuation = self.continuation
        let yield: @Sendable (DeskChange) -> Void = { continuation.yield($0) }
        var monitors: [BusMonitor] = []
        for bus in DeskBus.allCases {
            let onBus = plans.filter { $0.bus == bus }
            guard !onBus.isEmpty else { continue }
            guard let address = bus.address(in: environment) else {
                absent.append("\(bus) bus (no address)")
                continue
            }
            let monitor = BusMonitor(bus: bus, address: address, plans: onBus, clock: clock, monotonic: monotonic,
                                     log: log, yield: yield)
            do {
                try monitor.start()
                monitors.append(monitor)
            } catch {
                absent.append("\(bus) bus (\(BusMonitor.reason(error)))")
            }
        }
        var watches: [any DeskThreadWatch] = []
        var started: [DeskSummary.Attached] = []
        for watch in threadWatches {
            do {
                try watch.start(yield: yield)
                watches.append(watch)
                started.append(DeskSummary.Attached(reports: watch.reports, watch: watch.name))
            } catch {
                absent.append("\(watch.name) (\(BusMonitor.reason(error)))")
            }
        }
        running.withLock { $0 = Running(monitors: monitors, watches: watches) }

        let deadline = Latch<BusReport>.deadline(inMilliseconds: Self.startMilliseconds)
        var attached: [DeskSummary.Attached] = []
        for monitor in monitors {
            guard let report = monitor.firstReport.wait(until: deadline) else {
                absent.append("\(monitor.bus) bus (no answer within \(Self.startMilliseconds / 1000) s)")
                continue
            }
            attached += report.attached
            absent += report.absent
        }
        // The idle watch first: which of them won is what a user checks.
        let idleFirst = attached.filter { $0.reports == "idle" } + attached.filter { $0.reports != "idle" }
        var once: [String] = []
        for text in absent where !once.contains(text) { once.append(text) }
        return DeskSummary(attached: idleFirst + started, absent: once)
    }

    /// Stops every watch and finishes ``changes``. The inhibitor a watch
    /// holds is released; one already handed out with a change is released
    /// by whoever holds the change, or when it is dropped.
    public func stop() {
        let stopping = running.withLock { running -> Running? in
            defer { running = nil }
            return running
        }
        // Both buses wind down at once: one wait, not one per bus.
        for monitor in stopping?.monitors ?? [] { monitor.requestStop() }
        for monitor in stopping?.monitors ?? [] { monitor.stop() }
        for watch in stopping?.watches ?? [] { watch.stop() }
        continuation.finish()
    }

    /// The first idle candidate whose service is on its bus; else the last
    /// one, which attaches when its service appears. Buses that could not
    /// be asked are noted in `absent`.
    private func chooseIdle(absent: inout [String]) -> DeskWatchPlan? {
        var connections: [DeskBus: DBusConnection?] = [:]
        for candidate in idle {
            let connection: DBusConnection?
            if let known = connections[candidate.bus] {
                connection = known
            } else {
                connection = connect(candidate.bus, absent: &absent)
                connections[candidate.bus] = connection
            }
            guard let connection else { continue }
            let owned = try? connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "NameHasOwner", arguments: [.string(candidate.serviceName)])
            if owned == [.bool(true)] { return candidate }
        }
        return idle.last
    }

    /// A short-lived connection to ask who is on `bus`; nil, noted in
    /// `absent`, when there is none.
    private func connect(_ bus: DeskBus, absent: inout [String]) -> DBusConnection? {
        guard let address = bus.address(in: environment) else {
            absent.append("\(bus) bus (no address)")
            return nil
        }
        do {
            return try DBusConnection(address: address)
        } catch {
            absent.append("\(bus) bus (could not connect to \(address))")
            return nil
        }
    }
}
