import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle
import Synchronization
import TrackeeAPI
import TrackeeCore
import TrackeeStore

/// The HTTP API as one more service of `trackee run`: listens where the
/// settings say, answers through ``API``, and feeds the event streams
/// from the store. A graceful shutdown ends every stream with an `end`
/// event, stops listening and closes the connections.
public struct HTTPServer: Service {
    let api: API
    /// The web page at `/`, beside the API; nil: only the API.
    let page: (any WebPageServing)?
    let settings: HTTPSettings
    let store: Store
    let zone: Zone
    let now: @Sendable () -> Instant
    /// What the heartbeat, the caches' tick and the closing grace sleep on:
    /// the daemon's sleep clock, so a manual clock drives them in tests.
    let clock: any Clock<Duration>
    let version: String
    let generation: StoreGeneration
    let logger: Logger

    /// `generation` is the one `api` (and its credentials) read under;
    /// the server advances it at each change of the store's files.
    public init(
        api: API, page: (any WebPageServing)? = nil, settings: HTTPSettings, store: Store, zone: Zone, now: @escaping @Sendable () -> Instant,
        clock: any Clock<Duration> = ContinuousClock(), version: String, generation: StoreGeneration, logger: Logger
    ) {
        self.clock = clock
        self.generation = generation
        self.api = api
        self.page = page
        self.settings = settings
        self.store = store
        self.zone = zone
        self.now = now
        self.version = version
        self.logger = logger
    }

    public func run() async throws {
        let watch = StoreWatch(storePath: store.path)
        let checkpoints = CheckpointThread(store: store, generation: generation, logger: logger)
        defer { checkpoints?.stop() }
        let hub = EventHub(firstOpened: { watch?.poke() })
        let open = ConnectionCount()
        let (api, page, limit) = (api, page, settings.maxConnections)
        let opening = EventStream.opening(version: version)
        // One event-loop thread is plenty: answers are made on the
        // concurrency pool, and the store writes one at a time anyway.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                let count = open.opened()
                channel.closeFuture.whenComplete { _ in open.closed() }
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    let progress = RequestBytes()
                    try pipeline.addHandler(progress)
                    try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: true)
                    try pipeline.addHandler(APIHandler(
                        api: api, page: page, hub: hub, busyLimit: count > limit ? limit : nil, opening: opening, progress: progress))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: settings.host, port: settings.port).get()
        } catch {
            try? await group.shutdownGracefully()
            throw HTTPServerFailure("http: cannot listen on \(settings.host):\(settings.port): \(error)")
        }
        let port = channel.localAddress?.port ?? settings.port
        let shownHost = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
        logger.info("http: listening on http://\(shownHost):\(port)")
        if !settings.isLoopback {
            logger.warning(
                "http: listening on \(shownHost):\(port) without TLS (insecure_plaintext: true); tokens cross the network in clear")
        }
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { tasks in
                tasks.addTask { await feed(hub, watch) }
                tasks.addTask { await beat(hub) }
            }
        }
        hub.end(with: EventStream.end)
        try? await channel.close()
        // Give the streams' last frames and the answers in progress a
        // moment to go out before the connections are closed under them.
        try? await clock.sleep(for: .milliseconds(100))
        try? await group.shutdownGracefully()
        logger.info("http: stopped")
    }

    /// Publishes what the store records, as it records it, while a
    /// stream is open; tells the API's caches of every change.
    private func feed(_ hub: EventHub, _ watch: StoreWatch?) async {
        guard let watch else {
            logger.warning("http: cannot watch \(store.path) with inotify; the event stream sends heartbeats only")
            // Without word of changes, the caches may keep a read a tenth
            // of a second at most.
            while (try? await clock.sleep(for: .milliseconds(100))) != nil { generation.advance() }
            return
        }
        defer { watch.stop() }
        for await _ in watch.changes {
            generation.advance()
            guard var cursor = hub.cursor else { continue }
            do {
                let frames = try EventStream.frames(after: &cursor, store: store, zone: zone, now: now())
                let changes = try EventStream.changes(after: &cursor, store: store)
                // A timer change's or a firing's frame tells the page as
                // much: `changed` as well would have it read itself twice.
                hub.publish(frames, changes: frames.isEmpty ? changes : [], upTo: cursor)
            } catch {
                logger.error("http: the event stream cannot read the store: \(error)")
            }
        }
    }

    private func beat(_ hub: EventHub) async {
        while (try? await clock.sleep(for: .seconds(settings.heartbeat))) != nil {
            hub.publish([EventStream.heartbeat])
        }
    }
}

/// The connections open now, against `max_connections`.
final class ConnectionCount: Sendable {
    private let count = Mutex(0)

    /// Counts one more; returns the count with it.
    func opened() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }

    func closed() {
        count.withLock { $0 -= 1 }
    }
}

/// Why the server could not start: one sentence naming the setting.
public struct HTTPServerFailure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// What service-lifecycle's debug log names this service by: its name, and
/// none of what it holds (settings, passwords, tokens).
extension HTTPServer: CustomStringConvertible {
    public var description: String { "HTTPServer" }
}
