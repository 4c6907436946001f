/// The hub's schema: versioned, append-only migrations, as the local
/// store's are. Each runs once, in order, in the transaction that records
/// it in `trackee_migration`; a hub that has a migration this list does
/// not know was set up by a newer trackee, and is refused rather than
/// written to.
public enum HubSchema {
    public struct Migration: Sendable {
        public let id: String
        public let sql: String
    }

    /// The table that records what has been applied.
    public static let ledger = """
        CREATE TABLE IF NOT EXISTS trackee_migration (
            id text PRIMARY KEY,
            applied timestamptz NOT NULL DEFAULT now()
        )
        """

    /// Never edit or reorder one; add a new one at the end.
    public static let migrations: [Migration] = [
        Migration(id: "2026-11-26-devices-and-changes", sql: """
            CREATE TABLE device (
                name text PRIMARY KEY,
                person text NOT NULL DEFAULT current_user,
                registered timestamptz NOT NULL DEFAULT now()
            );
            CREATE TABLE change (
                id bigserial PRIMARY KEY,
                person text NOT NULL DEFAULT current_user,
                device text NOT NULL REFERENCES device (name),
                sequence bigint NOT NULL,
                clock text NOT NULL,
                kind text NOT NULL,
                body jsonb NOT NULL,
                UNIQUE (device, sequence)
            );
            """),
    ]

    /// The outcome of bringing a hub's schema up to date.
    public struct Report: Sendable, Equatable {
        /// What this run applied, in order.
        public var applied: [String]
        /// The last migration the hub now has.
        public var current: String

        public init(applied: [String], current: String) {
            self.applied = applied
            self.current = current
        }
    }

    /// What is left to apply to a hub that has `applied`, or the first
    /// migration it has that this list does not know.
    public static func pending(after applied: Set<String>) -> Result<[Migration], UnknownMigration> {
        let known = Set(migrations.map(\.id))
        if let unknown = applied.subtracting(known).sorted().first { return .failure(UnknownMigration(id: unknown)) }
        return .success(migrations.filter { !applied.contains($0.id) })
    }

    public struct UnknownMigration: Error, Equatable {
        public let id: String
    }
}

/// What the commands ask of a hub. `trackee` has none (no PostgreSQL
/// client is linked into the one-shot commands); `trackee-daemon`
/// registers the libpq one, and `trackee hub …` becomes it.
public protocol HubClient: Sendable {
    /// Creates or migrates the hub's schema.
    func initialize(_ settings: HubSettings, password: String?) throws -> HubSchema.Report
}
