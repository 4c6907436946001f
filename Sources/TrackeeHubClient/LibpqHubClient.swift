import TrackeeHub

/// The hub through libpq: what `trackee-daemon` registers.
public struct LibpqHubClient: HubClient {
    public init() {}

    public func initialize(_ settings: HubSettings, password: String?) throws -> HubSchema.Report {
        let connection = try HubConnection(settings, password: password)
        return try HubMigrator.migrate(connection)
    }
}

/// Brings the hub's schema up to date, one transaction for the lot; two
/// devices running `hub init` at once take turns on an advisory lock.
enum HubMigrator {
    /// The advisory lock's key: "trackee" in ASCII, as a number.
    static let lock = "\(0x7472_6163_6b65_65)"

    static func migrate(_ connection: HubConnection) throws(HubFailure) -> HubSchema.Report {
        try connection.transaction { () throws(HubFailure) -> HubSchema.Report in
            try connection.execute("SELECT pg_advisory_xact_lock(\(lock))")
            try connection.execute(HubSchema.ledger)
            let applied = Set(try connection.execute("SELECT id FROM trackee_migration").compactMap { $0.first ?? nil })
            let pending: [HubSchema.Migration]
            switch HubSchema.pending(after: applied) {
            case .success(let list): pending = list
            case .failure(let unknown):
                throw HubFailure(
                    "the hub's schema has migration \(unknown.id), which this trackee does not know: a newer trackee "
                        + "set it up; upgrade trackee on this device")
            }
            for migration in pending {
                try connection.execute(migration.sql)
                try connection.execute("INSERT INTO trackee_migration (id) VALUES ($1)", [migration.id])
            }
            return HubSchema.Report(applied: pending.map(\.id), current: HubSchema.migrations.last!.id)
        }
    }
}
