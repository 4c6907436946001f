import GRDB
import TrackeeCore

/// Which of a service's hourly quotas a request counts against.
public enum QuotaScope: String, Sendable, CaseIterable {
    /// Requests about a workspace (Clockify's every request).
    case workspace
    /// Toggl Track's user-specific endpoints (`/me…`), 30 an hour on every plan.
    case user
}

/// Requests sent to a target's service in one second, against one quota.
public struct QuotaRequests: Sendable, Equatable {
    public var scope: QuotaScope
    public var at: Instant
    public var count: Int

    public init(scope: QuotaScope, at: Instant, count: Int) {
        self.scope = scope
        self.at = at
        self.count = count
    }
}

extension Store {
    /// The requests sent to `target`'s service after `since`, oldest first.
    public func quotaRequests(target: String, since: Instant) throws -> [QuotaRequests] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT scope, at, count FROM sync_request WHERE target = ? AND at > ? ORDER BY at
                """, arguments: [target, since.seconds]).compactMap { row in
                QuotaScope(rawValue: row[0]).map { QuotaRequests(scope: $0, at: Instant(seconds: row[1]), count: row[2]) }
            }
        }
    }

    /// Requests of each quota sent to `target`'s service after `since`.
    public func quotaUse(target: String, since: Instant) throws -> [QuotaScope: Int] {
        var use: [QuotaScope: Int] = [:]
        for r in try quotaRequests(target: target, since: since) { use[r.scope, default: 0] += r.count }
        return use
    }

    /// Counts one request to `target`'s service at `at`, in its own
    /// transaction: written before the request goes out.
    public func countQuotaRequest(target: String, scope: QuotaScope, at: Instant) throws {
        try write { db in
            try db.cachedStatement(sql: """
                INSERT INTO sync_request (target, scope, at, count) VALUES (?, ?, ?, 1)
                ON CONFLICT (target, scope, at) DO UPDATE SET count = count + 1
                """).execute(arguments: [target, scope.rawValue, at.seconds])
        }
    }

    /// Drops `target`'s requests sent at or before `before` (an hour ago:
    /// they no longer count).
    public func forgetQuotaRequests(target: String, before: Instant) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM sync_request WHERE target = ? AND at <= ?", arguments: [target, before.seconds])
        }
    }

    /// The service's hourly quota held a push of `target` back until
    /// `until`, and the push waited it out: the target is no longer held
    /// back (a wait of another kind, or one recorded since, is left).
    public func endQuotaWait(target: String, until: Instant) throws {
        try write { db in
            try db.execute(sql: """
                UPDATE sync_target SET retry_at = NULL, waiting_for = NULL, last_error = NULL, last_error_at = NULL
                WHERE name = ? AND waiting_for = 'quota' AND retry_at = ?
                """, arguments: [target, until.seconds])
        }
    }

    /// Keeps `requests` as the target's requests of the last hour,
    /// replacing what was kept.
    public func keepQuotaRequests(target: String, _ requests: [QuotaRequests]) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM sync_request WHERE target = ?", arguments: [target])
            let statement = try db.makeStatement(sql: """
                INSERT INTO sync_request (target, scope, at, count) VALUES (?, ?, ?, ?)
                ON CONFLICT (target, scope, at) DO UPDATE SET count = count + excluded.count
                """)
            for r in requests {
                try statement.execute(arguments: [target, r.scope.rawValue, r.at.seconds, r.count])
            }
        }
    }

    /// The service's hourly quota holds `target` back until `until`:
    /// nothing goes out before then, and `sync status` says so, also while
    /// a push waits it out. Not a failure: the backoff of an unreachable
    /// service is left as it was.
    public func recordQuotaWait(target: String, until: Instant, message: String, at now: Instant) throws {
        try write { db in
            try db.execute(sql: """
                UPDATE sync_target SET retry_at = ?, waiting_for = 'quota', last_error = ?, last_error_at = ? WHERE name = ?
                """, arguments: [until.seconds, message, now.seconds, target])
        }
    }

    /// The service ids trackee-sync kept for `target` (JSON of its own
    /// making), when they were kept under `key`.
    public func serviceIDs(target: String, key: String) throws -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT ids FROM sync_target WHERE name = ? AND ids_key = ?", arguments: [target, key])
        }
    }

    /// Keeps `ids` for `target` under `key` (nil forgets them).
    public func keepServiceIDs(target: String, key: String, _ ids: String?) throws {
        try write { db in
            try db.execute(sql: "UPDATE sync_target SET ids_key = ?, ids = ? WHERE name = ?",
                           arguments: [ids == nil ? nil : key, ids, target])
        }
    }
}
