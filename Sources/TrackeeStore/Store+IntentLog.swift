import GRDB
import TrackeeCore

/// An intent as the intent log keeps it, with the entries it was about as
/// they are now (nil where since deleted).
public struct LoggedIntent: Sendable, Equatable {
    /// The log row's id: what cursors over the log count.
    public var id: Int64
    /// When the intent took effect.
    public var at: Instant
    /// Who asked; nil for a text no release writes (a row changed by hand).
    public var source: ChangeSource?
    public var key: String?
    public var result: IntentResult

    public init(id: Int64, at: Instant, source: ChangeSource?, key: String?, result: IntentResult) {
        self.id = id
        self.at = at
        self.source = source
        self.key = key
        self.result = result
    }
}

extension Store {
    /// Intents logged after row `id`, oldest first, up to `limit`; replays
    /// (which changed nothing) and intents pulled from other devices (their
    /// own daemons saw them) are left out.
    public func loggedIntents(after id: Int64, limit: Int = 1000) throws -> [LoggedIntent] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, at, source, key, outcome, entry_id, previous_entry_id FROM intent_log
                    WHERE id > ? AND replay_of IS NULL AND device IS NULL ORDER BY id LIMIT ?
                    """,
                arguments: [id, limit])
            func entry(_ id: Int64?) throws -> Entry? {
                guard let id else { return nil }
                return try Row.fetchOne(db, sql: Store.entrySelect + " WHERE e.id = ?", arguments: [id]).map(Store.entry(from:))
            }
            return try rows.map { row in
                let logID: Int64 = row[0]
                return LoggedIntent(
                    id: logID, at: Instant(seconds: row[1]), source: (row[2] as String?).flatMap(ChangeSource.init(storedText:)), key: row[3],
                    result: IntentResult(
                        outcome: Outcome(rawValue: row[4]) ?? .unchanged, entry: try entry(row[5]), previous: try entry(row[6]),
                        logID: logID))
            }
        }
    }

    /// The id of the last intent logged; 0 before any.
    public func lastIntentID() throws -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM intent_log") ?? 0 }
    }

    /// The journal's newest step (0 for none): it grows with every change
    /// to clients, projects and entries, whoever made it (an intent, an
    /// edit, a delete, an undo, an import, a pull from the hub).
    public func lastStep() throws -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT MAX(step) FROM journal") ?? 0 }
    }
}
