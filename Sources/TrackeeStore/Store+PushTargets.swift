import GRDB
import TrackeeCore

/// A service entries are pushed to, as the store knows it: enough for the
/// outbox triggers to decide which entries it covers.
public struct PushTargetRecord: Sendable, Equatable {
    public var name: String
    public var service: String
    /// Entries that start before this are never pushed.
    public var since: Instant

    public init(name: String, service: String, since: Instant) {
        self.name = name
        self.service = service
        self.since = since
    }
}

/// What one target's outbox holds.
public struct OutboxSummary: Sendable, Equatable {
    public var target: String
    public var service: String
    public var queued: Int
    public var failed: Int
    public var conflicts: Int
    /// Entries the service holds (pushed and confirmed).
    public var pushed: Int
    public var lastSuccess: Instant?
    public var lastError: String?
    public var lastErrorAt: Instant?
    /// Nothing goes out before this (backoff, or the hourly quota).
    public var retryAt: Instant?
    /// `retryAt` is a wait for the service's hourly quota.
    public var waitingForQuota = false
}

extension Store {
    /// Journal rows a target hears of: changes to entries that were or
    /// are finished (a running timer is not pushed). A row whose entry
    /// is gone, or runs again (an undone stop), is a delete there. Once
    /// the store has joined a hub, only entries this device made (their
    /// ids end in its number), or every entry on the hub's sync_device
    /// and none on the others, so that each reaches a service once.
    static let syncedChange = """
        j.kind = 'entry' AND (j.after IS NULL OR json_extract(j.after, '$.end') IS NOT NULL
                              OR json_extract(j.before, '$.end') IS NOT NULL)
        AND (NOT EXISTS (SELECT 1 FROM hub_device WHERE number IS NOT NULL)
             OR EXISTS (SELECT 1 FROM hub_device h WHERE h.number IS NOT NULL
                        AND (h.syncs = 'all' OR (h.syncs = 'own' AND j.row_id % \(HubIDs.span) = h.number))))
        """

    /// Makes the store's targets those of the settings: new ones added
    /// (they hear of changes from now on; `backfill` queues older
    /// entries), changed ones updated, removed ones dropped with their
    /// queue. Writes nothing when all that already holds: one read.
    public func registerPushTargets(_ targets: [PushTargetRecord]) throws {
        let wanted = targets.sorted { $0.name < $1.name }
        // Every command with sync targets asks this, so it is kept to what
        // the start-up path already uses and to statements SQLite parses
        // quickly: are the stored targets exactly these?
        let same = try peek { db -> Bool in
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_target") == wanted.count else { return false }
            for t in wanted where try Int.fetchOne(
                db, sql: "SELECT count(*) FROM sync_target WHERE name = ? AND service = ? AND since = ?",
                arguments: [t.name, t.service, t.since.seconds]) != 1 {
                return false
            }
            return true
        }
        guard !same else { return }
        let stored = try read { db in
            try Row.fetchAll(db, sql: "SELECT name, service, since FROM sync_target ORDER BY name").map {
                PushTargetRecord(name: $0[0], service: $0[1], since: Instant(seconds: $0[2]))
            }
        }
        try write { db in
            try collect(db)
            let names = wanted.map(\.name)
            for old in stored where !names.contains(old.name) {
                try db.execute(sql: "DELETE FROM sync_target WHERE name = ?", arguments: [old.name])
            }
            let head = try Int64.fetchOne(db, sql: "SELECT ifnull(max(seq), 0) FROM journal") ?? 0
            for t in wanted {
                try db.execute(sql: """
                    INSERT INTO sync_target (name, service, since, cursor) VALUES (?, ?, ?, ?)
                    ON CONFLICT (name) DO UPDATE SET service = excluded.service, since = excluded.since
                    """, arguments: [t.name, t.service, t.since.seconds, head])
            }
        }
    }

    /// Takes the journal into each target's queue: the newest change to
    /// an entry the target covers (it starts at or after `since`, or the
    /// target holds it) replaces what was queued for it; an entry moved
    /// before `since` that the target never held leaves its queue. The
    /// journal itself stays: undo and replication read it too.
    func collect(_ db: Database) throws {
        guard let newest = try Int64.fetchOne(db, sql: """
            SELECT max(seq) FROM journal WHERE seq > (SELECT min(cursor) FROM sync_target)
            """) else { return }
        try db.execute(sql: """
            WITH change AS (
                SELECT j.seq, j.row_id AS entry_id,
                       CASE WHEN json_extract(j.after, '$.end') IS NOT NULL THEN 'put' ELSE 'delete' END AS op
                FROM journal j
                WHERE j.seq > (SELECT min(cursor) FROM sync_target) AND \(Self.syncedChange))
            INSERT INTO outbox (target, entry_id, op, seq)
            SELECT t.name, j.entry_id, j.op, j.seq
            FROM change j JOIN sync_target t ON j.seq > t.cursor
            LEFT JOIN entry e ON e.id = j.entry_id
            WHERE j.seq = (SELECT max(seq) FROM change k WHERE k.entry_id = j.entry_id AND k.seq > t.cursor)
              AND (ifnull(e.start, 0) >= t.since OR j.op = 'delete'
                   OR EXISTS (SELECT 1 FROM remote_entry r WHERE r.target = t.name AND r.entry_id = j.entry_id))
              AND (j.op = 'put' OR e.id IS NULL OR e."end" IS NULL)
            ORDER BY j.seq
            ON CONFLICT (target, entry_id) DO UPDATE SET
                op = excluded.op, seq = excluded.seq, state = 'queued', attempts = 0, next_try = NULL, message = NULL
            """)
        // A put of an entry now before `since`, which the target never held.
        try db.execute(sql: """
            DELETE FROM outbox WHERE op = 'put'
              AND EXISTS (SELECT 1 FROM entry e JOIN sync_target t ON t.name = outbox.target
                          WHERE e.id = outbox.entry_id AND e.start < t.since)
              AND NOT EXISTS (SELECT 1 FROM remote_entry r WHERE r.target = outbox.target AND r.entry_id = outbox.entry_id)
            """)
        // A delete of an entry the target never heard of (no create was
        // ever sent): nothing to tell it.
        try db.execute(sql: """
            DELETE FROM outbox WHERE op = 'delete'
              AND NOT EXISTS (SELECT 1 FROM remote_entry r WHERE r.target = outbox.target AND r.entry_id = outbox.entry_id)
            """)
        try db.execute(sql: "UPDATE sync_target SET cursor = ? WHERE cursor < ?", arguments: [newest, newest])
    }

    /// Each target's queue, in name order (the journal taken in first).
    public func outboxSummaries() throws -> [OutboxSummary] {
        try write { db in
            try collect(db)
            return try Row.fetchAll(db, sql: """
                SELECT t.name, t.service,
                       (SELECT count(*) FROM outbox o WHERE o.target = t.name AND o.state = 'queued'),
                       (SELECT count(*) FROM outbox o WHERE o.target = t.name AND o.state = 'failed'),
                       (SELECT count(*) FROM outbox o WHERE o.target = t.name AND o.state = 'conflict'),
                       (SELECT count(*) FROM remote_entry r WHERE r.target = t.name AND r.remote_id IS NOT NULL),
                       t.last_success, t.last_error, t.last_error_at, t.retry_at, ifnull(t.waiting_for = 'quota', 0)
                FROM sync_target t ORDER BY t.name
                """).map { row in
                OutboxSummary(
                    target: row[0], service: row[1], queued: row[2], failed: row[3], conflicts: row[4], pushed: row[5],
                    lastSuccess: (row[6] as Int64?).map { Instant(seconds: $0) }, lastError: row[7],
                    lastErrorAt: (row[8] as Int64?).map { Instant(seconds: $0) },
                    retryAt: (row[9] as Int64?).map { Instant(seconds: $0) }, waitingForQuota: row[10])
            }
        }
    }

    /// Queues the finished entries that start in [from, to) and that
    /// `target` neither holds nor has queued: the first push of a store
    /// that existed before the target. Returns how many were queued.
    public func backfill(target: String, from: Instant, to: Instant) throws -> Int {
        try write { db in
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_target WHERE name = ?", arguments: [target]) == 1 else {
                throw StoreError.unknownPushTarget(target)
            }
            try collect(db)
            // Queued after everything the journal holds, in start order.
            let base = try Int64.fetchOne(db, sql: """
                SELECT max(ifnull((SELECT max(seq) FROM outbox), 0), ifnull((SELECT seq FROM sqlite_sequence WHERE name = 'journal'), 0))
                """) ?? 0
            try db.execute(sql: """
                INSERT INTO outbox (target, entry_id, op, seq)
                SELECT ?, e.id, 'put', ? + row_number() OVER (ORDER BY e.start, e.id)
                FROM entry e
                WHERE e."end" IS NOT NULL AND e.start >= ? AND e.start < ?
                  AND NOT EXISTS (SELECT 1 FROM remote_entry r WHERE r.target = ? AND r.entry_id = e.id AND r.remote_id IS NOT NULL)
                  AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.target = ? AND o.entry_id = e.id)
                ORDER BY e.start, e.id
                """, arguments: [target, base, from.seconds, to.seconds, target, target])
            return db.changesCount
        }
    }
}
