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
    /// row's JSON (``logRow(_:)``), written by the caller that has the row
    /// in hand, so a one-shot `stop` compiles one small statement.
    static func log(_ db: Database, id: Int64, row: @autoclosure () -> String) throws {
        guard try HubIDs.number(db) != nil else { return }
        try db.cachedStatement(sql: "INSERT INTO hub_key (kind, key, body) VALUES ('log', ?, ?) ON CONFLICT DO NOTHING")
            .execute(arguments: [String(id), row()])
    }

    /// An intent log row as ``log(_:id:row:)`` keeps it and the merge reads
    /// it: its columns (``HubLoggedIntent/columns``) as one JSON object.
    static func logRow(_ row: HubLoggedIntent) -> String {
        JSONObject.of(HubLoggedIntent.columns.map(\.name), row.values)
    }

    /// A keyed intent's ledger row as a JSON object, from its log row `l`
    /// (``HubLoggedIntent/ledgerColumns``) and its `firing` row `f`; `?2`
    /// is the key.
    static let intentLedger = """
        SELECT json_object(\(HubLoggedIntent.ledgerColumns.map { "'\($0.name)', l.\($0.name)" }.joined(separator: ", ")), \
        'fired', f.fired)
        FROM firing f JOIN intent_log l ON l.id = f.intent_id WHERE f.key = ?2
        """

    /// A key's ledger row as a JSON object; `?2` is the key.
    private static func ledgerRow(_ kind: Kind) -> String {
        switch kind {
        case .intent:
            return intentLedger
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
