import GRDB
import TrackeeCore

/// Reads what a batch of pulled changes concerns, for the merge.
struct HubMergeReader {
    let db: Database

    mutating func read(_ input: inout HubMergeInput) throws {
        try db.execute(sql: """
            CREATE TEMP TABLE IF NOT EXISTS hub_concern (kind TEXT NOT NULL, row_id INTEGER NOT NULL,
                                                         PRIMARY KEY (kind, row_id)) WITHOUT ROWID;
            DELETE FROM hub_concern;
            """)
        var rows: Set<HubRowKey> = []
        var keys: Set<HubClaimKey> = []
        var stamps: [String] = []
        for change in input.changes {
            switch change.body {
            case .row(let row):
                rows.insert(row.row)
                stamps.append(change.stamp.description)
            case .claim(let claim):
                keys.insert(claim.key)
                try enteredAlready(claim.key.kind.rawValue, claim.key.key, change.device, &input)
                rows.formUnion(claim.made)
                rows.formUnion((claim.writes ?? []).map(\.row))
            case .log(let id, let row, _):
                try enteredAlready("log", id, change.device, &input)
                if let firing = row.firing { keys.insert(HubClaimKey(.firing, firing)) }
            }
        }
        for key in keys {
            let held = try claims(key)
            guard !held.isEmpty else { continue }
            input.claims[key] = held
            for claim in held {
                rows.formUnion(claim.made)
                rows.formUnion(claim.writes.map(\.row))
            }
        }
        // The whole catalog, the running entry and the entries whose end
        // the merge derived.
        for row in try Row.fetchAll(db, sql: """
            SELECT 'client', id FROM client UNION SELECT 'project', id FROM project
            UNION SELECT kind, row_id FROM hub_write WHERE kind IN ('client', 'project')
            UNION SELECT kind, row_id FROM hub_void WHERE kind IN ('client', 'project')
            UNION SELECT 'entry', id FROM entry WHERE "end" IS NULL
            UNION SELECT 'entry', entry_id FROM hub_derived
            """) {
            if let table = JournalTable(rawValue: row[0]) { rows.insert(HubRowKey(table, row[1])) }
        }
        for row in try Row.fetchAll(db, sql: "SELECT kind, alias, canonical FROM hub_alias") {
            if let table = JournalTable(rawValue: row[0]) { input.aliases[HubRowKey(table, row[1])] = row[2] }
        }
        if !stamps.isEmpty {
            input.voided = Set(try String.fetchAll(
                db, sql: "SELECT value FROM json_each(?) WHERE value IN (SELECT stamp FROM hub_voided)",
                arguments: ["[" + stamps.map { "\"\($0)\"" }.joined(separator: ",") + "]"]
            ).compactMap(HybridStamp.init))
        }
        try load(rows, into: &input)
        // Timers no device stopped begin at or after the earliest of
        // these: the entries that may be open.
        let open = input.rows.values.filter { $0.key.table == .entry }.compactMap { state -> Int64? in
            let start = state.current?[JournalTable.entryStart].integer
            let running = state.current?[JournalTable.entryEnd] == .null || state.derived
            return running ? start : nil
        }
        // And the entries the batch leaves running. (One that a voided
        // application had stopped may run again too: the merge asks for
        // what lies before these when it finds one.)
        var from = open.min() ?? .max
        for change in input.changes {
            guard case .row(let row) = change.body, row.row.table == .entry,
                  row.values[JournalTable.entryEnd] == HubValue.null,
                  let start = row.values[JournalTable.entryStart]?.integer
                      ?? input.rows[row.row]?.current?[JournalTable.entryStart].integer
            else { continue }
            from = min(from, start)
        }
        try timers(from: from, into: &input)
    }

    /// Reads every entry begun as a timer from `start` on into the input.
    func timers(from start: Int64, into input: inout HubMergeInput) throws {
        guard start < input.timerBornFrom else { return }
        let ids = try Int64.fetchAll(db, sql: """
            SELECT e.id FROM entry e WHERE e.start >= ?
              AND (EXISTS (SELECT 1 FROM hub_write w WHERE w.kind = 'entry' AND w.row_id = e.id AND w.field = 'end'
                                                     AND w.value IS NULL)
                   OR EXISTS (SELECT 1 FROM hub_row r WHERE r.kind = 'entry' AND r.row_id = e.id
                                                     AND json_type(r.body, '$.fields.end') = 'null'))
            """, arguments: [start])
        input.timerBornFrom = start
        try load(Set(ids.map { HubRowKey(.entry, $0) }).subtracting(input.rows.keys), into: &input)
    }

    private func enteredAlready(_ kind: String, _ key: String, _ device: String, _ input: inout HubMergeInput) throws {
        if try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM hub_key WHERE kind = ? AND key = ? AND ifnull(device, '') = ?"),
            arguments: [kind, key, device]) == 1
        {
            input.entered.insert(HubEntered(kind: kind, key: key, device: device))
        }
    }

    /// The applications of `key` the store holds.
    private func claims(_ key: HubClaimKey) throws -> [HubStoredClaim] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT device, stamp, writes, made, superseded_by, json_extract(body, '$.entry_id')
            FROM hub_key WHERE kind = ? AND key = ? AND stamp IS NOT NULL
            """), arguments: [key.kind.rawValue, key.key]
        ).compactMap { row in
            guard let stamp = HybridStamp(row[1] as String) else { return nil }
            return HubStoredClaim(
                key: key, device: row[0], stamp: stamp, writes: try Self.writes(db, row[2]),
                made: try Self.rows(db, row[3]), supersededBy: row[4], addedEntry: key.kind == .add ? row[5] : nil)
        }
    }

    /// `[[stamp, kind, id], …]`.
    static func writes(_ db: Database, _ json: String) throws -> [HubClaimWrite] {
        try Row.fetchAll(db, sql: """
            SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?)
            """, arguments: [json]
        ).compactMap { row in
            guard let stamp = (row[0] as String?).flatMap(HybridStamp.init), let table = (row[1] as String?)
                .flatMap(JournalTable.init(rawValue:)), let id = row[2] as Int64?
            else { return nil }
            return HubClaimWrite(stamp: stamp, row: HubRowKey(table, id))
        }
    }

    /// `[[kind, id], …]`.
    static func rows(_ db: Database, _ json: String) throws -> [HubRowKey] {
        try Row.fetchAll(db, sql: "SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)",
                         arguments: [json]).compactMap { row in
            guard let table = (row[0] as String?).flatMap(JournalTable.init(rawValue:)), let id = row[1] as Int64?
            else { return nil }
            return HubRowKey(table, id)
        }
    }

    /// Reads `keys`' rows: their images, writes, and whether void or
    /// derived.
    private func load(_ keys: Set<HubRowKey>, into input: inout HubMergeInput) throws {
        guard !keys.isEmpty else { return }
        try db.execute(sql: "DELETE FROM hub_concern")
        let insert = try db.cachedStatement(sql: "INSERT INTO hub_concern (kind, row_id) VALUES (?, ?)")
        for key in keys { try insert.execute(arguments: [key.table.rawValue, key.id]) }
        for table in JournalTable.allCases {
            let columns = table.columns.map { "t.\"\($0)\"" }.joined(separator: ", ")
            let rows = try Row.fetchCursor(db, sql: """
                SELECT \(columns) FROM \(table.rawValue) t
                JOIN hub_concern c ON c.kind = '\(table.rawValue)' AND c.row_id = t.id
                """)
            while let row = try rows.next() {
                let image = (0..<table.columns.count).map { HubValue(row[$0] as DatabaseValue) }
                input.rows[HubRowKey(table, row[0]), default: HubRowState(key: HubRowKey(table, row[0]))].current = image
            }
        }
        let writes = try Row.fetchCursor(db, sql: """
            SELECT w.kind, w.row_id, w.field, w.stamp, w.value, w.base, v.stamp IS NOT NULL
            FROM hub_concern c JOIN hub_write w ON w.kind = c.kind AND w.row_id = c.row_id
            LEFT JOIN hub_voided v ON v.stamp = w.stamp
            UNION ALL
            SELECT r.kind, r.row_id, j.key, r.stamp, j.value, NULL, v.stamp IS NOT NULL
            FROM hub_concern c JOIN hub_row r ON r.kind = c.kind AND r.row_id = c.row_id
            JOIN json_each(r.body, '$.fields') j LEFT JOIN hub_voided v ON v.stamp = r.stamp
            """)
        while let row = try writes.next() {
            guard let table = JournalTable(rawValue: row[0]), let field = table.field(row[2]),
                  let stamp = HybridStamp(row[3] as String)
            else { continue }
            let key = HubRowKey(table, row[1])
            input.rows[key, default: HubRowState(key: key)].writes[field].append(HubWrite(
                stamp: stamp, value: HubValue(row[4] as DatabaseValue), base: (row[5] as String?).flatMap(HybridStamp.init),
                voided: row[6]))
        }
        for row in try Row.fetchAll(db, sql: """
            SELECT v.kind, v.row_id FROM hub_concern c JOIN hub_void v ON v.kind = c.kind AND v.row_id = c.row_id
            """) {
            if let table = JournalTable(rawValue: row[0]) {
                let key = HubRowKey(table, row[1])
                input.rows[key, default: HubRowState(key: key)].void = true
            }
        }
        for id in try Int64.fetchAll(db, sql: """
            SELECT d.entry_id FROM hub_concern c JOIN hub_derived d ON c.kind = 'entry' AND d.entry_id = c.row_id
            """) {
            input.rows[HubRowKey(.entry, id), default: HubRowState(key: HubRowKey(.entry, id))].derived = true
        }
    }
}

extension HubValue {
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .int64(let n): self = .integer(n)
        case .string(let s): self = .text(s)
        case .double(let d): self = .integer(Int64(d))
        case .blob, .null: self = .null
        }
    }

    var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let n): return n.databaseValue
        case .text(let s): return s.databaseValue
        }
    }
}
