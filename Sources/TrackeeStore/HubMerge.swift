import GRDB
import TrackeeCore
import TrackeeHub

/// Takes pulled changes into the store, inside one write transaction. The
/// rules, which give every device the same rows whatever order the
/// changes arrive in:
///
/// - Each field of a row keeps the value of its newest write by hybrid
///   logical clock stamp (``Store/hubValues``: `hub_field`, or the `hub_row` a
///   pull made the row from); `_exists` is a field too, so a
///   delete is a tombstone and an undo after it a newer write.
/// - The row in its table is what its fields say, read through two maps
///   that every device computes alike: a reference to an alias means its
///   canonical row, and a reference to a row that is not here (deleted)
///   means none.
/// - A client or project made on two devices under one name is one: the
///   smaller id is canonical, the other an alias of it.
/// - A timer the pull makes run while another runs here ends where the
///   later of the two began; that stop is stamped at once, as a change
///   made here, and pushed.
/// - A key (an intent's, a rule firing's, `add --key`'s) applied on two
///   devices stands once: the application with the earlier stamp. The
///   rows the other made are void (absent everywhere), and the device
///   that made them takes back the rest of what it did.
/// - Where that discarded someone's work, the row is noted in
///   `hub_conflict`: an edit and a delete of one entry from two devices,
///   a client or project deleted while rows here used it.
///
/// Rows the maps change, with no field changed, are journaled with the
/// device `(merge)`: never pushed (every device makes them itself), and
/// passed over by undo.
struct HubMerge {
    let db: Database
    var clock: HybridClock
    let physical: Int64
    let now: Instant
    var report = HubApplyReport()
    /// The journal step of the change being applied.
    private var step: JournalStep?

    init(db: Database, clock: HybridClock, physical: Int64, now: Instant) {
        self.db = db
        self.clock = clock
        self.physical = physical
        self.now = now
    }

    static let derived = "(merge)"

    mutating func apply(_ change: HubIncomingChange) throws {
        if change.kind == "key" { return try applyKey(change) }
        guard let stamp = HybridStamp(change.clock), let table = JournalTable(rawValue: change.kind),
              let parsed = try Row.fetchOne(
                  db.cachedStatement(sql: """
                      SELECT json_extract(?1, '$.id'), json(json_extract(?1, '$.fields')),
                             json_extract(?1, '$.fields._exists')
                      """), arguments: [change.body]),
              let id = parsed[0] as Int64?, let fields = parsed[1] as String?
        else {
            report.warnings.append(
                "hub change \(change.id) from \(change.device) cannot be read (\(change.kind) \(change.clock)); skipped")
            return
        }
        receive(stamp)
        let tombstone = table == .entry ? try field(table, id, "_exists") : nil
        let deletes = parsed[2] as Int64? == 0
        guard try Store.setFields(db, kind: change.kind, id: id, fields: fields, stamp: change.clock) else {
            report.superseded += 1
            return
        }
        if table == .entry {
            if !deletes, let tombstone, tombstone.value == 0, tombstone.device != change.device {
                // An edit of an entry another device deleted.
                try conflict(table, id, "edited-deleted", device: tombstone.device)
            } else if deletes, try editedElsewhere(id, than: change.device) {
                try conflict(table, id, "edited-deleted", device: change.device)
            }
        }
        var pulled = JournalStep("from \(change.device)", at: now)
        pulled.device = change.device
        step = pulled
        try project(table, id, stamp: change.clock)
        step = nil
        report.applied += 1
    }

    /// A key applied on another device: entered into the ledger here, so
    /// that applying it here changes nothing. Of the applications of one
    /// key this device knows, the one with the earliest stamp stands; the
    /// rows the others made are void (absent everywhere), and when one of
    /// them is this device's own, it also takes back the rest of what it
    /// did (a timer its start had stopped runs again).
    private mutating func applyKey(_ change: HubIncomingChange) throws {
        guard HybridStamp(change.clock) != nil,
              let row = try Row.fetchOne(db, sql: """
                  SELECT json_extract(?1, '$.key'), json_extract(?1, '$.kind'), json(json_extract(?1, '$.row')),
                         ifnull(json(json_extract(?1, '$.made')), '[]')
                  """, arguments: [change.body]),
              let key = row[0] as String?, let kind = (row[1] as String?).flatMap(HubKeys.Kind.init(rawValue:)),
              let ledger = row[2] as String?
        else {
            report.warnings.append(
                "hub change \(change.id) from \(change.device) cannot be read (key \(change.clock)); skipped")
            return
        }
        if let stamp = HybridStamp(change.clock) { receive(stamp) }
        try db.execute(sql: """
            INSERT INTO hub_key (kind, key, body, made, stamp, device) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
            """, arguments: [kind.rawValue, key, ledger, row[3] as String, change.clock, change.device])
        if kind == .log {
            // An intent without a key claims nothing: it joins the log once.
            guard db.changesCount == 1 else { return }
            guard try HubKeys.enter(log: ledger, device: change.device, db) else {
                report.warnings.append(
                    "hub change \(change.id) from \(change.device) is not an intent (log \(key)); skipped")
                return
            }
            report.applied += 1
            return
        }
        let claims = try Row.fetchAll(db, sql: """
            SELECT seq, device, steps, made, superseded_by FROM hub_key
            WHERE kind = ? AND key = ? AND stamp IS NOT NULL ORDER BY stamp
            """, arguments: [kind.rawValue, key])
        guard let first = claims.first else { return }
        let winner = (first[1] as String?) ?? clock.device
        for claim in claims.dropFirst() {
            if claim[1] as String? == nil, claim[4] as String? == nil {
                try takeBack(steps: claim[2], key: key, first: winner)
                try db.execute(sql: "UPDATE hub_key SET superseded_by = ? WHERE seq = ?",
                               arguments: [winner, claim[0] as Int64])
            }
            try void(claim[3])
        }
        try HubKeys.enter(db, kind, key: key, row: ledger, device: change.device)
        report.applied += 1
    }

    /// Voids the rows a superseded application made (`made`: JSON
    /// [kind, id] pairs): each is absent from then on, on every device.
    private mutating func void(_ made: String) throws {
        let rows = try Row.fetchAll(
            db, sql: "SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)", arguments: [made])
        for row in rows {
            guard let table = JournalTable(rawValue: row[0]) else { continue }
            let id: Int64 = row[1]
            try db.execute(sql: "INSERT INTO hub_void (kind, row_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                           arguments: [table.rawValue, id])
            if db.changesCount > 0 { try project(table, id, stamp: nil) }
        }
    }

    /// Takes back what the journal steps `steps` (a JSON array) made: a
    /// row they made is deleted, a row they deleted comes back, and each
    /// field they changed that still holds their value gets its old one.
    /// The changes are made here, stamped now and pushed.
    private mutating func takeBack(steps: String?, key: String, first device: String) throws {
        let numbers = try Int64.fetchAll(db, sql: "SELECT value FROM json_each(?)", arguments: [steps ?? "[]"])
        var undo = JournalStep("take back key \(key): \(device) applied it first", at: now)
        undo.automatic = true
        let stamp = try Store.stamp(&clock, physical: physical).description
        for number in numbers.sorted(by: >) {
            let rows = try Row.fetchAll(db, sql: """
                SELECT kind, row_id, before, after FROM journal WHERE seq >= ?1 AND step = ?1 ORDER BY seq DESC
                """, arguments: [number])
            for row in rows {
                guard let table = JournalTable(rawValue: row[0]) else { continue }
                let id: Int64 = row[1]
                let current = try Self.image(db, table, id)
                let target = try Self.takenBack(db, table, current: current, before: row[2], after: row[3])
                guard target != current else { continue }
                do {
                    try db.inSavepoint {
                        try JournalStep.restore(db, table, id: id, to: target)
                        return .commit
                    }
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    try conflict(table, id, "applied-twice", device: device)
                    continue
                }
                try undo.record(db, table, id: id, before: current, after: target, stamp: stamp)
                let fields = try String.fetchOne(
                    db, sql: "SELECT \(Store.fields) FROM (SELECT ? AS before, ? AS after) j", arguments: [current, target])
                try Store.setFields(db, kind: table.rawValue, id: id, fields: fields ?? "{}", stamp: stamp)
            }
        }
    }

    /// A row as it is (`current`) with a step's change (`before` to
    /// `after`) taken back.
    private static func takenBack(
        _ db: Database, _ table: JournalTable, current: String?, before: String?, after: String?
    ) throws -> String? {
        guard let before else { return nil }
        guard let after else { return current ?? before }
        guard let current else { return nil }
        var row = try values(db, current)
        let was = try values(db, before), made = try values(db, after)
        for (field, value) in made where was[field] != value && row[field] == value {
            row[field] = was[field] ?? .null
        }
        return image(table, row)
    }

    /// A journal image's fields.
    private static func values(_ db: Database, _ image: String) throws -> [String: DatabaseValue] {
        Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT key, value FROM json_each(?)", arguments: [image])
            .map { ($0[0] as String, $0[1] as DatabaseValue) })
    }

    /// Takes a pulled change's stamp into the clock. Never refused here:
    /// the device that made a change too far ahead is refused when it
    /// pushes.
    mutating func receive(_ stamp: HybridStamp) {
        try? clock.receive(stamp, physical: max(physical, stamp.wall - HybridClock.maximumLead))
    }

    /// Makes row `id` of `table` what its fields say; `stamp` is the
    /// pulled change's (nil when a map, not a field, changed).
    private mutating func project(_ table: JournalTable, _ id: Int64, stamp: String?) throws {
        // Whether a client or project is another's alias follows from the
        // fields alone (their names, whether they exist): it is decided
        // again each time.
        var wasAlias = false
        if table != .entry {
            try db.cachedStatement(sql: "DELETE FROM hub_alias WHERE kind = ? AND alias = ?")
                .execute(arguments: [table.rawValue, id])
            wasAlias = db.changesCount > 0
        }
        let current = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM \(table.rawValue) WHERE id = ?"), arguments: [id])
        var after = try desired(table, id, current: current)
        var aliasOf: Int64?
        if table != .entry, let wanted = after, let other = try clashing(table, wanted, id: id) {
            if id < other {
                try alias(table, other, to: id)
                try detachChildren(table, other, deleted: false)
                try write(table, other, to: nil, stamp: nil)
            } else {
                try alias(table, id, to: other)
                after = nil
                aliasOf = other
            }
        }
        var closedByMerge: (open: String, closed: String, end: Int64)?
        if table == .entry, var opened = after, opened["end"] == .null,
           let other = try EntryRecord.fetchOne(
               db.cachedStatement(sql: #"SELECT * FROM entry WHERE "end" IS NULL AND id <> ?"#), arguments: [id])
        {
            let start = Int64.fromDatabaseValue(opened["start"] ?? .null) ?? 0
            if (other.start, other.id!) < (start, id) {
                var stopped = other
                stopped.end = start
                try stopped.update(db)
                try mergeStop(other.id!, before: other.image, after: stopped.image, end: start)
            } else {
                let open = Self.image(table, opened)
                opened["end"] = other.start.databaseValue
                after = opened
                closedByMerge = (open, Self.image(table, opened), other.start)
            }
        }
        if table != .entry, after == nil, current != nil { try detachChildren(table, id, deleted: aliasOf == nil) }
        try write(table, id, to: after, stamp: stamp)
        if let closedByMerge {
            try mergeStop(id, before: closedByMerge.open, after: closedByMerge.closed, end: closedByMerge.end)
        }
        guard table != .entry else { return }
        if let aliasOf {
            // What names this row means the one it is an alias of.
            try reattachChildren(table, aliasOf)
        } else if let after {
            // Renamed: the rows that were its aliases by their name may
            // not be any more.
            if let current, current["name"] as DatabaseValue != after["name"]
                || (table == .project && current["client_id"] as DatabaseValue != after["client_id"])
            {
                try releaseAliases(table, id)
            }
            try reattachChildren(table, id)
        } else {
            // Gone: what named it as an alias names nothing here, and the
            // rows that were its aliases stand again.
            if wasAlias { try reattachChildren(table, id) }
            try releaseAliases(table, id)
        }
    }

    /// The row its fields and the maps make; nil for a tombstone or an alias.
    private func desired(_ table: JournalTable, _ id: Int64, current: Row?, existing: Bool = true) throws
        -> [String: DatabaseValue]?
    {
        if table != .entry, try canonical(table, id) != id { return nil }
        if try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM hub_void WHERE kind = ? AND row_id = ?"),
            arguments: [table.rawValue, id]) == 1
        {
            return nil
        }
        let values = Dictionary(
            uniqueKeysWithValues: try Row.fetchAll(
                db.cachedStatement(sql: "SELECT field, value FROM \(Store.hubValues) v WHERE kind = ? AND row_id = ?"),
                arguments: [table.rawValue, id]
            ).map { ($0[0] as String, $0[1] as DatabaseValue) })
        // Not yet made here: the change that made it (every field, among
        // them `created`) has not come, only later ones.
        guard !existing || values["_exists"].flatMap(Int64.fromDatabaseValue) == 1, values["created"] != nil else {
            return nil
        }
        var row: [String: DatabaseValue] = [:]
        for column in JournalStep.columns(table) {
            row[column] = column == "id" ? id.databaseValue
                : values[column] ?? current?[column] as DatabaseValue? ?? Self.defaultValue(table, column)
        }
        switch table {
        case .entry: row["project_id"] = try reference(.project, row["project_id"]!)
        case .project: row["client_id"] = try reference(.client, row["client_id"]!)
        case .client: break
        }
        return row
    }

    /// What a reference to `table` means here: its canonical row, or
    /// none when that row is not here.
    private func reference(_ table: JournalTable, _ value: DatabaseValue) throws -> DatabaseValue {
        guard let id = Int64.fromDatabaseValue(value) else { return .null }
        let target = try canonical(table, id)
        let here = try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM \(table.rawValue) WHERE id = ?"), arguments: [target]) == 1
        return here ? target.databaseValue : .null
    }

    private func canonical(_ table: JournalTable, _ id: Int64) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT canonical FROM hub_alias WHERE kind = ? AND alias = ?"),
            arguments: [table.rawValue, id]) ?? id
    }

    /// Another row of `table` here with the same name (and client).
    private func clashing(_ table: JournalTable, _ row: [String: DatabaseValue], id: Int64) throws -> Int64? {
        switch table {
        case .client:
            return try Int64.fetchOne(
                db, sql: "SELECT id FROM client WHERE name = ? AND id <> ?", arguments: [row["name"], id])
        case .project:
            return try Int64.fetchOne(db, sql: """
                SELECT id FROM project WHERE ifnull(client_id, 0) = ifnull(?, 0) AND name = ? COLLATE NOCASE AND id <> ?
                """, arguments: [row["client_id"], row["name"], id])
        case .entry:
            return nil
        }
    }

    private func alias(_ table: JournalTable, _ alias: Int64, to canonical: Int64) throws {
        try db.execute(sql: """
            INSERT INTO hub_alias (kind, alias, canonical) VALUES (?, ?, ?)
            ON CONFLICT (kind, alias) DO UPDATE SET canonical = excluded.canonical
            """, arguments: [table.rawValue, alias, canonical])
        // What named the alias now names its canonical row.
        try db.execute(sql: "UPDATE hub_alias SET canonical = ? WHERE kind = ? AND canonical = ?",
                       arguments: [canonical, table.rawValue, alias])
    }

    /// A row that is gone (deleted, void) or renamed stops standing for
    /// its aliases: each is decided again, smallest first, so the smallest
    /// that exists under the old name is the row and the others its
    /// aliases, as if the gone row had never been made.
    private mutating func releaseAliases(_ table: JournalTable, _ id: Int64) throws {
        let aliases = try Int64.fetchAll(
            db, sql: "SELECT alias FROM hub_alias WHERE kind = ? AND canonical = ? ORDER BY alias",
            arguments: [table.rawValue, id])
        for alias in aliases { try project(table, alias, stamp: nil) }
    }

    /// The rows that refer to a client (projects) or a project (entries).
    private func children(_ table: JournalTable) -> (table: JournalTable, column: String) {
        table == .client ? (.project, "client_id") : (.entry, "project_id")
    }

    /// Clears every reference here to row `id`, before it goes; noted as
    /// a conflict when it goes because it was deleted.
    private mutating func detachChildren(_ table: JournalTable, _ id: Int64, deleted: Bool) throws {
        let (childTable, column) = children(table)
        let ids = try Int64.fetchAll(
            db, sql: "SELECT id FROM \(childTable.rawValue) WHERE \(column) = ? ORDER BY id", arguments: [id])
        for child in ids {
            let before = try Self.image(db, childTable, child)
            try db.execute(sql: "UPDATE \(childTable.rawValue) SET \(column) = NULL WHERE id = ?", arguments: [child])
            try journal(childTable, child, before: before, after: Self.image(db, childTable, child), stamp: nil)
        }
        if deleted, !ids.isEmpty {
            try conflict(table, id, "deleted-in-use", device: step?.device ?? HubMerge.derived)
        }
    }

    /// Points the rows whose fields refer to row `id` (or an alias of it)
    /// at it again.
    private mutating func reattachChildren(_ table: JournalTable, _ id: Int64) throws {
        let (childTable, column) = children(table)
        // By the indexes on references, named: with no statistics SQLite
        // would read every hub_row of the kind instead. Only entries have
        // hub_row rows (the pull's fast path makes entries alone).
        let rows = childTable != .entry ? "" : """
            UNION
            SELECT r.row_id FROM hub_row r INDEXED BY hub_row_project
            WHERE r.kind = 'entry' AND json_extract(r.body, '$.fields.project_id') IN target
              AND NOT EXISTS (SELECT 1 FROM hub_field f WHERE f.kind = 'entry' AND f.row_id = r.row_id AND f.field = 'project_id')
            """
        let ids = try Int64.fetchAll(db, sql: """
            WITH target(id) AS (SELECT ?2 UNION SELECT alias FROM hub_alias WHERE kind = ?3 AND canonical = ?2)
            SELECT x.row_id FROM (
                SELECT f.row_id FROM hub_field f INDEXED BY hub_field_reference
                WHERE f.kind = ?1 AND f.field = '\(column)' AND f.value IN target
                \(rows)
            ) x JOIN \(childTable.rawValue) c ON c.id = x.row_id
            WHERE c.\(column) IS NOT ?2 ORDER BY x.row_id
            """, arguments: [childTable.rawValue, id, table.rawValue])
        for child in ids { try project(childTable, child, stamp: nil) }
    }

    /// Writes the row (nil: deletes it) and journals the change.
    private mutating func write(
        _ table: JournalTable, _ id: Int64, to row: [String: DatabaseValue]?, stamp: String?
    ) throws {
        let before = try Self.image(db, table, id)
        let after = row.map { Self.image(table, $0) }
        guard before != after else { return }
        try JournalStep.restore(db, table, id: id, to: after)
        try journal(table, id, before: before, after: after, stamp: stamp)
    }

    private mutating func journal(_ table: JournalTable, _ id: Int64, before: String?, after: String?, stamp: String?)
        throws
    {
        if stamp != nil, var pulled = step {
            try pulled.record(db, table, id: id, before: before, after: after, stamp: stamp)
            step = pulled
        } else {
            var derived = JournalStep("merge on \(HubMerge.derived)", at: now)
            derived.device = HubMerge.derived
            try derived.record(db, table, id: id, before: before, after: after)
        }
    }

    /// The stop of a timer another device's start follows: a change made
    /// here, stamped now and pushed.
    private mutating func mergeStop(_ id: Int64, before: String, after: String, end: Int64) throws {
        var merge = JournalStep("stop #\(id): a later timer came from \(step?.device ?? "the hub")", at: now)
        merge.automatic = true
        let stamp = try Store.stamp(&clock, physical: physical).description
        try merge.record(db, .entry, id: id, before: before, after: after, stamp: stamp)
        try Store.setFields(db, kind: JournalTable.entry.rawValue, id: id, fields: #"{"end":\#(end)}"#, stamp: stamp)
        report.timersStopped += 1
    }

    private mutating func conflict(_ table: JournalTable, _ id: Int64, _ what: String, device: String) throws {
        try db.execute(sql: """
            INSERT INTO hub_conflict (kind, row_id, what, device, noticed) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            """, arguments: [table.rawValue, id, what, device, now.seconds])
        if db.changesCount > 0 { report.conflicts += 1 }
    }

    /// A field's value, stamp and the stamp's device.
    private func field(_ table: JournalTable, _ id: Int64, _ name: String) throws
        -> (value: Int64?, device: String)?
    {
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT value, stamp FROM \(Store.hubValues) v WHERE kind = ? AND row_id = ? AND field = ?"),
            arguments: [table.rawValue, id, name])
        else { return nil }
        return (row[0], HybridStamp(row[1] as String)?.device ?? "")
    }

    /// Whether a device other than `device` edited entry `id` after it
    /// was made (a field written by another stamp than `_exists`' first).
    private func editedElsewhere(_ id: Int64, than device: String) throws -> Bool {
        let stamps = try String.fetchAll(db, sql: """
            SELECT stamp FROM \(Store.hubValues) v WHERE kind = 'entry' AND row_id = ? AND field NOT IN ('_exists', 'created')
            """, arguments: [id])
        let created = try String.fetchOne(
            db, sql: "SELECT stamp FROM \(Store.hubValues) v WHERE kind = 'entry' AND row_id = ? AND field = 'created'",
            arguments: [id])
        return stamps.contains { $0 != created && HybridStamp($0)?.device != device }
    }

    /// Brings a row back with its newest values, as a change made here
    /// (`hub resolve --keep`), and points the rows that refer to it at it
    /// again.
    static func restore(_ db: Database, _ table: JournalTable, _ id: Int64, now: Instant) throws {
        var merge = HubMerge(db: db, clock: HybridClock(device: ""), physical: 0, now: now)
        let current = try Row.fetchOne(db, sql: "SELECT * FROM \(table.rawValue) WHERE id = ?", arguments: [id])
        guard current == nil, var row = try merge.desired(table, id, current: nil, existing: false) else { return }
        if table == .entry, row["end"] == .null,
           try Int.fetchOne(db, sql: #"SELECT count(*) FROM entry WHERE "end" IS NULL"#) == 1
        {
            // A timer brought back while another runs stays stopped at its start.
            row["end"] = row["start"]
        }
        var step = JournalStep("bring back \(table.rawValue) #\(id) (hub resolve)", at: now)
        let after = image(table, row)
        try JournalStep.restore(db, table, id: id, to: after)
        try step.record(db, table, id: id, before: nil, after: after)
        try db.execute(sql: "DELETE FROM hub_void WHERE kind = ? AND row_id = ?", arguments: [table.rawValue, id])
        if table != .entry { try merge.reattachChildren(table, id) }
    }

    /// A row's journal image as it is in its table; nil when absent.
    static func image(_ db: Database, _ table: JournalTable, _ id: Int64) throws -> String? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM \(table.rawValue) WHERE id = ?"), arguments: [id]).map { row in
            image(table, Dictionary(uniqueKeysWithValues: row.columnNames.map { ($0, row[$0] as DatabaseValue) }))
        }
    }

    static func image(_ table: JournalTable, _ values: [String: DatabaseValue]) -> String {
        let row = Row(values)
        switch table {
        case .client: return ClientRecord(row: row).image
        case .project: return ProjectRecord(row: row).image
        case .entry: return EntryRecord(row: row).image
        }
    }

    /// What a column holds when no change has set it yet.
    static func defaultValue(_ table: JournalTable, _ column: String) -> DatabaseValue {
        switch (table, column) {
        case (.entry, "description"), (.entry, "tags"), (.entry, "source"), (.client, "name"), (.project, "name"):
            return "".databaseValue
        case (.project, "billable"), (_, "created"), (_, "updated"), (.entry, "start"):
            return 0.databaseValue
        default:
            return .null
        }
    }
}
