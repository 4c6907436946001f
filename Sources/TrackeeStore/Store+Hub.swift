import GRDB
import TrackeeCore
import TrackeeHub

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
    public var lastSync: Instant?
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
    /// Changes that could not be read, one sentence each.
    public var warnings: [String] = []
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
                lastSync: (row[6] as Int64?).map(Instant.init(seconds:)), lastError: row[7],
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
                SELECT -k.seq, k.stamp, json_object('key', k.key, 'kind', k.kind, 'row', json(k.body), 'made', json(k.made))
                FROM hub_key k, hub_device h
                WHERE k.seq > h.keys_pushed AND k.device IS NULL AND k.stamp IS NOT NULL
                ORDER BY k.seq LIMIT ?
                """, arguments: [limit]).map {
                HubOutgoingChange(sequence: $0[0], clock: $0[1], kind: "key", body: $0[2])
            }
            changes += try Row.fetchAll(db, sql: """
                SELECT j.seq, j.stamp, j.kind, json_object('id', j.row_id, 'fields', json(\(Self.fields)))
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
    public func hubSyncs(_ role: String) throws {
        try write { db in
            try db.execute(sql: "UPDATE hub_device SET syncs = ? WHERE syncs <> ?", arguments: [role, role])
        }
    }

    /// Notes the end of a sync: its error (nil when it went through).
    public func hubSynced(error: String?, now: Instant) throws {
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

    /// Gives each change made here since the last stamping its stamp, and
    /// makes it the newest value of the fields it set.
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
            try setFields(db, kind: row[2], id: row[3], fields: row[4], stamp: stamp)
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
            try db.execute(sql: "UPDATE hub_key SET stamp = ? WHERE seq = ?", arguments: [stamp, key[0] as Int64])
        }
        guard rows.count + keys.count > 0 else { return }
        try db.execute(
            sql: "UPDATE hub_device SET clock = ?, stamped = max(stamped, ?)",
            arguments: [clock.last.description, rows.last?[0] as Int64? ?? 0])
    }

    /// Each field's last write (kind, row_id, field, stamp, value): its
    /// `hub_field` row, or else the `hub_row` that made the row whole. A
    /// subquery, not a view: every command parses the store's schema when
    /// it opens it, and this view cost `status` 0.17 M instructions.
    static let hubValues = """
        (SELECT kind, row_id, field, stamp, value FROM hub_field
         UNION ALL
         SELECT r.kind, r.row_id, j.key, r.stamp, j.value FROM hub_row r, json_each(r.body, '$.fields') j
         WHERE NOT EXISTS (SELECT 1 FROM hub_field f WHERE f.kind = r.kind AND f.row_id = r.row_id AND f.field = j.key))
        """

    /// Records `fields` (a JSON object) as written at `stamp`, each where
    /// it is newer than the field's last write (in `hub_field`, or else
    /// the `hub_row` that made the row); true when any was.
    @discardableResult
    static func setFields(_ db: Database, kind: String, id: Int64, fields: String, stamp: String) throws -> Bool {
        try db.cachedStatement(sql: """
            INSERT INTO hub_field (kind, row_id, field, stamp, value)
            SELECT ?1, ?2, j.key, ?3, j.value FROM json_each(?4) j
            WHERE ?3 > coalesce(
                (SELECT f.stamp FROM hub_field f WHERE f.kind = ?1 AND f.row_id = ?2 AND f.field = j.key),
                (SELECT r.stamp FROM hub_row r
                 WHERE r.kind = ?1 AND r.row_id = ?2 AND json_type(r.body, '$.fields.' || j.key) IS NOT NULL),
                '')
            ON CONFLICT (kind, row_id, field) DO UPDATE SET stamp = excluded.stamp, value = excluded.value
            WHERE excluded.stamp > hub_field.stamp
            """).execute(arguments: [kind, id, stamp, fields])
        return db.changesCount > 0
    }

    /// Takes in changes pulled from the hub, in the hub's order, in one
    /// transaction that also moves the pull cursor past them (see
    /// ``HubMerge`` for the rules). Changes made here are stamped first,
    /// so that each is weighed with the stamp it will carry.
    public func hubApply(_ changes: [HubIncomingChange], through cursor: Int64, now: Instant, physical: Int64)
        throws -> HubApplyReport
    {
        try write { db in
            try Self.stampPending(db)
            guard let device = try Row.fetchOne(db, sql: "SELECT name, clock FROM hub_device WHERE number IS NOT NULL")
            else { throw StoreError.hubNotJoined }
            var merge = HubMerge(db: db, clock: Self.clock(device), physical: physical, now: now)
            try merge.applyAll(changes)
            try db.execute(sql: """
                UPDATE hub_device SET pulled = max(pulled, ?), clock = ?
                """, arguments: [cursor, merge.clock.last.description])
            // Every row is stamped now, or was pulled: the next stamping
            // starts after them. And when nothing made here waits to be
            // pushed, the next push looks from here on, not through what
            // was pulled since the last.
            try db.execute(sql: """
                UPDATE hub_device SET stamped = max(stamped, ifnull((SELECT max(seq) FROM journal), 0));
                UPDATE hub_device SET pushed = ifnull((SELECT max(seq) FROM journal), 0)
                WHERE NOT EXISTS (SELECT 1 FROM journal j WHERE j.seq > hub_device.pushed AND j.device IS NULL
                                  AND j.step <> 0 AND j.seq >= hub_device.first_seq);
                """)
            return merge.report
        }
    }

    /// The device's clock, from a `hub_device` row whose first columns
    /// are its name and last stamp.
    private static func clock(_ device: Row) -> HybridClock {
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

/// A change the merge made that discarded someone's work.
public struct HubConflict: Sendable, Equatable {
    public var id: Int64
    /// `client`, `project` or `entry`.
    public var kind: String
    public var rowID: Int64
    /// `edited-deleted`, `deleted-in-use` or `applied-twice`.
    public var what: String
    /// The device whose change won.
    public var device: String
    public var noticed: Instant
    /// The row's newest values: a client's or project's name; an
    /// entry's project, start and description.
    public var name: String?
    public var project: String?
    public var start: Instant?
    public var description: String?
}

extension Store {
    /// The conflicts not yet resolved, oldest first.
    public func hubConflicts() throws -> [HubConflict] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT c.id, c.kind, c.row_id, c.what, c.device, c.noticed,
                       (SELECT value FROM \(Store.hubValues) WHERE kind = c.kind AND row_id = c.row_id AND field = 'name'),
                       (SELECT p.name FROM \(Store.hubValues) f JOIN project p ON p.id = f.value
                        WHERE f.kind = 'entry' AND f.row_id = c.row_id AND f.field = 'project_id'),
                       (SELECT value FROM \(Store.hubValues) WHERE kind = 'entry' AND row_id = c.row_id AND field = 'start'),
                       (SELECT value FROM \(Store.hubValues) WHERE kind = 'entry' AND row_id = c.row_id AND field = 'description')
                FROM hub_conflict c WHERE c.resolved IS NULL ORDER BY c.id
                """).map {
                HubConflict(
                    id: $0[0], kind: $0[1], rowID: $0[2], what: $0[3], device: $0[4], noticed: Instant(seconds: $0[5]),
                    name: $0[6], project: $0[7], start: ($0[8] as Int64?).map(Instant.init(seconds:)), description: $0[9])
            }
        }
    }

    /// Resolves a conflict: `keep` brings the row back with its newest
    /// values (an entry another device deleted after an edit here, a
    /// project deleted while entries used it), as a change made here that
    /// the next sync pushes; otherwise the merge's result stands. Either
    /// way the conflict is closed.
    public func hubResolve(_ id: Int64, keep: Bool, now: Instant) throws -> HubConflict {
        guard let conflict = try hubConflicts().first(where: { $0.id == id }) else {
            throw StoreError.unknownConflict(id)
        }
        try write { db in
            if keep, conflict.what != "applied-twice", let table = JournalTable(rawValue: conflict.kind) {
                try HubMerge.restore(db, table, conflict.rowID, now: now)
            }
            try db.execute(sql: "UPDATE hub_conflict SET resolved = ?, resolution = ? WHERE id = ?",
                           arguments: [now.seconds, keep ? "kept" : "dropped", id])
        }
        return conflict
    }
}
