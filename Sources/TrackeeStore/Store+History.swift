import GRDB
import TrackeeCore

/// One row of the intent log, as `trackee history` shows it.
public struct IntentRecord: Sendable, Equatable {
    public var id: Int64
    /// When it was applied.
    public var applied: Instant
    /// The time it took effect (`--at`, or a rule's occurrence).
    public var at: Instant
    /// Who asked.
    public var source: ChangeSource
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
    /// For a rule's intent, what fired the rule (`focus deep on`).
    public var trigger: String?
    /// The device it was applied on, for an intent pulled from the hub;
    /// nil for one applied here.
    public var device: String? = nil
    /// Set when its key or firing was applied first on another device,
    /// whose application stands: that device. What this one did counts
    /// for nothing.
    public var voided: String? = nil
}

extension Store {
    /// The intent log, newest first: at most `limit` rows, older than
    /// `before` (an id) when given, from the sources `source` asks for when
    /// given.
    public func intentHistory(limit: Int, before: Int64? = nil, source: SourceFilter? = nil) throws -> [IntentRecord] {
        try read { db in
            var sql = """
                SELECT i.id, i.applied, i.at, i.source, i.action, i.parameters, i.outcome, i.entry_id,
                       i.previous_entry_id, i.key, i.replay_of, f.trigger, i.device, i.voided
                FROM intent_log i LEFT JOIN rule_firing f ON f.key = i.firing
                WHERE 1
                """
            var arguments: StatementArguments = []
            if let before {
                sql += " AND i.id < ?"
                arguments += [before]
            }
            if let source {
                let condition = source.condition("i.source")
                sql += " AND " + condition.sql
                arguments += condition.arguments
            }
            sql += " ORDER BY i.id DESC LIMIT ?"
            arguments += [limit]
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                let id: Int64 = row[0]
                let text: String = row[3]
                guard let source = ChangeSource(storedText: text) else {
                    throw StoreError.database(
                        path: path, message: "intent log row \(id) has source \"\(text)\", which no release of trackee writes")
                }
                return IntentRecord(
                    id: id, applied: Instant(seconds: row[1]), at: Instant(seconds: row[2]), source: source, action: row[4],
                    parameters: row[5], outcome: row[6], entryID: row[7], previousEntryID: row[8], key: row[9],
                    replayOf: row[10], trigger: row[11], device: row[12], voided: row[13])
            }
        }
    }
}
