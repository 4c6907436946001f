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
        // Each device's number (the last three digits of the ids of the
        // rows it makes) and the store that holds its name, so a second
        // store cannot join as the same device.
        Migration(id: "2026-11-27-device-numbers", sql: """
            CREATE SEQUENCE device_number MINVALUE 1 MAXVALUE 999;
            ALTER TABLE device ADD COLUMN number integer UNIQUE DEFAULT nextval('device_number');
            ALTER TABLE device ADD COLUMN store text;
            """),
        // People: each is a PostgreSQL role, and their changes are theirs
        // by row-level security, enforced by the database for every role
        // (the tables' owner too: FORCE). `share` holds what each person
        // lets another do with their timeline: read it, or also write it.
        Migration(id: "2026-11-28-sharing", sql: """
            CREATE TABLE share (
                owner text NOT NULL DEFAULT current_user,
                grantee text NOT NULL,
                level text NOT NULL CHECK (level IN ('read', 'write')),
                PRIMARY KEY (owner, grantee)
            );
            ALTER TABLE share ENABLE ROW LEVEL SECURITY;
            ALTER TABLE share FORCE ROW LEVEL SECURITY;
            CREATE POLICY share_seen ON share FOR SELECT USING (owner = current_user OR grantee = current_user);
            CREATE POLICY share_given ON share FOR INSERT WITH CHECK (owner = current_user);
            CREATE POLICY share_changed ON share FOR UPDATE USING (owner = current_user) WITH CHECK (owner = current_user);
            CREATE POLICY share_taken ON share FOR DELETE USING (owner = current_user);
            ALTER TABLE change ENABLE ROW LEVEL SECURITY;
            ALTER TABLE change FORCE ROW LEVEL SECURITY;
            CREATE POLICY change_read ON change FOR SELECT USING (
                person = current_user
                OR EXISTS (SELECT 1 FROM share s WHERE s.owner = change.person AND s.grantee = current_user));
            CREATE POLICY change_write ON change FOR INSERT WITH CHECK (
                person = current_user
                OR EXISTS (SELECT 1 FROM share s
                           WHERE s.owner = change.person AND s.grantee = current_user AND s.level = 'write'));
            ALTER TABLE device ENABLE ROW LEVEL SECURITY;
            ALTER TABLE device FORCE ROW LEVEL SECURITY;
            -- Every name is seen, so that a second store cannot take one.
            CREATE POLICY device_seen ON device FOR SELECT USING (true);
            CREATE POLICY device_own ON device FOR INSERT WITH CHECK (person = current_user);
            CREATE INDEX change_person ON change (person, id);
            GRANT SELECT, INSERT ON change, device TO PUBLIC;
            GRANT SELECT, INSERT, UPDATE, DELETE ON share TO PUBLIC;
            GRANT SELECT ON trackee_migration TO PUBLIC;
            GRANT USAGE ON SEQUENCE change_id_seq, device_number TO PUBLIC;
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
    /// A connection for replication, to a hub whose schema is this
    /// trackee's (refused when it is behind or ahead).
    func connect(_ settings: HubSettings, password: String?) throws -> any HubSession
}

/// One connection to the hub, for one device's pushes and pulls.
public protocol HubSession: AnyObject {
    /// Registers `device` for the store `store` (once), and returns its
    /// number; refused when another store holds the name.
    func register(device: String, store: String) throws -> Int64
    /// The hub's clock, in milliseconds since 1970.
    func now() throws -> Int64
    /// Appends changes made on `device`; those the hub holds already (a
    /// push again after a kill) are passed over.
    /// `person` is whose timeline they are (nil: this role's own); the
    /// hub refuses a change to a timeline this role may not write.
    func push(device: String, person: String?, _ changes: [HubOutgoingChange]) throws
    /// Up to `limit` changes other devices made to `person`'s timeline
    /// (nil: this role's own), after hub change `cursor`.
    func pull(after cursor: Int64, person: String?, excluding device: String, limit: Int) throws -> [HubIncomingChange]
    /// Whose timelines this role may read (`read`) or also write
    /// (`write`), by person; its own is not among them.
    func sharedWithMe() throws -> [String: String]
    /// Lets `person` read this role's timeline, or also write it; nil
    /// takes that back.
    func share(with person: String, level: String?) throws
    /// The role the hub knows this connection as: the person.
    func person() throws -> String
    /// From now on, hears of every push to the hub (`LISTEN`).
    func listen() throws
    /// Waits up to `milliseconds` for a push by a device other than
    /// `device`; true when one came.
    func waitForPush(milliseconds: Int32, excluding device: String) throws -> Bool
}

/// A change made on this device, as it is appended to the hub's change
/// table.
public struct HubOutgoingChange: Sendable, Equatable {
    /// The journal row's number: unique per device, so a second push of
    /// it adds nothing.
    public var sequence: Int64
    public var clock: String
    /// `client`, `project` or `entry`.
    public var kind: String
    /// `{"id":…,"fields":{…}}`: the fields the change set, `_exists` 0
    /// for a delete and 1 for a creation.
    public var body: String

    public init(sequence: Int64, clock: String, kind: String, body: String) {
        self.sequence = sequence
        self.clock = clock
        self.kind = kind
        self.body = body
    }
}

/// A change another device made, as read from the hub.
public struct HubIncomingChange: Sendable, Equatable {
    /// Its number in the hub: the pull cursor.
    public var id: Int64
    public var device: String
    public var clock: String
    public var kind: String
    public var body: String

    public init(id: Int64, device: String, clock: String, kind: String, body: String) {
        self.id = id
        self.device = device
        self.clock = clock
        self.kind = kind
        self.body = body
    }
}
