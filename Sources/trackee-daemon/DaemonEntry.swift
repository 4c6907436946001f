import TrackeeAPI
import TrackeeCommands
import TrackeeCore
import TrackeeHTTP
import TrackeeHubClient
import TrackeeStore

/// `trackee-daemon`: every command of `trackee`, with the HTTP API's
/// server registered, so its `run` serves `http:`, and the hub's
/// PostgreSQL client, so its `hub` commands reach the hub.
enum DaemonEntry {
    static func main() {
        HubServing.register(LibpqHubClient())
        HTTPServing.register { context in
            let store = context.store
            let now: @Sendable () -> Instant = { SystemClock.now() }
            let generation = StoreGeneration()
            let api = API(
                store: store, zone: context.zone, createsProjects: context.createsProjects, weekStart: context.weekStart,
                now: now, credentials: StoreCredentials(store: store, now: now, generation: generation), daemon: context.core,
                perMinute: context.settings.rateLimit, generation: generation)
            return HTTPServer(
                api: api, settings: context.settings, store: store, zone: context.zone, now: now,
                version: context.version, generation: generation, logger: context.logger)
        }
        Trackee.runCommandLine()
    }
}
