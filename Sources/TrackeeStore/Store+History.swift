import GRDB
import TrackeeCore

/// One row of the intent log, as `trackee history` shows it.
public struct IntentRecord: Sendable, Equatable {
    public var id: Int64
    /// When it was applied.
    public var applied: Instant
    /// The time it took effect (`--at`, or a rule's occurrence).
    public var at: Instant
    /// `cli`, `rule:<id>`, …
    public var source: String
    /// `start`, `stop` or `cancel`.
    public var action: String
    /// The intent's parameters as the log keeps them (JSON text).
    public var parameters: String
    /// `started`, `switched`, `stopped`, `cancelled` or `unchanged`; for a
    /// repeated key, the first call's.
    public var outcome: String
    public var entryID: Int64?
    public var previousEntryID: Int64?
    public var key: String?
    /// Set when the key had been applied before: the first call's row.
    public var replayOf: Int64?
    /// For a rule's intent, the firing's line (`rule "x": focus deep on at …`).
    public var firing: String?
}

extension Store {
    /// The intent log, newest first: at most `limit` rows, older than
    /// `before` (an id) when given, from `source` when given (`rule`
    /// matches every `rule:…`).
    public func intentHistory(limit: Int, before: Int64? = nil, source: String? = nil) throws -> [IntentRecord] {
        try read { db in
            var sql = """
                SELECT i.id, i.applied, i.at, i.source, i.action, i.parameters, i.outcome, i.entry_id,
                       i.previous_entry_id, i.key, i.replay_of
                FROM intent_log i
                WHERE 1
                """
            var arguments: StatementArguments = []
            if let before {
                sql += " AND i.id < ?"
                arguments += [before]
            }
            if let source {
                sql += " AND (i.source = ? OR i.source LIKE ? ESCAPE '\\')"
                let escaped = source.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                    .replacingOccurrences(of: "_", with: "\\_")
                arguments += [source, escaped + ":%"]
            }
            sql += " ORDER BY i.id DESC LIMIT ?"
            arguments += [limit]
            var records = try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                IntentRecord(
                    id: row[0], applied: Instant(seconds: row[1]), at: Instant(seconds: row[2]), source: row[3], action: row[4],
                    parameters: row[5], outcome: row[6], entryID: row[7], previousEntryID: row[8], key: row[9],
                    replayOf: row[10], firing: nil)
            }
            // A rule's intent is keyed `<firing key>#<action index>`.
            for index in records.indices where records[index].source.hasPrefix("rule:") {
                guard let key = records[index].key, let hash = key.lastIndex(of: "#") else { continue }
                records[index].firing = try String.fetchOne(
                    db, sql: "SELECT description FROM rule_firing WHERE key = ?", arguments: [String(key[..<hash])])
            }
            return records
        }
    }
}
