import GRDB
import TrackeeCore

/// A change the merge made that discarded someone's work.
public struct HubConflict: Sendable, Equatable {
    public var id: Int64
    /// `client`, `project` or `entry`.
    public var kind: String
    public var rowID: Int64
    /// `edited-deleted`, `deleted-in-use`, `applied-twice` or
    /// `overwritten`.
    public var what: String
    /// The device whose change won.
    public var device: String
    public var noticed: Instant
    /// For `overwritten`: the field two devices wrote, the value that lost
    /// (as the store keeps it: seconds for a time), and whose it was.
    public var field: String?
    public var lost: HubValue?
    public var lostDevice: String?
    /// The row's newest values: a client's or project's name; an
    /// entry's project, start and description.
    public var name: String?
    public var project: String?
    public var start: Instant?
    public var description: String?
}

extension Store {
    /// The conflicts not yet resolved, oldest first.
    public func hubConflicts() throws -> [HubConflict] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, kind, row_id, what, device, noticed, field, lost, lost_device
                FROM hub_conflict WHERE resolved IS NULL ORDER BY id
                """).map { row in
                var conflict = HubConflict(
                    id: row[0], kind: row[1], rowID: row[2], what: row[3], device: row[4],
                    noticed: Instant(seconds: row[5]), field: row[6],
                    lost: row[6] as String? == nil ? nil : HubValue(row[7] as DatabaseValue), lostDevice: row[8])
                guard let table = JournalTable(rawValue: conflict.kind) else { return conflict }
                let key = HubRowKey(table, conflict.rowID)
                switch table {
                case .client, .project:
                    conflict.name = try Self.liveField(db, key, "name")?.text
                case .entry:
                    if let project = try Self.liveField(db, key, "project_id")?.integer {
                        conflict.project = try String.fetchOne(
                            db, sql: "SELECT name FROM project WHERE id = ?", arguments: [project])
                    }
                    conflict.start = try Self.liveField(db, key, "start")?.integer.map(Instant.init(seconds:))
                    conflict.description = try Self.liveField(db, key, "description")?.text
                }
                return conflict
            }
        }
    }

    /// Resolves a conflict. `keep` undoes what the merge discarded, as a
    /// change made here that the next sync pushes: a row another device
    /// deleted (an entry edited here, a project entries used) comes back
    /// with its newest values; a field another device overwrote gets the
    /// value that lost. Otherwise the merge's result stands. Either way
    /// the conflict is closed.
    public func hubResolve(_ id: Int64, keep: Bool, now: Instant) throws -> HubConflict {
        guard let conflict = try hubConflicts().first(where: { $0.id == id }) else {
            throw StoreError.unknownConflict(id)
        }
        try write { db in
            if keep, let table = JournalTable(rawValue: conflict.kind) {
                let key = HubRowKey(table, conflict.rowID)
                switch conflict.what {
                case "applied-twice": break
                case "overwritten": try Self.restore(db, key, field: conflict, now: now)
                default: try Self.bringBack(db, key, now: now)
                }
            }
            try db.execute(sql: "UPDATE hub_conflict SET resolved = ?, resolution = ? WHERE id = ?",
                           arguments: [now.seconds, keep ? "kept" : "dropped", id])
        }
        return conflict
    }

    /// Makes a row that is not here again, with each field's newest write,
    /// as a change made here; what referred to it finds it again.
    private static func bringBack(_ db: Database, _ key: HubRowKey, now: Instant) throws {
        let table = key.table
        guard try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.rawValue) WHERE id = ?", arguments: [key.id]) == 0
        else { return }
        var row: [HubValue] = [.integer(key.id)]
        for (index, field) in table.fields.enumerated().dropFirst() {
            row.append(try liveField(db, key, field) ?? table.defaultValue(index))
        }
        if table == .entry, row[JournalTable.entryEnd] == .null,
           try Int.fetchOne(db, sql: #"SELECT count(*) FROM entry WHERE "end" IS NULL"#) == 1
        {
            // A timer brought back while another runs stays stopped at its start.
            row[JournalTable.entryEnd] = row[JournalTable.entryStart]
        }
        let reference: (column: Int, table: JournalTable)? = switch table {
        case .entry: (JournalTable.entryProject, .project)
        case .project: (JournalTable.projectClient, .client)
        case .client: nil
        }
        if let reference, let id = row[reference.column].integer,
           try Int.fetchOne(db, sql: "SELECT count(*) FROM \(reference.table.rawValue) WHERE id = ?", arguments: [id]) == 0
        {
            row[reference.column] = .null
        }
        var step = JournalStep("bring back \(table.rawValue) #\(key.id) (hub resolve)", at: now)
        let after = table.image(row)
        try JournalStep.restore(db, table, id: key.id, to: after)
        try step.record(db, table, id: key.id, before: nil, after: after)
        try db.execute(sql: "DELETE FROM hub_void WHERE kind = ? AND row_id = ?", arguments: [table.rawValue, key.id])
        guard table == .project else { return }
        for entry in try referring(db, to: key.id) {
            guard let current = try entryImage(db, entry), current[JournalTable.entryProject] == .null else { continue }
            var found = JournalStep("entry #\(entry) finds project #\(key.id) again (hub resolve)", at: now)
            let before = JournalTable.entry.image(current)
            try db.execute(sql: "UPDATE entry SET project_id = ? WHERE id = ?", arguments: [key.id, entry])
            var after = current
            after[JournalTable.entryProject] = .integer(key.id)
            try found.record(db, .entry, id: entry, before: before, after: JournalTable.entry.image(after))
        }
    }

    /// Gives a field the value another device's write discarded, as a
    /// change made here.
    private static func restore(_ db: Database, _ key: HubRowKey, field conflict: HubConflict, now: Instant) throws {
        guard let field = conflict.field, let column = key.table.field(field),
              let current = try Row.fetchOne(db, sql: "SELECT * FROM \(key.table.rawValue) WHERE id = ?", arguments: [key.id])
        else { return }
        var values = key.table.columns.map { HubValue(current[$0] as DatabaseValue) }
        let before = key.table.image(values)
        values[column] = conflict.lost ?? .null
        let after = key.table.image(values)
        var step = JournalStep("\(field) of \(key.table.rawValue) #\(key.id) as \(conflict.lostDevice ?? "it") had it (hub resolve)",
                               at: now)
        try JournalStep.restore(db, key.table, id: key.id, to: after)
        try step.record(db, key.table, id: key.id, before: before, after: after)
    }
}
