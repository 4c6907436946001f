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
