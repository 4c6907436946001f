import ArgumentParser
import Dispatch
import Logging
import TrackeeAutomation
import TrackeeCore
import TrackeeAPI
import TrackeeDaemon
import ServiceLifecycle
import TrackeeStore

extension Trackee {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Run the rules: fire schedules and calendar edges, read events and fixes on stdin, reload on change.",
            discussion: """
                Meant as a systemd user service (Type=notify; see recipes/systemd/trackee.service). \
                It sleeps until the next schedule or calendar edge, at most a minute; reads JSON \
                event lines and position fixes (as trackee feed reads them, mixed in one stream) \
                from stdin when stdin is not a terminal; watches the desk (idleness, the screen lock, \
                sleep, the network and the power supply over D-Bus, devices from the kernel) and logs \
                what it attached in one line; reloads the rules on SIGHUP and when a rule file or \
                calendar changes; serves the HTTP API when the settings have http:, and \
                replicates through the hub when they have hub: (both as trackee-daemon, which it \
                becomes in the same process; see ENDPOINTS and "trackee hub sync" in \
                trackee(1)); and stops gracefully on SIGTERM or SIGINT.
                """)

        @OptionGroup var common: CommonOptions
        @OptionGroup var rules: RulesOption

        @Flag(help: "Log every firing decision, not only what fires, and end each line in its metadata (rule.id=…).")
        var verbose = false

        func run() throws {
            try Session.run(common) { session in
                let environment = session.environment
                // The server is in trackee-daemon only: hand it the whole
                // command, same process, same arguments.
                if session.settings.http != nil && HTTPServing.registered == nil { try HTTPServing.execDaemon() }
                if session.settings.hub != nil && HubServing.registered == nil {
                    try HTTPServing.execDaemon(for: "holds the hub's PostgreSQL client")
                }
                let verbose = verbose
                let level: Logger.Level = verbose ? .debug : .info
                LoggingSystem.bootstrap {
                    StderrLogHandler(label: $0, environment: environment, level: level, verbose: verbose)
                }
                let logger = Logger(label: "trackee run")
                let store = try session.openStore()
                let runner = Runner(store: store, zone: session.zone, environment: environment, logger: logger,
                                    waitForPrograms: false, newProjects: session.rulesNewProjects,
                                    keepTraces: session.settings.traces)
                let core = DaemonCore(runner: runner, ruleFiles: rules.paths, systemd: SystemdNotifier(environment: environment),
                                      defaultAccuracy: session.settings.defaultAccuracy)
                let directories = RuleFiles.watchedDirectories(explicit: rules.paths, environment: environment)
                let outcome = Outcome()
                let done = DispatchSemaphore(value: 0)
                var sync: PushDrain?
                if !session.settings.sync.isEmpty {
                    do {
                        let job = PushJob(command: "drain", targets: session.settings.sync, session: session, store: store)
                        sync = PushDrain(argv: try job.argv(), environment: environment, store: store)
                    } catch {
                        logger.error("sync: \(error); entries stay queued until trackee sync runs")
                    }
                }
                let drain = sync
                var replication: (any Service)?
                if let hub = session.settings.hub, let replicator = HubServing.registered {
                    replication = replicator.service(
                        settings: hub, password: try Trackee.Hub.password(hub, environment: environment), store: store,
                        logger: logger)
                }
                let replicating = replication
                let server = session.settings.http.flatMap { http in
                    Self.server(http, session: session, store: store, core: core, logger: logger)
                }
                Task {
                    do {
                        var services = await Daemon.standardServices(
                            core: core, watching: directories, sync: drain,
                            desk: Daemon.standardDesk(environment: environment, clocks: core.clocks,
                                                      settings: session.settings.desk, store: store),
                            logger: logger)
                        if let server { services.append(.init(service: server)) }
                        if let replicating { services.append(.init(service: replicating)) }
                        try await Daemon.run(core: core, services: services, logger: logger)
                    } catch {
                        outcome.failure = "\(error)"
                    }
                    done.signal()
                }
                done.wait()
                if let failure = outcome.failure { throw CommandFailure(message: failure, status: 1) }
            }
        }

        /// The HTTP API's service, when the settings have `http:`.
        static func server(
            _ http: HTTPSettings, session: Session, store: Store, core: DaemonCore, logger: Logger
        ) -> (any Service)? {
            guard let make = HTTPServing.registered else { return nil }
            let context = HTTPServing.Context(
                settings: http, store: store, zone: session.zone,
                createsProjects: session.settings.createProjects == .always, weekStart: session.settings.weekStart,
                currency: session.settings.currency, core: core, version: TrackeeVersion.string, logger: logger)
            return make(context)
        }

        /// How the daemon ended, handed from its task to the command.
        final class Outcome: @unchecked Sendable {
            var failure: String?
        }
    }
}
