import GRDB
import TrackeeCore

/// One queued change for a target, with what pushing it needs: the entry
/// as it is now (nil once deleted) and what the target holds of it.
public struct OutboxItem: Sendable, Equatable {
    public enum Operation: String, Sendable { case put, delete }

    public var target: String
    public var entryID: Int64
    public var operation: Operation
    /// The change it stands for; a later change replaces the item, and a
    /// result recorded for an older `seq` leaves the newer change queued.
    public var seq: Int64
    public var attempts: Int
    public var entry: Entry?
    /// The entry's id at the service, once it confirmed a create.
    public var remoteID: String?
    /// A create was sent and its answer never recorded: it may be there.
    public var createSent: Bool
    /// What was last sent (start, end, description), if anything was.
    public var sent: SentEntry?

    /// What a push would do with it, as `sync --dry-run` says: `delete`,
    /// `update` (the service holds it), `adopt or create` (a create was
    /// sent and its answer lost, so it may be there) or `create`.
    public var plannedAction: String {
        switch operation {
        case .delete: "delete"
        case .put where remoteID != nil: "update"
        case .put where createSent: "adopt or create"
        case .put: "create"
        }
    }
}

/// The start, end and description last sent for an entry.
public struct SentEntry: Sendable, Equatable {
    public var start: Instant
    public var end: Instant
    public var description: String

    public init(start: Instant, end: Instant, description: String) {
        self.start = start
        self.end = end
        self.description = description
    }
}

/// How `trackee sync resolve` settles a conflict.
public enum ConflictChoice: String, Sendable, CaseIterable {
    /// Push the local entry again (created anew if the service deleted it).
    case local
    /// Take the service's side: an entry it deleted is deleted here too,
    /// one it changed is left as it is there and forgotten here.
    case remote
}

extension Store {
    /// The queued changes of `target` due at `now`, oldest change first
    /// (the journal taken in first).
    public func duePushes(target: String, now: Instant, limit: Int) throws -> [OutboxItem] {
        try write { db in
            try collect(db)
            return try Row.fetchAll(db, sql: """
                SELECT o.entry_id, o.op, o.seq, o.attempts, r.remote_id, ifnull(r.create_sent, 0),
                       r.sent_start, r.sent_end, r.sent_description
                FROM outbox o LEFT JOIN remote_entry r ON r.target = o.target AND r.entry_id = o.entry_id
                WHERE o.target = ? AND o.state = 'queued' AND ifnull(o.next_try, 0) <= ?
                ORDER BY o.seq LIMIT ?
                """, arguments: [target, now.seconds, limit]).map { row in
                let id: Int64 = row[0]
                let sentStart: Int64? = row[6]
                let sentEnd: Int64? = row[7]
                return OutboxItem(
                    target: target, entryID: id, operation: OutboxItem.Operation(rawValue: row[1]) ?? .put, seq: row[2],
                    attempts: row[3],
                    entry: try Row.fetchOne(db, sql: Store.entrySelect + " WHERE e.id = ?", arguments: [id]).map(Store.entry(from:)),
                    remoteID: row[4], createSent: (row[5] as Int) != 0,
                    sent: sentStart.flatMap { s in
                        sentEnd.map { SentEntry(start: Instant(seconds: s), end: Instant(seconds: $0), description: row[8] ?? "") }
                    })
            }
        }
    }

    /// The number of queued changes of `target`, due now or later, and
    /// the earliest time one is due (nil: none queued).
    public func queuedPushes(target: String) throws -> (count: Int, nextTry: Instant?) {
        try write { db in
            try collect(db)
            let row = try Row.fetchOne(db, sql: """
                SELECT count(*), min(ifnull(next_try, 0)) FROM outbox WHERE target = ? AND state = 'queued'
                """, arguments: [target])
            let count: Int = row?[0] ?? 0
            return (count, count == 0 ? nil : Instant(seconds: row?[1] ?? 0))
        }
    }

    /// When a push is next due for any target: when changes wait for it
    /// (in the journal or its queue), the later of their next try and the
    /// target's backoff; nil when nothing waits. Reads only, so a daemon
    /// may ask often.
    public func nextPushDue() throws -> Instant? {
        try read { db in
            try Int64.fetchOne(db, sql: """
                SELECT min(max(ifnull(t.retry_at, 0),
                               CASE WHEN EXISTS (SELECT 1 FROM journal j WHERE j.seq > t.cursor AND \(Self.syncedChange)) THEN 0
                                    ELSE (SELECT min(ifnull(o.next_try, 0)) FROM outbox o
                                          WHERE o.target = t.name AND o.state = 'queued') END))
                FROM sync_target t
                WHERE EXISTS (SELECT 1 FROM journal j WHERE j.seq > t.cursor AND \(Self.syncedChange))
                   OR EXISTS (SELECT 1 FROM outbox o WHERE o.target = t.name AND o.state = 'queued')
                """).map { Instant(seconds: $0) }
        }
    }

    /// A target's backoff: failures in a row to reach the service, and
    /// when it may be tried again (nil: now).
    /// `quota` says the wait is for the service's hourly quota.
    public func targetBackoff(_ target: String) throws -> (failures: Int, retryAt: Instant?, message: String?, quota: Bool) {
        try read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT failures, retry_at, last_error, ifnull(waiting_for = 'quota', 0) FROM sync_target WHERE name = ?
                """, arguments: [target])
            return (row?[0] ?? 0, (row?[1] as Int64?).map { Instant(seconds: $0) }, row?[2], row?[3] ?? false)
        }
    }

    /// The service could not be reached for `target` (or asked to wait):
    /// nothing is sent to it before `retryAt`.
    public func recordUnavailable(target: String, retryAt: Instant, message: String, at now: Instant) throws {
        try write { db in
            try db.execute(sql: """
                UPDATE sync_target SET failures = failures + 1, retry_at = ?, waiting_for = NULL, last_error = ?,
                    last_error_at = ? WHERE name = ?
                """, arguments: [retryAt.seconds, message, now.seconds, target])
        }
    }

    /// Written before a create is sent, in its own transaction: if the
    /// process dies before the answer is recorded, the next push looks for
    /// the entry at the service before creating it again.
    public func markCreateSent(_ item: OutboxItem, _ sent: SentEntry) throws {
        try write { db in
            try db.execute(sql: """
                INSERT INTO remote_entry (target, entry_id, create_sent, sent_start, sent_end, sent_description)
                VALUES (?, ?, 1, ?, ?, ?)
                ON CONFLICT (target, entry_id) DO UPDATE SET create_sent = 1, sent_start = excluded.sent_start,
                    sent_end = excluded.sent_end, sent_description = excluded.sent_description
                """, arguments: [item.target, item.entryID, sent.start.seconds, sent.end.seconds, sent.description])
        }
    }

    /// Takes back ``markCreateSent(_:_:)`` for a create that certainly did
    /// not reach the service (held back by its quota): the target holds
    /// nothing of the entry.
    public func unmarkCreateSent(_ item: OutboxItem) throws {
        try write { db in
            try db.execute(sql: """
                DELETE FROM remote_entry WHERE target = ? AND entry_id = ? AND remote_id IS NULL
                """, arguments: [item.target, item.entryID])
        }
    }

    /// The service confirmed `item`: a put now lives there as `remoteID`
    /// with `sent` as its contents, a delete is gone from there. The item
    /// leaves the queue unless a newer change replaced it meanwhile.
    public func confirmPush(_ item: OutboxItem, remoteID: String?, sent: SentEntry?, at now: Instant) throws {
        try write { db in
            switch item.operation {
            case .put:
                try db.execute(sql: """
                    INSERT INTO remote_entry (target, entry_id, remote_id, create_sent, pushed, sent_start, sent_end, sent_description)
                    VALUES (?, ?, ?, 0, ?, ?, ?, ?)
                    ON CONFLICT (target, entry_id) DO UPDATE SET remote_id = excluded.remote_id, create_sent = 0,
                        pushed = excluded.pushed, sent_start = excluded.sent_start, sent_end = excluded.sent_end,
                        sent_description = excluded.sent_description
                    """, arguments: [item.target, item.entryID, remoteID, now.seconds, sent?.start.seconds, sent?.end.seconds,
                                     sent?.description])
            case .delete:
                try db.execute(sql: "DELETE FROM remote_entry WHERE target = ? AND entry_id = ?",
                               arguments: [item.target, item.entryID])
            }
            try db.execute(sql: "DELETE FROM outbox WHERE target = ? AND entry_id = ? AND seq = ?",
                           arguments: [item.target, item.entryID, item.seq])
            try db.execute(sql: """
                UPDATE sync_target SET last_success = ?, failures = 0, retry_at = NULL, waiting_for = NULL WHERE name = ?
                """,
                           arguments: [now.seconds, item.target])
        }
    }

    /// Forgets the service's id for `item`'s entry (the service no longer
    /// has it), so that it is created anew.
    public func forgetRemoteID(_ item: OutboxItem) throws {
        try write { db in
            try db.execute(sql: "UPDATE remote_entry SET remote_id = NULL WHERE target = ? AND entry_id = ?",
                           arguments: [item.target, item.entryID])
        }
    }

    /// Takes `item` out of the queue without sending it (a put of an entry
    /// that runs again or is gone: its next change queues it anew).
    public func dropPush(_ item: OutboxItem) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM outbox WHERE target = ? AND entry_id = ? AND seq = ?",
                           arguments: [item.target, item.entryID, item.seq])
        }
    }

    /// Which of `ids` the target holds for some local entry.
    public func remoteIDs(target: String, among ids: [String]) throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        let marks = ids.map { _ in "?" }.joined(separator: ",")
        return try read { db in
            Set(try String.fetchAll(db, sql: "SELECT remote_id FROM remote_entry WHERE target = ? AND remote_id IN (\(marks))",
                                    arguments: StatementArguments([target] + ids)))
        }
    }

    /// Leaves `item` queued, to be tried again at `nextTry`.
    public func deferPush(_ item: OutboxItem, until nextTry: Instant, message: String) throws {
        try write { db in
            try db.execute(sql: """
                UPDATE outbox SET attempts = attempts + 1, next_try = ?, message = ?
                WHERE target = ? AND entry_id = ? AND seq = ?
                """, arguments: [nextTry.seconds, message, item.target, item.entryID, item.seq])
        }
    }

    /// The service refused `item` (`failed`) or no longer holds the entry
    /// it would change (`conflict`): it stays, out of the queue, until a
    /// new change to the entry or `trackee sync resolve`.
    public func setAside(_ item: OutboxItem, conflict: Bool, message: String) throws {
        try write { db in
            try db.execute(sql: """
                UPDATE outbox SET state = ?, attempts = attempts + 1, message = ?
                WHERE target = ? AND entry_id = ? AND seq = ?
                """, arguments: [conflict ? "conflict" : "failed", message, item.target, item.entryID, item.seq])
        }
    }

    /// The last error of a target, or nil to clear it.
    public func recordPushError(target: String, message: String?, at now: Instant) throws {
        try write { db in
            try db.execute(sql: "UPDATE sync_target SET last_error = ?, last_error_at = ? WHERE name = ?",
                           arguments: [message, message == nil ? nil : now.seconds, target])
        }
    }

    /// Entries set aside as failed or in conflict, oldest change first.
    public func setAsidePushes(target: String) throws -> [(entryID: Int64, conflict: Bool, message: String)] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT entry_id, state, ifnull(message, '') FROM outbox
                WHERE target = ? AND state IN ('failed', 'conflict') ORDER BY seq
                """, arguments: [target]).map { ($0[0], ($0[1] as String) == "conflict", $0[2]) }
        }
    }

    /// How a conflict is recorded when the entry was changed at the
    /// service (rather than deleted there) since trackee last pushed it.
    public static let changedThere = "changed at the service since trackee last pushed it"

    /// Settles an entry set aside for `target`. A conflict: keeping the
    /// local entry pushes it again (created anew if the service deleted
    /// it, written over the service's changes otherwise); keeping the
    /// remote side deletes the local entry when the service deleted it (to
    /// the trash, so `undo` brings it back), or leaves both sides as they
    /// are when it was changed there (a later local change is pushed over
    /// it). A failed entry: `local` tries it again, `remote` discards the
    /// queued change. Returns false when the entry is not set aside.
    @discardableResult
    public func resolveConflict(target: String, entryID: Int64, keep choice: ConflictChoice, now: Instant) throws -> Bool {
        let deleteHere = try write { db -> Bool? in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT op, state, ifnull(message, '') FROM outbox
                WHERE target = ? AND entry_id = ? AND state IN ('conflict', 'failed')
                """, arguments: [target, entryID]) else { return nil }
            let (op, state, message): (String, String, String) = (row[0], row[1], row[2])
            let deletedThere = state == "conflict" && message != Self.changedThere
            let key: StatementArguments = [target, entryID]
            if deletedThere {
                try db.execute(sql: "DELETE FROM remote_entry WHERE target = ? AND entry_id = ?", arguments: key)
            } else if state == "conflict" {
                // Either way the service's version is the one to build on:
                // the next update goes out without comparing.
                try db.execute(sql: """
                    UPDATE remote_entry SET sent_start = NULL, sent_end = NULL, sent_description = NULL
                    WHERE target = ? AND entry_id = ?
                    """, arguments: key)
            }
            if choice == .local && op == "put" {
                try db.execute(sql: """
                    UPDATE outbox SET state = 'queued', attempts = 0, next_try = NULL, message = NULL
                    WHERE target = ? AND entry_id = ?
                    """, arguments: key)
                return false
            }
            try db.execute(sql: "DELETE FROM outbox WHERE target = ? AND entry_id = ?", arguments: key)
            return choice == .remote && op == "put" && deletedThere
        }
        guard let deleteHere else { return false }
        if deleteHere, try read({ db in try Int.fetchOne(db, sql: "SELECT count(*) FROM entry WHERE id = ?", arguments: [entryID]) }) == 1 {
            _ = try deleteEntries([entryID], now: now)
        }
        return true
    }
}
