import GRDB

/// Keys that hold across devices once the store has joined a hub: each
/// intent key, rule firing and `add --key` applied here is kept in
/// `hub_key` with the journal steps its application made, and pushed. A
/// device that pulls a key applied elsewhere records it in its own ledger,
/// so applying it here later changes nothing; see the merge (TrackeeReplication) for a key
/// applied on two devices before either heard of the other.
enum HubKeys {
    enum Kind: String {
        /// An intent's `--key` or Idempotency-Key: the `firing` ledger.
        case intent
        /// A rule firing: `rule_firing`.
        case firing
        /// `add --key`: `add_key`.
        case add
        /// An intent without a key of its own (a rule's, or one typed
        /// without `--key`): its intent log row, under the row's id. It
        /// claims nothing; it is there so that `history` shows it on
        /// every device.
        case log
    }

    /// The journal's last row when the store has joined a hub, for
    /// ``record(_:_:key:since:)``; nil otherwise, and nothing is kept.
    static func mark(_ db: Database) throws -> Int64? {
        guard try HubIDs.number(db) != nil else { return nil }
        return try Int64.fetchOne(db.cachedStatement(sql: "SELECT ifnull(max(seq), 0) FROM journal")) ?? 0
    }

    /// Keeps a key just applied here, with its ledger row, the journal
    /// steps made since `mark` and the entries they made. (A client or
    /// project they made is not the key's: another device's application
    /// makes one of the same name, which is the same one.)
    static func record(_ db: Database, _ kind: Kind, key: String, since mark: Int64?) throws {
        guard let mark else { return }
        try db.execute(sql: """
            INSERT INTO hub_key (kind, key, body, steps, made)
            VALUES (?1, ?2, (\(ledgerRow(kind))),
                    (SELECT json_group_array(DISTINCT step) FROM journal WHERE seq > ?3 AND device IS NULL),
                    (SELECT json_group_array(json_array(kind, row_id)) FROM journal
                     WHERE seq > ?3 AND device IS NULL AND before IS NULL AND kind = 'entry'))
            ON CONFLICT DO NOTHING
            """, arguments: [kind.rawValue, key, mark])
    }

    /// Keeps intent log row `id`, an intent applied here without a key of
    /// its own, to be pushed once the store has joined a hub; `row` is the
    /// row's columns (``logRow(applied:at:source:action:parameters:outcome:entryID:previousEntryID:key:firing:)``),
    /// written by the caller that has them in hand, so a one-shot `stop`
    /// compiles one small statement.
    static func log(_ db: Database, id: Int64, row: @autoclosure () -> String) throws {
        guard try HubIDs.number(db) != nil else { return }
        try db.cachedStatement(sql: "INSERT INTO hub_key (kind, key, body) VALUES ('log', ?, ?) ON CONFLICT DO NOTHING")
            .execute(arguments: [String(id), row()])
    }

    /// An intent log row as ``log(_:id:row:)`` keeps it and
    /// the merge reads it.
    static func logRow(
        applied: Int64, at: Int64, source: String, action: String, parameters: String, outcome: String,
        entryID: Int64?, previousEntryID: Int64?, key: String?, firing: String?
    ) -> String {
        var o = JSONObject()
        o.add("applied", applied)
        o.add("at", at)
        o.add("source", source)
        o.add("action", action)
        o.add("parameters", parameters)
        o.add("outcome", outcome)
        o.add("entry_id", entryID)
        o.add("previous_entry_id", previousEntryID)
        o.add("key", key)
        o.add("firing", firing)
        return o.closed
    }

    /// A key's ledger row as a JSON object; `?2` is the key.
    private static func ledgerRow(_ kind: Kind) -> String {
        switch kind {
        case .intent:
            return """
                SELECT json_object('applied', l.applied, 'at', l.at, 'source', l.source, 'action', l.action,
                                   'parameters', l.parameters, 'outcome', l.outcome, 'entry_id', l.entry_id,
                                   'previous_entry_id', l.previous_entry_id, 'fired', f.fired)
                FROM firing f JOIN intent_log l ON l.id = f.intent_id WHERE f.key = ?2
                """
        case .firing:
            return """
                SELECT json_object('rule', rule, 'occurred', occurred, 'fired', fired, 'description', description,
                                   'trigger', trigger, 'any_offset', any_offset)
                FROM rule_firing WHERE key = ?2
                """
        case .add:
            return "SELECT json_object('entry_id', entry_id, 'added', added) FROM add_key WHERE key = ?2"
        case .log:
            preconditionFailure("an intent without a key is kept by HubKeys.log")
        }
    }
}
