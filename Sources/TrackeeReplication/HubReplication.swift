import Dispatch
import Logging
import ServiceLifecycle
import TrackeeCore
import TrackeeDaemon
import TrackeeStore

/// `trackee run`'s replication through the hub: a sync at start, then one
/// soon after each change made here (the store is looked at every
/// ``look``), at once when another device's push is announced (`LISTEN`,
/// waited for during each look), and every ``minute`` regardless. A hub out of reach is tried
/// again after 1 s, 2 s, 4 s … up to a minute; the local store never waits
/// for it.
///
/// It waits only on the clocks it is given, so a test runs it on a
/// manual clock, and it ends when its task is cancelled (graceful
/// shutdown does that). libpq blocks, so the hub is used from a thread of
/// its own (``HubThread``), one call at a time.
public struct HubReplication: Service {
    let connect: @Sendable () throws -> any HubSession
    let settings: HubSettings
    let store: Store
    let clocks: Clocks
    let logger: Logger

    /// How often the store is looked at, and the hub asked whether another
    /// device pushed.
    public static let look = Duration.milliseconds(200)
    public static let minute = Duration.seconds(60)

    public init(
        connect: @escaping @Sendable () throws -> any HubSession, settings: HubSettings, store: Store, clocks: Clocks,
        logger: Logger
    ) {
        self.connect = connect
        self.settings = settings
        self.store = store
        self.clocks = clocks
        self.logger = logger
    }

    public func run() async throws {
        let thread = HubThread()
        try? await cancelWhenGracefulShutdown {
            try await replicate(on: thread)
        }
    }

    private func replicate(on thread: HubThread) async throws {
        var backoff = Duration.seconds(1)
        var failing: String?
        while !Task.isCancelled {
            do {
                let session = try await thread.run { [connect] in
                    let session = try connect()
                    try session.listen()
                    return SessionBox(session)
                }
                let sync = ReplicationPass(store: store, settings: settings, session: session.session)
                // The head is read before each sync: a change committed
                // while it runs is then seen by the next look (and what the
                // sync itself wrote costs one more sync that finds nothing).
                var head = try store.hubLocalHead()
                try await once(sync, on: thread)
                if let failing { logger.info("hub: reached again (after: \(failing))") }
                failing = nil
                backoff = .seconds(1)
                var last = clocks.wall.read().boot
                let device = settings.device, look = Self.look.nanoseconds
                while true {
                    // The wait below is no cancellation point, and may take
                    // the whole look.
                    try Task.checkCancellation()
                    // A look: the hub is listened to for up to its length,
                    // and what of it the wait did not take is slept on the
                    // clock (all of it, when the wait returns at once).
                    let began = clocks.wall.read().boot
                    let announced = try await thread.run {
                        try session.session.waitForPush(milliseconds: Int32(look / 1_000_000), excluding: device)
                    }
                    let spent = clocks.wall.read().boot - began
                    if !announced, spent < look { try await clocks.sleep.sleep(for: .nanoseconds(look - spent)) }
                    let now = try store.hubLocalHead()
                    let boot = clocks.wall.read().boot
                    if announced || now != head || boot - last >= Self.minute.nanoseconds {
                        head = now
                        try await once(sync, on: thread)
                        last = boot
                    }
                }
            } catch is CancellationError {
                return
            } catch {
                let message = "\(error)"
                try? store.hubReplicated(error: message, now: clocks.wall.now)
                if failing != message { logger.error("hub: \(message); trying again, local work goes on") }
                failing = message
                try await clocks.sleep.sleep(for: backoff)
                backoff = min(backoff * 2, Self.minute)
            }
        }
    }

    private func once(_ sync: ReplicationPass, on thread: HubThread) async throws {
        let wall = clocks.wall
        let report = try await thread.run { try sync.run(now: { wall.now }) }
        try store.hubReplicated(error: nil, now: wall.now)
        for warning in report.warnings { logger.warning("hub: \(warning)") }
        if report.pushed + report.pulled > 0 {
            logger.debug("hub: pushed \(report.pushed), pulled \(report.pulled), applied \(report.applied)")
        }
        if report.conflicts > 0 { logger.warning("hub: \(report.conflicts) conflict(s); trackee hub conflicts lists them") }
    }

    /// A session handed between the service and its thread, which alone
    /// uses it.
    private struct SessionBox: @unchecked Sendable {
        let session: any HubSession
        init(_ session: any HubSession) { self.session = session }
    }
}

/// What service-lifecycle's debug log names this service by: its name, and
/// none of what it holds (settings, passwords, tokens).
extension HubReplication: CustomStringConvertible {
    public var description: String { "HubReplication(device: \(settings.device))" }
}

/// One thread on which the hub's blocking calls run, one at a time, in
/// the order they are asked for.
final class HubThread: @unchecked Sendable {
    private let queue = DispatchQueue(label: "trackee hub")

    /// Runs `job` on the thread and returns what it returned; a job
    /// already running when the caller is cancelled runs to its end.
    func run<T: Sendable>(_ job: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try job() })
            }
        }
    }
}

extension Duration {
    /// Whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
