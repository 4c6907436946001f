import GRDB
import TrackeeCore

extension Store {
    /// Takes a batch of pulled changes into the store, in one transaction
    /// that also moves the pull cursor past them. The changes made here
    /// are stamped first, so that each is weighed with the stamp it will
    /// carry; then the store reads what the batch concerns
    /// (``HubMergeInput``), `merge` decides every write (a pure function of
    /// that input), and the store makes them.
    public func hubApply(
        _ changes: [HubChange], through cursor: Int64, now: Instant, physical: Int64,
        merge: (HubMergeInput) -> HubMergeResult
    ) throws -> HubApplyReport {
        try write { db in
            try Self.stampPending(db)
            guard let device = try Row.fetchOne(db, sql: "SELECT name, clock FROM hub_device WHERE number IS NOT NULL")
            else { throw StoreError.hubNotJoined }
            var input = HubMergeInput(
                device: device[0], changes: changes, clock: Self.clock(device), physical: physical, now: now)
            var reader = HubMergeReader(db: db)
            try reader.read(&input)
            var plan: HubMergePlan
            while true {
                switch merge(input) {
                case .plan(let made):
                    plan = made
                case .needs(let needs):
                    guard needs.timerBornFrom < input.timerBornFrom else {
                        preconditionFailure("the merge asked again for what it was given")
                    }
                    try reader.timers(from: needs.timerBornFrom, into: &input)
                    continue
                }
                break
            }
            var writer = HubMergeWriter(db: db, now: now, loaded: Set(input.rows.keys).union(plan.rows.map(\.row)))
            try writer.apply(plan)
            try db.execute(sql: "UPDATE hub_device SET pulled = max(pulled, ?), clock = ?",
                           arguments: [cursor, plan.clock.description])
            // Every row is stamped now, or was pulled: the next stamping
            // starts after them. And when nothing made here waits to be
            // pushed, the next push looks from here on, not through what
            // was pulled since the last.
            try db.execute(sql: """
                UPDATE hub_device SET stamped = max(stamped, ifnull((SELECT max(seq) FROM journal), 0));
                UPDATE hub_device SET pushed = ifnull((SELECT max(seq) FROM journal), 0)
                WHERE NOT EXISTS (SELECT 1 FROM journal j WHERE j.seq > hub_device.pushed AND j.device IS NULL
                                  AND j.step <> 0 AND j.seq >= hub_device.first_seq);
                """)
            var report = plan.report
            report.conflicts = writer.conflicts
            return report
        }
    }
}

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
        let log = try db.cachedStatement(sql: """
            INSERT INTO intent_log (applied, at, source, action, parameters, outcome, entry_id, previous_entry_id, key,
                                    firing, device, voided)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for pulled in plan.logs {
            let r = pulled.row
            try log.execute(arguments: [
                r.applied, r.at, r.source, r.action, r.parameters, r.outcome, r.entryID, r.previousEntryID, r.key,
                r.firing, pulled.device, pulled.voided,
            ])
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
            try db.cachedStatement(sql: sql.insert).execute(arguments: StatementArguments(after.map(\.databaseValue)))
        case (_?, let after?):
            try db.cachedStatement(sql: sql.update)
                .execute(arguments: StatementArguments(after.dropFirst().map(\.databaseValue) + [change.row.id.databaseValue]))
        case (nil, nil):
            return
        }
        try journal(change.row, before: change.before, after: change.after, device: change.device, stamp: change.stamp)
    }

    /// Each table's statements, written once from its columns.
    private static let statements: [JournalTable: (columns: String, insert: String, update: String, delete: String)] =
        Dictionary(uniqueKeysWithValues: JournalTable.allCases.map { table in
            let columns = table.columns
            let into = "INSERT INTO \(table.rawValue) (\(columns.map { "\"\($0)\"" }.joined(separator: ", ")))"
            return (table, (
                columns: into,
                insert: into + " VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))",
                update: "UPDATE \(table.rawValue) SET \(columns.dropFirst().map { "\"\($0)\" = ?" }.joined(separator: ", ")) "
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
            entries.reserveCapacity(rows.count * 9)
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
                    HubJSON.image(.entry, after).databaseValue, text.databaseValue, stamp.device.databaseValue,
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
         values(statements[.entry]!.columns, 9, rows),
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
                row.table.rawValue, row.id, before.map { HubJSON.image(row.table, $0) },
                after.map { HubJSON.image(row.table, $0) }, stamp?.description, device ?? HubMergeWriter.derived,
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

/// The JSON the store keeps for the hub: journal images, and the rows and
/// writes of an application.
enum HubJSON {
    static func image(_ table: JournalTable, _ values: [HubValue]) -> String {
        var o = JSONObject()
        for (column, value) in zip(table.columns, values) {
            switch value {
            case .null: o.add(column, nil as Int64?)
            case .integer(let n): o.add(column, n)
            case .text(let t): o.add(column, t)
            }
        }
        return o.closed
    }

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
