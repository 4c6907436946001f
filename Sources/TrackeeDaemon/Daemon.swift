import Glibc
import Logging
import ServiceLifecycle
import TrackeeCore
import UnixSignals

/// `trackee run`: services of one group around one ``DaemonCore``, which
/// SIGTERM and SIGINT shut down gracefully.
///
/// The group is given its services, so a new long-running part (a bus
/// listener, an HTTP server) is one more entry in the list, not an edit
/// of the others:
///
/// ```swift
/// var services = await Daemon.standardServices(core: core, watching: directories, sync: drain, logger: logger)
/// services.append(.init(service: SomeOtherService(core: core)))
/// try await Daemon.run(core: core, services: services, logger: logger)
/// ```
public enum Daemon {
    /// Loads the rules, runs `services` until a signal in `signals` (or a
    /// graceful shutdown of the calling task) ends them, then stores the
    /// place states and tells systemd the daemon is stopping.
    public static func run(core: DaemonCore, services: [ServiceGroupConfiguration.ServiceConfiguration],
                           logger: Logger, signals: [UnixSignal] = [.sigterm, .sigint]) async throws {
        try await core.start()
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: services,
            gracefulShutdownSignals: signals,
            logger: logger))
        try await group.run()
        await core.savePlaces()
        core.systemd.stopping()
        logger.info("stopped")
    }

    /// The services of `trackee run`, in start order: schedules, event
    /// lines (`eventLines`, stdin's unless it is a terminal), reloads on
    /// SIGHUP and on changes in `directories` and the calendars' folders,
    /// the sync drain when `sync` is given, and the desk's sources when
    /// `desk` is (tests leave it out, so no bus or netlink is touched).
    ///
    /// SIGHUP is trapped and the folders watched here, before the rules
    /// are first loaded, so no change between the two is missed.
    public static func standardServices(
        core: DaemonCore, watching directories: [String], eventLines: AsyncStream<String>? = Daemon.standardInput(),
        sync: PushDrain?, desk: DeskMonitorMaker? = nil, logger: Logger
    ) async -> [ServiceGroupConfiguration.ServiceConfiguration] {
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        let watch = FileWatch(logger: logger)
        for directory in directories { watch.watch(directory) }
        await core.watching(watch, ruleDirectories: directories)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: ScheduleService(core: core)),
            .init(service: EventLineService(core: core, logger: logger, zone: core.runner.zone, lines: eventLines),
                  successTerminationBehavior: .ignore),
            .init(service: ReloadService(core: core, hangups: hangups, changes: watch.changes),
                  successTerminationBehavior: .ignore),
        ]
        if let sync { services.append(.init(service: PushDrainService(drain: sync, clocks: core.clocks, logger: logger))) }
        if let desk { services.append(.init(service: DeskService(core: core, logger: logger, make: desk))) }
        return services
    }

    /// stdin's lines, read on a thread of their own; nil when stdin is a
    /// terminal, where no program writes events.
    public static func standardInput() -> AsyncStream<String>? {
        isatty(0) == 0 ? EventLineService.lines() : nil
    }
}
