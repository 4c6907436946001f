import TrackeeCore
import TrackeeStore

/// Pushes and pulls over one libpq connection, as a person: the database
/// decides what this role may see and write (``HubSchema/ownerAndPersons``).
final class LibpqHubSession: HubSession {
    private let connection: HubConnection

    init(_ connection: HubConnection) {
        self.connection = connection
    }

    func register(device: String, store: String, timeline: String?) throws -> Int64 {
        guard let text = try connection.execute("SELECT trackee.register($1, $2, $3)", [device, store, timeline])
            .first?.first ?? nil, let number = Int64(text)
        else { throw HubFailure("the hub did not register device \(device)") }
        return number
    }

    func now() throws -> Int64 {
        let rows = try connection.execute("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint")
        guard let text = rows.first?.first ?? nil, let value = Int64(text) else {
            throw HubFailure("the hub did not tell its time")
        }
        return value
    }

    /// One statement in one transaction: the changes the hub lacks go in,
    /// and those it holds already must be the same (clock, kind, body);
    /// one that is not rolls the whole push back. Pushes take turns on an
    /// advisory lock (the hub's trigger takes it for any insert), so its
    /// ids become visible in their order.
    func push(device: String, person: String?, _ changes: [HubOutgoingChange]) throws {
        guard !changes.isEmpty else { return }
        var json = "["
        for (index, change) in changes.enumerated() {
            if index > 0 { json += "," }
            json += #"{"s":\#(change.sequence),"c":"\#(change.clock)","k":"\#(change.kind)","b":\#(change.body)}"#
        }
        json += "]"
        try connection.transaction { () throws(HubFailure) in
            // Taken before the statement, whose snapshot then holds every
            // push before this one: the same changes pushed meanwhile from
            // another process of this store are the same, not different.
            // (The trigger's turn comes after the snapshot.)
            try connection.execute("SELECT pg_advisory_xact_lock(\(HubMigrator.pushLock))")
            let differing = try connection.execute("""
                WITH incoming AS (
                    SELECT coalesce($3, current_user) AS person, (c->>'s')::bigint AS sequence, c->>'c' AS clock,
                           c->>'k' AS kind, c->'b' AS body
                    FROM jsonb_array_elements($2::jsonb) c),
                stored AS (
                    INSERT INTO trackee.change (person, device, sequence, clock, kind, body)
                    SELECT person, $1, sequence, clock, kind, body FROM incoming
                    ON CONFLICT (person, device, sequence) DO NOTHING
                    RETURNING sequence)
                SELECT i.sequence FROM incoming i
                WHERE i.sequence NOT IN (SELECT sequence FROM stored)
                  AND NOT EXISTS (
                      SELECT 1 FROM trackee.change c
                      WHERE c.person = i.person AND c.device = $1 AND c.sequence = i.sequence
                        AND c.clock = i.clock AND c.kind = i.kind AND c.body = i.body)
                ORDER BY i.sequence LIMIT 1
                """, [device, json, person])
            if let sequence = differing.first?.first ?? nil {
                throw HubFailure(
                    "the hub holds a different change \(sequence) from device \(device) already, so this store is "
                        + "not the one that pushed it (was it restored from an older copy?); nothing was pushed, and "
                        + "the changes stay queued here")
            }
        }
    }

    func sharedWithMe() throws -> [String: String] {
        var shared: [String: String] = [:]
        for row in try connection.execute("SELECT owner, level FROM trackee.share WHERE grantee = current_user") {
            if let owner = row[0], let level = row[1] { shared[owner] = level }
        }
        return shared
    }

    func share(with person: String, level: String?) throws {
        if let level {
            guard try connection.execute("SELECT 1 FROM pg_roles WHERE rolname = $1", [person]).count == 1 else {
                throw HubFailure("the hub has no role named \(person); its administrator makes one for each person")
            }
            guard try HubPersons.isPerson(person, on: connection) else {
                throw HubFailure(
                    "\(person) is a role on the hub but not a person (a member of trackee_person); its administrator "
                        + "makes it one with GRANT trackee_person TO \(person)")
            }
            try connection.execute("""
                INSERT INTO trackee.share (owner, grantee, level) VALUES (current_user, $1, $2)
                ON CONFLICT (owner, grantee) DO UPDATE SET level = excluded.level
                """, [person, level])
        } else {
            try connection.execute("DELETE FROM trackee.share WHERE owner = current_user AND grantee = $1", [person])
        }
    }

    func person() throws -> String {
        guard let name = try connection.execute("SELECT current_user").first?.first ?? nil else {
            throw HubFailure("the hub did not say who this is")
        }
        return name
    }

    func listen() throws {
        guard let channel = try connection.execute("SELECT trackee.channel()").first?.first ?? nil else {
            throw HubFailure("the hub gave no channel to listen on")
        }
        try connection.execute("LISTEN \"\(channel)\"")
    }

    /// A notification this connection's own push caused comes from its
    /// own server process, and is passed over.
    func waitForPush(milliseconds: Int32, excluding device: String) throws -> Bool {
        let own = connection.backendPID
        return try connection.waitForNotification(milliseconds: milliseconds).contains { $0 != own }
    }

    func pull(after cursor: Int64, person: String?, excluding device: String, limit: Int) throws -> [HubIncomingChange] {
        try connection.execute("""
            SELECT id, device, clock, kind, body::text FROM trackee.change
            WHERE person = coalesce($4, current_user) AND id > $1 AND device <> $2 ORDER BY id LIMIT $3
            """, [String(cursor), device, String(limit), person]).compactMap { row in
            guard let id = row[0].flatMap({ Int64($0) }), let device = row[1], let clock = row[2], let kind = row[3],
                  let body = row[4]
            else { return nil }
            return HubIncomingChange(id: id, device: device, clock: clock, kind: kind, body: body)
        }
    }
}

/// Brings the hub's schema up to date, one transaction for the lot, as
/// the hub's administrator; two runs at once take turns on an advisory
/// lock.
enum HubMigrator {
    /// The advisory lock's key: "trackee" in ASCII, as a number.
    static let lock = "\(0x7472_6163_6b65_65)"
    /// The pushes' lock: "trackeP", as the hub's trigger `change_turn`
    /// has it.
    static let pushLock = "\(0x7472_6163_6b65_50)"

    /// Refuses a hub whose schema is not this trackee's, and a role that
    /// may not use it.
    static func check(_ connection: HubConnection) throws(HubFailure) {
        // The ledger is in schema trackee; a hub an older trackee set up
        // has it in public.
        guard let home = try connection.execute("""
            SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relname = 'trackee_migration' AND n.nspname IN ('trackee', 'public')
            ORDER BY n.nspname = 'trackee' DESC LIMIT 1
            """).first?.first ?? nil
        else {
            throw HubFailure("the hub has no trackee schema yet; its administrator runs trackee hub init")
        }
        if home == "trackee", try connection.execute("SELECT has_schema_privilege('trackee', 'USAGE')").first?[0] != "t" {
            throw HubPersons.notAPerson(try HubPersons.currentRole(connection))
        }
        let applied = Set(try connection.execute("SELECT id FROM \(home).trackee_migration").compactMap { $0.first ?? nil })
        switch HubSchema.pending(after: applied) {
        case .failure(let unknown):
            throw newer(unknown)
        case .success(let pending):
            if let first = pending.first {
                throw HubFailure("the hub's schema lacks migration \(first.id); its administrator runs trackee hub init")
            }
        }
    }

    private static func newer(_ unknown: HubSchema.UnknownMigration) -> HubFailure {
        HubFailure(
            "the hub's schema has migration \(unknown.id), which this trackee does not know: a newer trackee "
                + "set it up; upgrade trackee on this device")
    }

    /// Makes the two roles when the cluster lacks them (roles are the
    /// cluster's, not one database's, so no migration makes them), and
    /// the schema; then applies what is pending, with the schema first
    /// on the search path (and public after it, where an older trackee
    /// made the tables).
    static func migrate(_ connection: HubConnection) throws(HubFailure) -> HubInitReport {
        try connection.transaction { () throws(HubFailure) -> HubInitReport in
            try connection.execute("SELECT pg_advisory_xact_lock(\(lock))")
            try HubPersons.refusePerson(connection, command: "hub init")
            let missing = try connection.execute(
                "SELECT r FROM unnest(ARRAY[$1, $2]) r WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r)",
                [HubPersons.owner, HubPersons.group]).compactMap { $0.first ?? nil }
            if !missing.isEmpty {
                let role = try HubPersons.currentRole(connection)
                guard try connection.execute(
                    "SELECT rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = current_user").first?[0] == "t"
                else {
                    throw HubFailure(
                        "hub init is the administrator's: it makes the roles \(HubPersons.owner) and "
                            + "\(HubPersons.group), and \(role) may not create roles; run it as a role that may "
                            + "(a superuser) with --user ROLE")
                }
                for name in missing { try connection.execute("CREATE ROLE \(name) NOLOGIN") }
            }
            try connection.execute("CREATE SCHEMA IF NOT EXISTS trackee AUTHORIZATION \(HubPersons.owner)")
            try connection.execute("SET LOCAL search_path = trackee, public")
            if try connection.execute("SELECT to_regclass('trackee_migration') IS NULL").first?[0] == "t" {
                try connection.execute(HubSchema.ledger)
            }
            let applied = Set(try connection.execute("SELECT id FROM trackee_migration").compactMap { $0.first ?? nil })
            let pending: [HubSchema.Migration]
            switch HubSchema.pending(after: applied) {
            case .success(let list): pending = list
            case .failure(let unknown):
                throw newer(unknown)
            }
            for migration in pending {
                try connection.execute(migration.sql)
                try connection.execute("INSERT INTO trackee_migration (id) VALUES ($1)", [migration.id])
            }
            return HubInitReport(
                applied: pending.map(\.id), current: HubSchema.migrations.last!.id, owner: HubPersons.owner,
                persons: try HubPersons.all(connection))
        }
    }
}
