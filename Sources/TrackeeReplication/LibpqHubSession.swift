import TrackeeCore
import TrackeeStore

/// Pushes and pulls over one libpq connection.
final class LibpqHubSession: HubSession {
    private let connection: HubConnection

    init(_ connection: HubConnection) {
        self.connection = connection
    }

    func register(device: String, store: String) throws -> Int64 {
        // Asked first: an insert that meets the name would still take a
        // number from the sequence.
        if try connection.execute("SELECT 1 FROM device WHERE name = $1", [device]).isEmpty {
            try connection.execute(
                "INSERT INTO device (name, store) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", [device, store])
        }
        guard let row = try connection.execute("SELECT number, store FROM device WHERE name = $1", [device]).first,
              let number = row[0].flatMap({ Int64($0) })
        else { throw HubFailure("the hub did not register device \(device)") }
        guard row[1] == store else {
            throw HubFailure(
                "the hub has a device named \(device) already, from another store; give this device another name "
                    + "(hub.device in the settings)")
        }
        return number
    }

    func now() throws -> Int64 {
        let rows = try connection.execute("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint")
        guard let text = rows.first?.first ?? nil, let value = Int64(text) else {
            throw HubFailure("the hub did not tell its time")
        }
        return value
    }

    /// One transaction under an advisory lock: pushes take turns, so the
    /// change ids the hub hands out become visible in their order, and a
    /// pull's cursor never passes one still being written.
    func push(device: String, person: String?, _ changes: [HubOutgoingChange]) throws {
        guard !changes.isEmpty else { return }
        var json = "["
        for (index, change) in changes.enumerated() {
            if index > 0 { json += "," }
            json += #"{"s":\#(change.sequence),"c":"\#(change.clock)","k":"\#(change.kind)","b":\#(change.body)}"#
        }
        json += "]"
        try connection.transaction { () throws(HubFailure) in
            try connection.execute("SELECT pg_advisory_xact_lock(\(HubMigrator.pushLock))")
            try connection.execute("""
                INSERT INTO change (person, device, sequence, clock, kind, body)
                SELECT coalesce($3, current_user), $1, (c->>'s')::bigint, c->>'c', c->>'k', c->'b'
                FROM jsonb_array_elements($2::jsonb) c
                ON CONFLICT (device, sequence) DO NOTHING
                """, [device, json, person])
            try connection.execute("SELECT pg_notify('trackee_change', $1)", [device])
        }
    }

    func sharedWithMe() throws -> [String: String] {
        var shared: [String: String] = [:]
        for row in try connection.execute("SELECT owner, level FROM share WHERE grantee = current_user") {
            if let owner = row[0], let level = row[1] { shared[owner] = level }
        }
        return shared
    }

    func share(with person: String, level: String?) throws {
        if let level {
            guard try connection.execute("SELECT 1 FROM pg_roles WHERE rolname = $1", [person]).count == 1 else {
                throw HubFailure("the hub has no role named \(person); its administrator makes one for each person")
            }
            try connection.execute("""
                INSERT INTO share (grantee, level) VALUES ($1, $2)
                ON CONFLICT (owner, grantee) DO UPDATE SET level = excluded.level
                """, [person, level])
        } else {
            try connection.execute("DELETE FROM share WHERE owner = current_user AND grantee = $1", [person])
        }
    }

    func person() throws -> String {
        guard let name = try connection.execute("SELECT current_user").first?.first ?? nil else {
            throw HubFailure("the hub did not say who this is")
        }
        return name
    }

    func listen() throws {
        try connection.execute("LISTEN trackee_change")
    }

    func waitForPush(milliseconds: Int32, excluding device: String) throws -> Bool {
        try connection.waitForNotification(milliseconds: milliseconds).contains { $0 != device }
    }

    func pull(after cursor: Int64, person: String?, excluding device: String, limit: Int) throws -> [HubIncomingChange] {
        try connection.execute("""
            SELECT id, device, clock, kind, body::text FROM change
            WHERE person = coalesce($4, current_user) AND id > $1 AND device <> $2 ORDER BY id LIMIT $3
            """, [String(cursor), device, String(limit), person]).compactMap { row in
            guard let id = row[0].flatMap({ Int64($0) }), let device = row[1], let clock = row[2], let kind = row[3],
                  let body = row[4]
            else { return nil }
            return HubIncomingChange(id: id, device: device, clock: clock, kind: kind, body: body)
        }
    }
}

/// Brings the hub's schema up to date, one transaction for the lot; two
/// devices running `hub init` at once take turns on an advisory lock.
enum HubMigrator {
    /// The advisory lock's key: "trackee" in ASCII, as a number.
    static let lock = "\(0x7472_6163_6b65_65)"
    /// The pushes' lock: "trackeP".
    static let pushLock = "\(0x7472_6163_6b65_50)"

    /// Refuses a hub whose schema is not this trackee's.
    static func check(_ connection: HubConnection) throws(HubFailure) {
        guard try connection.execute("SELECT to_regclass('trackee_migration') IS NOT NULL").first?[0] == "t" else {
            throw HubFailure("the hub has no trackee schema yet; run trackee hub init")
        }
        let applied = Set(try connection.execute("SELECT id FROM trackee_migration").compactMap { $0.first ?? nil })
        switch HubSchema.pending(after: applied) {
        case .failure(let unknown):
            throw newer(unknown)
        case .success(let pending):
            if let first = pending.first {
                throw HubFailure("the hub's schema lacks migration \(first.id); run trackee hub init")
            }
        }
    }

    private static func newer(_ unknown: HubSchema.UnknownMigration) -> HubFailure {
        HubFailure(
            "the hub's schema has migration \(unknown.id), which this trackee does not know: a newer trackee "
                + "set it up; upgrade trackee on this device")
    }

    static func migrate(_ connection: HubConnection) throws(HubFailure) -> HubInitReport {
        try connection.transaction { () throws(HubFailure) -> HubInitReport in
            try connection.execute("SELECT pg_advisory_xact_lock(\(lock))")
            try connection.execute(HubSchema.ledger)
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
            return HubInitReport(applied: pending.map(\.id), current: HubSchema.migrations.last!.id)
        }
    }
}
