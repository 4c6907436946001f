import GRDB
import TrackeeCore

/// A rule firing as the ledger keeps it.
public struct LoggedFiring: Sendable, Equatable {
    /// The ledger row's rowid: what cursors over the ledger count.
    public var id: Int64
    public var rule: String
    /// The trigger as `rules why` names it: `schedule`, `place:office` …
    public var trigger: String
    /// When the occurrence happened, and when the firing was applied.
    public var occurred: Instant
    public var fired: Instant
    public var description: String
}

extension Store {
    /// Firings recorded after rowid `id`, oldest first, up to `limit`.
    public func firings(after id: Int64, limit: Int = 1000) throws -> [LoggedFiring] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT rowid, rule, trigger, occurred, fired, description FROM rule_firing
                    WHERE rowid > ? ORDER BY rowid LIMIT ?
                    """,
                arguments: [id, limit]
            ).map { row in
                LoggedFiring(
                    id: row[0], rule: row[1], trigger: row[2], occurred: Instant(seconds: row[3]),
                    fired: Instant(seconds: row[4]), description: row[5])
            }
        }
    }

    /// The rowid of the last firing recorded; 0 before any.
    public func lastFiringID() throws -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT MAX(rowid) FROM rule_firing") ?? 0 }
    }
}
