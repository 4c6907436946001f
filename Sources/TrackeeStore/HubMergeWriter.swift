import GRDB
import TrackeeCore

/// Makes the writes of a merge's plan.
struct HubMergeWriter {
    let db: Database
    let now: Instant
    /// The rows the merge was given or the plan writes: a repoint leaves
    /// them to the plan.
    let loaded: Set<HubRowKey>
    /// Conflicts noted that were not open already.
    private(set) var conflicts = 0
    private var nextSeq: Int64 = 0

    init(db: Database, now: Instant, loaded: Set<HubRowKey>) {
        self.db = db
        self.now = now
        self.loaded = loaded
    }

    mutating func apply(_ plan: HubMergePlan) throws {
        nextSeq = try Int64.fetchOne(db, sql: """
            SELECT max(ifnull((SELECT seq FROM sqlite_sequence WHERE name = 'journal'), 0),
                       ifnull((SELECT max(seq) FROM journal), 0))
            """) ?? 0
        let write = try db.cachedStatement(sql: """
            INSERT INTO hub_write (kind, row_id, field, stamp, value, base) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
            """)
        for (row, field, made) in plan.writes {
            try write.execute(arguments: [
                row.table.rawValue, row.id, row.table.fields[field], made.stamp.description, made.value.databaseValue,
                made.base?.description,
            ])
        }
        for stamp in plan.voided {
            try db.execute(sql: "INSERT INTO hub_voided (stamp) VALUES (?) ON CONFLICT DO NOTHING", arguments: [stamp.description])
        }
        for row in plan.voidRows {
            try db.execute(sql: "INSERT INTO hub_void (kind, row_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                           arguments: [row.table.rawValue, row.id])
        }
        try keys(plan)
        for (alias, canonical) in plan.aliases {
            if let canonical {
                try db.execute(sql: """
                    INSERT INTO hub_alias (kind, alias, canonical) VALUES (?, ?, ?)
                    ON CONFLICT (kind, alias) DO UPDATE SET canonical = excluded.canonical
                    """, arguments: [alias.table.rawValue, alias.id, canonical])
            } else {
                try db.execute(sql: "DELETE FROM hub_alias WHERE kind = ? AND alias = ?",
                               arguments: [alias.table.rawValue, alias.id])
            }
        }
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        // Rows that go first, then those that stop running, then the rest:
        // no name, and no running timer, is held by two rows at once.
        let order = plan.rows.sorted { a, b in Self.rank(a) < Self.rank(b) }
        // The entries a batch made whole, which a new device pulls by the
        // thousand, go in set-wise, the rest one by one.
        var bodies: [HubRowKey: (text: String, stamp: HybridStamp)] = [:]
        for (change, stamp) in plan.wholeRows { bodies[change.row] = (change.text, stamp) }
        var whole: [(change: HubMergePlan.RowChange, body: String, stamp: HybridStamp)] = []
        for change in order {
            if change.before == nil, change.after != nil, let body = bodies.removeValue(forKey: change.row) {
                whole.append((change, body.text, body.stamp))
            } else {
                try row(change)
            }
        }
        try insert(whole)
        let kept = try db.cachedStatement(sql: "INSERT INTO hub_row (kind, row_id, stamp, body) VALUES (?, ?, ?, ?)")
        for (key, body) in bodies {
            try kept.execute(arguments: [key.table.rawValue, key.id, body.stamp.description, body.text])
        }
        for repoint in plan.repoint { try self.repoint(repoint) }
        for (entry, derived) in plan.derived {
            try db.execute(sql: derived ? "INSERT OR IGNORE INTO hub_derived (entry_id) VALUES (?)"
                                        : "DELETE FROM hub_derived WHERE entry_id = ?", arguments: [entry])
        }
        for note in plan.conflicts { try conflict(note) }
    }

    private static func rank(_ change: HubMergePlan.RowChange) -> Int {
        guard let after = change.after else { return 0 }
        if change.row.table == .entry, after[JournalTable.entryEnd] != .null { return 1 }
        return 2
    }

    /// Keys and intent log rows from other devices, the applications they
    /// void, and each key's ledger row as its first application made it.
    private mutating func keys(_ plan: HubMergePlan) throws {
        for kept in plan.keys {
            try db.execute(sql: """
                INSERT INTO hub_key (kind, key, body, made, writes, stamp, device) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """, arguments: [
                    kept.kind, kept.key, kept.body, HubJSON.rows(kept.made), HubJSON.writes(kept.writes),
                    kept.stamp.description, kept.device,
                ])
        }
        let log = try db.cachedStatement(sql: Self.logInsert)
        for pulled in plan.logs {
            try log.execute(arguments: StatementArguments(values: pulled.row.values, then: pulled.device, pulled.voided))
        }
        for (key, device, by) in plan.superseded {
            try db.execute(sql: """
                UPDATE hub_key SET superseded_by = ? WHERE kind = ? AND key = ? AND ifnull(device, '') = ifnull(?, '')
                """, arguments: [by, key.kind.rawValue, key.key, device])
            switch key.kind {
            case .intent:
                try db.execute(sql: "UPDATE intent_log SET voided = ? WHERE key = ? AND device IS ? AND replay_of IS NULL",
                               arguments: [by, key.key, device])
            case .firing:
                try db.execute(sql: "UPDATE intent_log SET voided = ? WHERE firing = ? AND device IS ?",
                               arguments: [by, key.key, device])
            case .add:
                break
            }
        }
        for (key, firing, device) in plan.firings {
            try db.execute(sql: """
                INSERT INTO rule_firing (key, rule, occurred, fired, description, trigger, any_offset)
                VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING
                """, arguments: [
                    key, firing.rule, firing.occurred, firing.fired, firing.description + " (on \(device))",
                    firing.trigger, firing.anyOffset ?? 0,
                ])
        }
        for (key, device, added) in plan.winners {
            switch key.kind {
            case .intent:
                guard let row = try Row.fetchOne(db, sql: """
                    SELECT id, applied FROM intent_log WHERE key = ? AND device IS ? AND replay_of IS NULL ORDER BY id LIMIT 1
                    """, arguments: [key.key, device]) else { continue }
                try db.execute(sql: """
                    INSERT INTO firing (key, intent_id, fired) VALUES (?, ?, ?)
                    ON CONFLICT (key) DO UPDATE SET intent_id = excluded.intent_id
                    """, arguments: [key.key, row[0] as Int64, row[1] as Int64])
            case .add:
                guard let added else { continue }
                try db.execute(sql: """
                    INSERT INTO add_key (key, entry_id, added) VALUES (?, ?, ?)
                    ON CONFLICT (key) DO UPDATE SET entry_id = excluded.entry_id
                    """, arguments: [key.key, added, now.seconds])
            case .firing:
                break
            }
        }
    }

    /// Makes a row what the plan says, and journals it: one step a row,
    /// numbered on from the journal's last.
    private mutating func row(_ change: HubMergePlan.RowChange) throws {
        let table = change.row.table
        let sql = Self.statements[table]!
        switch (change.before, change.after) {
        case (_?, nil):
            try db.cachedStatement(sql: sql.delete).execute(arguments: [change.row.id])
        case (nil, let after?):
            try db.cachedStatement(sql: sql.insert).execute(arguments: StatementArguments(values: after))
        case (_?, let after?):
            try db.cachedStatement(sql: sql.update)
                .execute(arguments: StatementArguments(values: Array(after.dropFirst()), then: change.row.id))
        case (nil, nil):
            return
        }
        try journal(change.row, before: change.before, after: change.after, device: change.device, stamp: change.stamp)
    }

    private static let logInsert = HubLoggedIntent.insert(adding: "device", "voided")

    /// Each table's statements, written once from its columns.
    private static let statements: [JournalTable: (insert: String, update: String, delete: String)] =
        Dictionary(uniqueKeysWithValues: JournalTable.allCases.map { table in
            (table, (
                insert: table.insert,
                update: "UPDATE \(table.rawValue) SET \(table.columns.dropFirst().map { "\"\($0)\" = ?" }.joined(separator: ", ")) "
                    + "WHERE id = ?",
                delete: "DELETE FROM \(table.rawValue) WHERE id = ?"))
        })

    /// New entries, each made whole by one pulled change (what a new
    /// device pulls by the thousand): the change kept (`hub_row`), the row
    /// and its journal step, a hundred rows to a statement.
    private mutating func insert(_ whole: [(change: HubMergePlan.RowChange, body: String, stamp: HybridStamp)]) throws {
        for start in stride(from: 0, to: whole.count, by: Self.chunk) {
            let rows = whole[start..<min(start + Self.chunk, whole.count)]
            var kept: [DatabaseValue] = [], entries: [DatabaseValue] = [], steps: [DatabaseValue] = []
            kept.reserveCapacity(rows.count * 4)
            entries.reserveCapacity(rows.count * JournalTable.entry.columns.count)
            steps.reserveCapacity(rows.count * 10)
            for (change, body, stamp) in rows {
                let after = change.after!
                let text = stamp.description
                kept += ["entry".databaseValue, change.row.id.databaseValue, text.databaseValue, body.databaseValue]
                entries += after.map(\.databaseValue)
                nextSeq += 1
                steps += [
                    nextSeq.databaseValue, nextSeq.databaseValue, now.seconds.databaseValue,
                    ("from " + stamp.device).databaseValue, change.row.id.databaseValue,
                    JournalTable.entry.image(after).databaseValue, text.databaseValue, stamp.device.databaseValue,
                ]
            }
            let sql = rows.count == Self.chunk ? Self.chunkSQL : Self.insertSQL(rows.count)
            try db.cachedStatement(sql: sql.kept).execute(arguments: StatementArguments(kept))
            try db.cachedStatement(sql: sql.entries).execute(arguments: StatementArguments(entries))
            try db.cachedStatement(sql: sql.steps).execute(arguments: StatementArguments(steps))
        }
    }

    /// Rows to a statement of ``insert(_:)``.
    private static let chunk = 100
    private static let chunkSQL = insertSQL(chunk)

    /// ``insert(_:)``'s three statements for `rows` rows.
    private static func insertSQL(_ rows: Int) -> (kept: String, entries: String, steps: String) {
        (values("INSERT INTO hub_row (kind, row_id, stamp, body)", 4, rows),
         values(JournalTable.entry.insertHead, JournalTable.entry.columns.count, rows),
         values("INSERT INTO journal (seq, step, at, label, row_id, after, stamp, device, kind, automatic)", 8, rows,
                constants: "'entry', 0"))
    }

    /// `head VALUES (?, …), …`: `rows` rows of `count` parameters (and
    /// `constants` after them).
    private static func values(_ head: String, _ count: Int, _ rows: Int, constants: String? = nil) -> String {
        let one = "(" + ([String](repeating: "?", count: count) + (constants.map { [$0] } ?? [])).joined(separator: ", ") + ")"
        return head + " VALUES " + [String](repeating: one, count: rows).joined(separator: ", ")
    }

    private mutating func journal(
        _ row: HubRowKey, before: [HubValue]?, after: [HubValue]?, device: String?, stamp: HybridStamp?
    ) throws {
        nextSeq += 1
        try db.cachedStatement(sql: """
            INSERT INTO journal (seq, step, at, label, kind, row_id, before, after, stamp, device, automatic)
            VALUES (?1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 0)
            """).execute(arguments: [
                nextSeq, now.seconds, device.map { "from \($0)" } ?? "merge on \(HubMergeWriter.derived)",
                row.table.rawValue, row.id, before.map { row.table.image($0) },
                after.map { row.table.image($0) }, stamp?.description, device ?? HubMergeWriter.derived,
            ])
    }

    /// The device the journal names for what the merge did itself.
    static let derived = "(merge)"

    /// The entries the plan does not hold whose project `raw` means
    /// something else now.
    private mutating func repoint(_ repoint: HubMergePlan.Repoint) throws {
        let ids = try Store.referring(db, to: repoint.raw, except: loaded)
        var changed = 0
        for id in ids {
            guard let current = try Store.entryImage(db, id), current[JournalTable.entryProject].integer != repoint.resolved
            else { continue }
            var after = current
            after[JournalTable.entryProject] = repoint.resolved.map(HubValue.integer) ?? .null
            try db.cachedStatement(sql: "UPDATE entry SET project_id = ? WHERE id = ?").execute(arguments: [repoint.resolved, id])
            try journal(HubRowKey(.entry, id), before: current, after: after, device: nil, stamp: nil)
            changed += 1
        }
        if changed > 0, let deleted = repoint.deleted, let by = repoint.deletedBy {
            try conflict(HubConflictNote(row: HubRowKey(.project, deleted), what: "deleted-in-use", device: by))
        }
    }

    private mutating func conflict(_ note: HubConflictNote) throws {
        try db.execute(sql: """
            INSERT INTO hub_conflict (kind, row_id, what, device, noticed, field, lost, lost_device)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
            """, arguments: [
                note.row.table.rawValue, note.row.id, note.what, note.device, now.seconds, note.field,
                note.lost?.databaseValue, note.lostDevice,
            ])
        if db.changesCount > 0 { conflicts += 1 }
    }
}

extension Store {
    /// The entries whose project field, as its newest write that counts
    /// says, is `raw`, but for those in `known`.
    static func referring(_ db: Database, to raw: Int64, except known: Set<HubRowKey> = []) throws -> [Int64] {
        // By the indexes on references, named: with no statistics SQLite
        // would read every hub_row instead.
        let candidates = try Int64.fetchAll(db, sql: """
            SELECT row_id FROM hub_write INDEXED BY hub_write_reference
            WHERE kind = 'entry' AND field = 'project_id' AND value = ?1
            UNION
            SELECT row_id FROM hub_row INDEXED BY hub_row_project
            WHERE kind = 'entry' AND json_extract(body, '$.fields.project_id') = ?1
            ORDER BY 1
            """, arguments: [raw])
        return try candidates.filter {
            try !known.contains(HubRowKey(.entry, $0)) && liveField(db, HubRowKey(.entry, $0), "project_id") == .integer(raw)
        }
    }

    /// A field's newest write that counts; nil when none does.
    static func liveField(_ db: Database, _ row: HubRowKey, _ field: String) throws -> HubValue? {
        try Row.fetchOne(db.cachedStatement(sql: """
            SELECT value FROM (
                SELECT stamp, value FROM hub_write WHERE kind = ?1 AND row_id = ?2 AND field = ?3
                UNION ALL
                SELECT stamp, json_extract(body, '$.fields.' || ?3) FROM hub_row
                WHERE kind = ?1 AND row_id = ?2 AND json_type(body, '$.fields.' || ?3) IS NOT NULL
            ) WHERE stamp NOT IN (SELECT stamp FROM hub_voided) ORDER BY stamp DESC LIMIT 1
            """), arguments: [row.table.rawValue, row.id, field]).map { HubValue($0[0] as DatabaseValue) }
    }

    /// Entry `id` as its table has it, by column.
    static func entryImage(_ db: Database, _ id: Int64) throws -> [HubValue]? {
        let columns = JournalTable.entry.columns.map { "\"\($0)\"" }.joined(separator: ", ")
        return try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM entry WHERE id = ?"), arguments: [id])
            .map { row in (0..<JournalTable.entry.columns.count).map { HubValue(row[$0] as DatabaseValue) } }
    }
}

/// The JSON the store keeps for the hub: the rows and writes of an
/// application.
enum HubJSON {
    /// `[["entry",2001],…]`: kinds and ids need no escaping.
    static func rows(_ rows: [HubRowKey]) -> String {
        "[" + rows.map { "[\"\($0.table.rawValue)\",\($0.id)]" }.joined(separator: ",") + "]"
    }

    /// `[["0001795…-00000-laptop","entry",2001],…]`: a stamp's device name
    /// is letters, digits and `.-_` only.
    static func writes(_ writes: [HubClaimWrite]) -> String {
        "[" + writes.map { "[\"\($0.stamp)\",\"\($0.row.table.rawValue)\",\($0.row.id)]" }.joined(separator: ",") + "]"
    }
}
