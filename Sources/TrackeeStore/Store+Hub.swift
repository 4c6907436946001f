import GRDB
import TrackeeCore

/// Ids of rows made here once the store has joined a hub: the table's next
/// counter times 1000 plus the device's number, so that a row has the same
/// id on every device and two devices never make the same one.
enum HubIDs {
    /// How many devices a hub numbers; an id's last three digits.
    static let span: Int64 = 1000

    /// The device's number; nil before the store has joined a hub.
    static func number(_ db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT number FROM hub_device WHERE number IS NOT NULL"))
    }

    /// The id for a new row of `table`; nil before the store has joined a
    /// hub, for SQLite to choose as it always has.
    static func next(_ db: Database, _ table: JournalTable) throws -> Int64? {
        guard let number = try number(db) else { return nil }
        let counter = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT next FROM hub_next_id WHERE kind = ?"), arguments: [table.rawValue]) ?? 1
        try db.cachedStatement(sql: """
            INSERT INTO hub_next_id (kind, next) VALUES (?, ?) ON CONFLICT (kind) DO UPDATE SET next = excluded.next
            """).execute(arguments: [table.rawValue, counter + 1])
        return counter * span + number
    }
}

/// The store's place on the hub, for `hub status`.
public struct HubDeviceState: Sendable, Equatable {
    public var name: String
    /// Random, made once: which store the hub's device row belongs to.
    public var store: String
    /// The hub's number for this device; nil until it has joined.
    public var number: Int64?
    public var joined: Instant?
    /// The hybrid logical clock's last stamp.
    public var clock: String?
    /// The last hub change taken in.
    public var pulled: Int64
    /// Changes made here and not yet pushed.
    public var queued: Int
    /// Changes the merge left for `hub resolve`.
    public var conflicts: Int
    public var lastReplication: Instant?
    public var lastError: String?
    public var lastErrorAt: Instant?
}

/// What one pull did to the store.
public struct HubApplyReport: Sendable, Equatable {
    /// Changes that set at least one field here.
    public var applied = 0
    /// Changes an older stamp than a field's made no difference.
    public var superseded = 0
    /// Changes left for `hub resolve`.
    public var conflicts = 0
    /// Timers stopped because another device's ran after them.
    public var timersStopped = 0
}

extension Store {
    /// The store's place on the hub; nil before it has asked to join one.
    public func hubDevice() throws -> HubDeviceState? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT name, store, number, joined, clock, pulled, last_sync, last_error, last_error_at FROM hub_device
                """) else { return nil }
            let queued = try Int.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM journal j, hub_device h
                        WHERE h.number IS NOT NULL AND j.seq > h.pushed AND j.seq >= h.first_seq AND j.device IS NULL
                          AND j.step <> 0)
                     + (SELECT count(*) FROM hub_key k, hub_device h WHERE k.seq > h.keys_pushed AND k.device IS NULL)
                """) ?? 0
            return HubDeviceState(
                name: row[0], store: row[1], number: row[2], joined: (row[3] as Int64?).map(Instant.init(seconds:)),
                clock: row[4], pulled: row[5], queued: queued,
                conflicts: try Int.fetchOne(db, sql: "SELECT count(*) FROM hub_conflict WHERE resolved IS NULL") ?? 0,
                lastReplication: (row[6] as Int64?).map(Instant.init(seconds:)), lastError: row[7],
                lastErrorAt: (row[8] as Int64?).map(Instant.init(seconds:)))
        }
    }

    /// The device row this store joins the hub with: made once, with a
    /// random store token, for `name`. A store that joined under another
    /// name is refused: its rows' ids carry the other device's number.
    public func hubIdentity(name: String) throws -> HubDeviceState {
        try write { db in
            if let existing = try String.fetchOne(db, sql: "SELECT name FROM hub_device") {
                guard existing == name else { throw StoreError.hubDeviceRenamed(joined: existing, settings: name) }
            } else {
                var random = SystemRandomNumberGenerator()
                let token = (0..<4).map { _ in String(random.next() as UInt32, radix: 16) }.joined(separator: "-")
                try db.execute(sql: "INSERT INTO hub_device (name, store) VALUES (?, ?)", arguments: [name, token])
            }
        }
        return try hubDevice()!
    }

    /// Joins the hub as device `number`, once: renumbers every client,
    /// project and entry to `id * 1000 + number` (with every reference to
    /// them, the journal's images included), and journals each row as it
    /// now is, for the first push. Does nothing when already joined.
    public func hubJoin(number: Int64, now: Instant) throws {
        precondition((1..<HubIDs.span).contains(number))
        try write { db in
            guard try Int64.fetchOne(db, sql: "SELECT number FROM hub_device") == nil else { return }
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            let n = number, span = HubIDs.span
            func renumbered(_ column: String) -> String { "\(column) * \(span) + \(n)" }
            // Through negative ids: a new id never meets an old one.
            for table in ["client", "project", "entry"] {
                try db.execute(sql: "UPDATE \(table) SET id = -(\(renumbered("id")))")
                try db.execute(sql: "UPDATE \(table) SET id = -id")
            }
            try db.execute(sql: """
                UPDATE project SET client_id = \(renumbered("client_id")) WHERE client_id IS NOT NULL;
                UPDATE entry SET project_id = \(renumbered("project_id")) WHERE project_id IS NOT NULL;
                UPDATE intent_log SET entry_id = \(renumbered("entry_id")) WHERE entry_id IS NOT NULL;
                UPDATE intent_log SET previous_entry_id = \(renumbered("previous_entry_id"))
                    WHERE previous_entry_id IS NOT NULL;
                UPDATE add_key SET entry_id = \(renumbered("entry_id"));
                UPDATE outbox SET entry_id = -(\(renumbered("entry_id")));
                UPDATE outbox SET entry_id = -entry_id;
                UPDATE remote_entry SET entry_id = -(\(renumbered("entry_id")));
                UPDATE remote_entry SET entry_id = -entry_id;
                """)
            func image(_ column: String) -> String {
                var expression = column
                for key in ["id", "client_id", "project_id"] {
                    expression = """
                        CASE WHEN json_type(\(column), '$.\(key)') = 'integer'
                        THEN json_set(\(expression), '$.\(key)', json_extract(\(column), '$.\(key)') * \(span) + \(n))
                        ELSE \(expression) END
                        """
                }
                return expression
            }
            try db.execute(sql: """
                UPDATE journal SET row_id = \(renumbered("row_id")), before = \(image("before")), after = \(image("after"))
                """)
            for table in ["client", "project", "entry"] {
                try db.execute(sql: """
                    INSERT INTO hub_next_id (kind, next) VALUES (?, ifnull((SELECT max(id) / \(span) FROM \(table)), 0) + 1)
                    ON CONFLICT (kind) DO UPDATE SET next = excluded.next
                    """, arguments: [table])
            }
            let head = try Int64.fetchOne(db, sql: "SELECT ifnull(max(seq), 0) FROM journal") ?? 0
            try db.execute(sql: """
                UPDATE hub_device SET number = ?, joined = ?, first_seq = ?, stamped = ?, pushed = ?
                """, arguments: [n, now.seconds, head + 1, head, head])
            var step = JournalStep("join the hub", at: now)
            step.automatic = true
            for client in try ClientRecord.fetchAll(db, sql: "SELECT * FROM client ORDER BY id") {
                try step.record(db, .client, id: client.id!, before: nil, after: client.image)
            }
            for project in try ProjectRecord.fetchAll(db, sql: "SELECT * FROM project ORDER BY id") {
                try step.record(db, .project, id: project.id!, before: nil, after: project.image)
            }
            for entry in try EntryRecord.fetchAll(db, sql: "SELECT * FROM entry ORDER BY id") {
                try step.record(db, .entry, id: entry.id!, before: nil, after: entry.image)
            }
        }
    }

    /// Stamps the changes made here since the last call with the device's
    /// hybrid logical clock (in the order they were made, from the time
    /// each was made), and returns up to `limit` of them not yet pushed.
    public func hubOutgoing(limit: Int) throws -> [HubOutgoingChange] {
        try write { db in try Self.stampPending(db) }
        return try read { db in
            // Keys go before the rows their application made, so that a
            // device where the key was applied earlier voids those rows
            // before they arrive. Their sequence numbers are negative,
            // apart from the journal's.
            var changes = try Row.fetchAll(db, sql: """
                SELECT -k.seq, k.stamp, json_object('key', k.key, 'kind', k.kind, 'row', json(k.body), 'made', json(k.made),
                                                    'writes', json(k.writes))
                FROM hub_key k, hub_device h
                WHERE k.seq > h.keys_pushed AND k.device IS NULL AND k.stamp IS NOT NULL
                ORDER BY k.seq LIMIT ?
                """, arguments: [limit]).map {
                HubOutgoingChange(sequence: $0[0], clock: $0[1], kind: "key", body: $0[2])
            }
            // Each field's base: the stamp of the write it replaced here.
            changes += try Row.fetchAll(db, sql: """
                SELECT j.seq, j.stamp, j.kind,
                       json_object('id', j.row_id, 'fields', json(\(Self.fields)),
                                   'base', (SELECT json_group_object(w.field, w.base) FROM hub_write w
                                            WHERE w.kind = j.kind AND w.row_id = j.row_id AND w.stamp = j.stamp
                                              AND w.base IS NOT NULL))
                FROM journal j, hub_device h
                WHERE j.seq > h.pushed AND j.device IS NULL AND j.stamp IS NOT NULL
                ORDER BY j.seq LIMIT ?
                """, arguments: [limit - changes.count]).map {
                HubOutgoingChange(sequence: $0[0], clock: $0[1], kind: $0[2], body: $0[3])
            }
            return changes
        }
    }

    /// Notes that the hub holds `changes` (and every change made here
    /// before them).
    public func hubPushed(_ changes: [HubOutgoingChange]) throws {
        let journal = changes.map(\.sequence).filter { $0 > 0 }.max() ?? 0
        let keys = changes.map { -$0.sequence }.filter { $0 > 0 }.max() ?? 0
        try write { db in
            try db.execute(
                sql: "UPDATE hub_device SET pushed = max(pushed, ?), keys_pushed = max(keys_pushed, ?)",
                arguments: [journal, keys])
        }
    }

    /// A number that changes whenever the journal or the keys grow: what
    /// the daemon looks at, five times a second, to push soon after each
    /// change made here. Two lookups of a largest key, whatever the
    /// journal's length.
    public func hubLocalHead() throws -> Int64 {
        try peek { db in
            try Int64.fetchOne(db.cachedStatement(sql: """
                SELECT ifnull((SELECT max(seq) FROM journal), 0) + ifnull((SELECT max(seq) FROM hub_key), 0)
                """)) ?? 0
        }
    }

    /// Which entries this device pushes to its sync targets: `own`, `all`
    /// (it is the hub's sync_device) or `none` (another device is).
    public func hubReplicates(_ role: String) throws {
        try write { db in
            try db.execute(sql: "UPDATE hub_device SET syncs = ? WHERE syncs <> ?", arguments: [role, role])
        }
    }

    /// Notes the end of a sync: its error (nil when it went through).
    public func hubReplicated(error: String?, now: Instant) throws {
        try write { db in
            if let error {
                try db.execute(
                    sql: "UPDATE hub_device SET last_error = ?, last_error_at = ?", arguments: [error, now.seconds])
            } else {
                try db.execute(
                    sql: "UPDATE hub_device SET last_sync = ?, last_error = NULL, last_error_at = NULL",
                    arguments: [now.seconds])
            }
        }
    }

    /// The fields a journal row `j` set, as a JSON object: every column
    /// but the id for a new row, the changed ones for an edit, and
    /// `_exists` (1 for a new row, 0 for a deleted one).
    static let fields = """
        CASE WHEN j.after IS NULL THEN json_object('_exists', 0)
             WHEN j.before IS NULL THEN json_set(json_remove(j.after, '$.id'), '$._exists', 1)
             ELSE (SELECT json_group_object(a.key, a.value)
                   FROM json_each(j.after) a
                   WHERE a.key <> 'id' AND json_extract(j.before, '$."' || a.key || '"') IS NOT a.value) END
        """

    /// Gives each change made here since the last stamping its stamp,
    /// keeps it as a write of the fields it set (each with the stamp of
    /// the write it replaced: its base), and gives each key applied here
    /// its stamp and the stamps of the writes its application made to
    /// entries.
    static func stampPending(_ db: Database) throws {
        guard let device = try Row.fetchOne(db, sql: """
            SELECT name, clock, stamped, first_seq FROM hub_device WHERE number IS NOT NULL
            """) else { return }
        var clock = Self.clock(device)
        let rows = try Row.fetchAll(db, sql: """
            SELECT j.seq, j.at, j.kind, j.row_id, \(fields) FROM journal j
            WHERE j.seq > ? AND j.seq >= ? AND j.device IS NULL AND j.stamp IS NULL AND j.step <> 0 ORDER BY j.seq
            """, arguments: [device[2] as Int64, device[3] as Int64])
        for row in rows {
            let at: Int64 = row[1]
            let stamp = try Self.stamp(&clock, physical: at * 1000).description
            try db.cachedStatement(sql: "UPDATE journal SET stamp = ? WHERE seq = ?").execute(arguments: [stamp, row[0]])
            try db.cachedStatement(sql: """
                INSERT INTO hub_write (kind, row_id, field, stamp, value, base)
                SELECT ?1, ?2, j.key, ?3, j.value,
                       (SELECT max(s) FROM (
                            SELECT w.stamp AS s FROM hub_write w WHERE w.kind = ?1 AND w.row_id = ?2 AND w.field = j.key
                            UNION ALL
                            SELECT r.stamp FROM hub_row r
                            WHERE r.kind = ?1 AND r.row_id = ?2 AND json_type(r.body, '$.fields.' || j.key) IS NOT NULL)
                        WHERE s NOT IN (SELECT stamp FROM hub_voided))
                FROM json_each(?4) j
                """).execute(arguments: [row[2] as String, row[3] as Int64, stamp, row[4] as String])
        }
        // Keys after the steps they made, from the time they were applied.
        let keys = try Row.fetchAll(db, sql: """
            SELECT k.seq, coalesce(json_extract(k.body, '$.applied'), json_extract(k.body, '$.fired'),
                                   json_extract(k.body, '$.added'), 0)
            FROM hub_key k WHERE k.device IS NULL AND k.stamp IS NULL ORDER BY k.seq
            """)
        for key in keys {
            let at: Int64 = key[1]
            let stamp = try Self.stamp(&clock, physical: at * 1000).description
            try db.execute(sql: """
                UPDATE hub_key SET stamp = ?,
                    writes = (SELECT json_group_array(json_array(j.stamp, j.kind, j.row_id))
                              FROM json_each(hub_key.steps) s JOIN journal j ON j.seq >= s.value AND j.step = s.value
                              WHERE j.device IS NULL AND j.stamp IS NOT NULL AND j.kind = 'entry')
                WHERE seq = ?
                """, arguments: [stamp, key[0] as Int64])
        }
        guard rows.count + keys.count > 0 else { return }
        try db.execute(
            sql: "UPDATE hub_device SET clock = ?, stamped = max(stamped, ?)",
            arguments: [clock.last.description, rows.last?[0] as Int64? ?? 0])
    }

    /// The device's clock, from a `hub_device` row whose first columns
    /// are its name and last stamp.
    static func clock(_ device: Row) -> HybridClock {
        HybridClock(device: device[0], last: (device[1] as String?).flatMap(HybridStamp.init))
    }

    /// The clock's next stamp; a millisecond with every counter used
    /// borrows the next one.
    static func stamp(_ clock: inout HybridClock, physical: Int64) throws -> HybridStamp {
        do {
            return try clock.stamp(physical: physical)
        } catch {
            return try clock.stamp(physical: clock.last.wall + 1)
        }
    }
}
