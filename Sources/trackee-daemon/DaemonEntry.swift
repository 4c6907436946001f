import Logging
import ServiceLifecycle
import TrackeeAPI
import TrackeeCommands
import TrackeeCore
import TrackeeHTTP
import TrackeeReplication
import TrackeeStore
import TrackeeWeb

/// `trackee-daemon`: every command of `trackee`, with the HTTP API's
/// server and the web page registered, so its `run` serves `http:`, and replication
/// through the hub, so its `hub` commands reach the hub.
enum DaemonEntry {
    static func main() {
        HubServing.register(LinkedReplication())
        HTTPServing.register { context in
            let store = context.store
            // The daemon's clocks: what its other services read and sleep on.
            let clocks = context.core.clocks
            let now: @Sendable () -> Instant = { clocks.wall.now }
            let generation = StoreGeneration()
            let api = API(
                store: store, zone: context.zone, createsProjects: context.createsProjects, weekStart: context.weekStart,
                now: now, credentials: StoreCredentials(store: store, now: now, generation: generation), daemon: context.core,
                perMinute: context.settings.rateLimit, generation: generation,
                trustedProxies: context.settings.trustedProxies,
                log: APILog(logger: context.logger, access: context.settings.accessLog), currency: context.currency,
                reportFiles: ReportTool.writer)
            let page = WebPage(api: api, sessionDays: context.settings.sessionDays, rules: context.core)
            return HTTPServer(
                api: api, page: page, settings: context.settings, store: store, zone: context.zone, now: now, clock: clocks.sleep,
                version: context.version, generation: generation, logger: context.logger)
        }
        Trackee.runCommandLine()
    }
}

/// The commands' view of TrackeeReplication: each call is handed on as it
/// is.
struct LinkedReplication: HubReplicator {
    func initialize(_ settings: HubSettings, password: String?) throws -> HubInitReport {
        try Replication.initialize(settings, password: password)
    }

    func check(_ settings: HubSettings, password: String?) throws -> HubCheckReport {
        try Replication.check(settings, password: password)
    }

    func limit(_ settings: HubSettings, password: String?, person: String, devices: Int) throws -> HubLimitReport {
        try Replication.limit(settings, password: password, person: person, devices: devices)
    }

    func sync(
        store: Store, location: StoreLocation, settings: HubSettings, password: String?, batch: Int,
        progress: ((ReplicationReport) -> Void)?, now: @escaping () -> Instant
    ) throws -> [ReplicationReport] {
        try Replication.sync(
            store: store, location: location, settings: settings, password: password, batch: batch, progress: progress,
            now: now)
    }

    func share(_ settings: HubSettings, password: String?, with person: String, level: String?) throws {
        try Replication.share(settings, password: password, with: person, level: level)
    }

    func service(settings: HubSettings, password: String?, store: Store, logger: Logger) -> any Service {
        Replication.service(settings: settings, password: password, store: store, logger: logger)
    }
}
