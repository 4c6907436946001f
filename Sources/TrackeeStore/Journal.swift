import GRDB
import TrackeeCore

/// A table whose rows the change journal keeps.
enum JournalTable: String {
    case client, project, entry
}

/// One user-visible change as the journal records it: every row that one
/// command, one intent or one rule firing changed, under one number and
/// label, so that `undo` reverts them together and the sync outbox and a
/// replica read them in order.
///
/// Each changed row is journaled by the write that changes it, in its
/// transaction, with the row's image before and after (JSON objects of
/// its columns; nil where it did not exist). The step's number is the
/// `seq` of its first row.
///
/// ```swift
/// var step = JournalStep("stop #12", at: now)
/// let before = try JournalStep.image(db, .entry, id: 12)
/// try db.execute(sql: "UPDATE entry SET \"end\" = ? WHERE id = 12", arguments: [now.seconds])
/// try step.record(db, .entry, id: 12, before: before)
/// ```
struct JournalStep {
    let label: String
    let at: Instant
    /// The step this one reverts, for an undo.
    let undoes: Int64?
    /// The `seq` of the step's first row; nil until a row is recorded.
    private(set) var id: Int64?

    init(_ label: String, at: Instant, undoes: Int64? = nil) {
        self.label = label
        self.at = at
        self.undoes = undoes
    }

    /// Journals one row's change: `before` is its image taken before the
    /// change; the image after is read by the insert itself, and a change
    /// that left the row as it was writes nothing.
    mutating func record(_ db: Database, _ table: JournalTable, id rowID: Int64, before: String?) throws {
        // AUTOINCREMENT hands out one more than sqlite_sequence's value,
        // so a step's first row can name itself as its step. One
        // statement per row: `stop` pays for this on every call.
        try db.execute(sql: """
            INSERT INTO journal (step, at, label, undoes, kind, row_id, before, after)
            SELECT ifnull(?, ifnull((SELECT seq FROM sqlite_sequence WHERE name = 'journal'), 0) + 1), ?, ?, ?, ?, ?, ?,
                   now.image
            FROM (SELECT (\(Self.imageSQL(table))) AS image) now
            WHERE now.image IS NOT ?
            """, arguments: [id, at.seconds, label, undoes, table.rawValue, rowID, before, rowID, before])
        if id == nil, db.changesCount > 0 { id = db.lastInsertedRowID }
    }

    /// A row's image: its columns as one JSON object, nil when there is
    /// no such row. A migration that adds a column to these tables adds
    /// it here and in ``restore(_:_:id:to:)``.
    static func image(_ db: Database, _ table: JournalTable, id: Int64) throws -> String? {
        try String.fetchOne(db, sql: imageSQL(table), arguments: [id])
    }

    private static func imageSQL(_ table: JournalTable) -> String {
        switch table {
        case .entry:
            return """
                SELECT json_object('id', id, 'project_id', project_id, 'description', description, 'tags', tags,
                                   'start', start, 'end', "end", 'source', source, 'created', created, 'updated', updated)
                FROM entry WHERE id = ?
                """
        case .project:
            return """
                SELECT json_object('id', id, 'client_id', client_id, 'name', name, 'type', type,
                                   'billable', billable, 'rate_cents', rate_cents, 'created', created)
                FROM project WHERE id = ?
                """
        case .client:
            return "SELECT json_object('id', id, 'name', name, 'created', created) FROM client WHERE id = ?"
        }
    }

    private static func columns(_ table: JournalTable) -> [String] {
        switch table {
        case .entry: return ["id", "project_id", "description", "tags", "start", "end", "source", "created", "updated"]
        case .project: return ["id", "client_id", "name", "type", "billable", "rate_cents", "created"]
        case .client: return ["id", "name", "created"]
        }
    }

    /// Makes row `id` of `table` equal `image` (nil: no row), inserting,
    /// updating or deleting it.
    static func restore(_ db: Database, _ table: JournalTable, id: Int64, to image: String?) throws {
        let exists = try Int.fetchOne(
            db, sql: "SELECT count(*) FROM \(table.rawValue) WHERE id = ?", arguments: [id]) == 1
        let names = columns(table)
        func value(_ column: String) -> String { "json_extract(?1, '$.\(column)')" }
        switch (image, exists) {
        case (nil, true):
            try db.execute(sql: "DELETE FROM \(table.rawValue) WHERE id = ?", arguments: [id])
        case (let image?, false):
            try db.execute(
                sql: "INSERT INTO \(table.rawValue) (\(names.map { "\"\($0)\"" }.joined(separator: ", "))) VALUES (\(names.map(value).joined(separator: ", ")))",
                arguments: [image])
        case (let image?, true):
            let sets = names.dropFirst().map { "\"\($0)\" = \(value($0))" }.joined(separator: ", ")
            try db.execute(sql: "UPDATE \(table.rawValue) SET \(sets) WHERE id = ?2", arguments: [image, id])
        case (nil, false):
            break
        }
    }
}
