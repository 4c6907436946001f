import Logging
import TrackeeDaemon
import TrackeeCore
import TrackeeStore

/// What the hub's commands and `trackee run` ask of replication: the
/// module's one door. `trackee-daemon` hands it to the commands; nothing
/// in `trackee` links it (libpq would cost every one-shot command).
public enum Replication {
    /// A connection to the hub as the settings' role, to a hub whose
    /// schema is this trackee's (refused when it is behind or ahead).
    public static func connect(_ settings: HubSettings, password: String?) throws -> any HubSession {
        let connection = try HubConnection(settings, password: password)
        try HubMigrator.check(connection)
        return LibpqHubSession(connection)
    }

    /// Creates or migrates the hub's schema, as its administrator (the
    /// settings' role: `hub init --user` names another); refused for a
    /// person.
    public static func initialize(_ settings: HubSettings, password: String?) throws -> HubInitReport {
        try HubMigrator.migrate(try HubConnection(settings, password: password))
    }

    /// What lets a person past the database on this hub, read from the
    /// catalogs as the settings' role.
    public static func check(_ settings: HubSettings, password: String?) throws -> HubCheckReport {
        try HubCheck.run(try HubConnection(settings, password: password))
    }

    /// Lets `person` register up to `devices` devices, as the hub's
    /// administrator (the settings' role: `hub limit --user` names
    /// another).
    public static func limit(_ settings: HubSettings, password: String?, person: String, devices: Int) throws
        -> HubLimitReport
    {
        try HubPersons.limit(try HubConnection(settings, password: password), person: person, devices: devices)
    }

    /// `hub sync`: this device's own timeline, then a copy of each one
    /// another person shares with this role (one no longer shared is
    /// forgotten). The first report is the device's own.
    public static func sync(
        store: Store, location: StoreLocation, settings: HubSettings, password: String?, batch: Int,
        progress: ((ReplicationReport) -> Void)?, now: @escaping () -> Instant
    ) throws -> [ReplicationReport] {
        let session = try connect(settings, password: password)
        var own = ReplicationPass(store: store, settings: settings, session: session)
        own.checkpointsAside = true
        own.batch = batch
        own.progress = progress
        var reports = [try own.run(now: now)]
        let shared = try session.sharedWithMe()
        for person in location.people where shared[person] == nil { location.forget(person: person) }
        for (person, level) in shared.sorted(by: { $0.key < $1.key }) {
            guard HubSettings.isValidDevice(person) else {
                reports[0].warnings.append(
                    "the hub shares the timeline of \"\(person)\", a name trackee cannot keep a copy under; skipped")
                continue
            }
            var copy = ReplicationPass(
                store: try Store(location: location.person(person)), settings: settings, session: session, person: person)
            copy.progress = progress
            copy.checkpointsAside = true
            copy.batch = batch
            var report = try copy.run(now: now)
            report.person = person
            report.level = level
            reports.append(report)
        }
        return reports
    }

    /// Lets `person` read this role's timeline (`read`), or also change it
    /// (`write`); nil takes that back.
    public static func share(_ settings: HubSettings, password: String?, with person: String, level: String?) throws {
        try connect(settings, password: password).share(with: person, level: level)
    }

    /// `trackee run`'s replication of its store through the hub.
    public static func service(
        settings: HubSettings, password: String?, store: Store, logger: Logger
    ) -> HubReplication {
        HubReplication(
            connect: { try connect(settings, password: password) }, settings: settings, store: store, clocks: .system,
            logger: logger)
    }
}
