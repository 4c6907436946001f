import GRDB
import TrackeeCore

/// One user-visible change as the journal records it: every row that one
/// command, one intent or one rule firing changed, under one number and
/// label, so that `undo` reverts them together and the sync outbox and a
/// replica read them in order.
///
/// Each changed row is journaled by the write that changes it, in its
/// transaction, with the row's image before and after (JSON objects of
/// its columns, see ``JournalTable/image(_:)``; nil where it did not exist). The step's number is the
/// `seq` of its first row.
///
/// ```swift
/// var step = JournalStep("stop #12", at: now)
/// let before = running.image
/// running.end = now.seconds
/// try running.update(db)
/// try step.record(db, .entry, id: 12, before: before, after: running.image)
/// ```
struct JournalStep {
    let label: String
    let at: Instant
    /// The step this one reverts, for an undo.
    let undoes: Int64?
    /// The device a pulled change came from; nil for a change made here.
    var device: String?
    /// Made here by the hub (the joining snapshot, a merge's stop), not by
    /// a command: pushed, but passed over by undo.
    var automatic = false
    /// The `seq` of the step's first row; nil until a row is recorded.
    private(set) var id: Int64?

    init(_ label: String, at: Instant, undoes: Int64? = nil) {
        self.label = label
        self.at = at
        self.undoes = undoes
    }

    /// Journals one row's change, from its image before and after (nil
    /// where there is no row); a change that left the row as it was
    /// writes nothing.
    mutating func record(
        _ db: Database, _ table: JournalTable, id rowID: Int64, before: String?, after: String?, stamp: String? = nil
    ) throws {
        if before == after { return }
        // AUTOINCREMENT hands out one more than sqlite_sequence's value,
        // so a step's first row can name itself as its step.
        try db.cachedStatement(sql: """
            INSERT INTO journal (step, at, label, undoes, kind, row_id, before, after, stamp, device, automatic)
            VALUES (ifnull(?, ifnull((SELECT seq FROM sqlite_sequence WHERE name = 'journal'), 0) + 1), ?, ?, ?, ?, ?, ?, ?,
                    ?, ?, ?)
            """).execute(
            arguments: [id, at.seconds, label, undoes, table.rawValue, rowID, before, after, stamp, device, automatic])
        if id == nil { id = db.lastInsertedRowID }
    }

    /// True when row `id` of `table` is as `image` says (nil: no row),
    /// column by column, whoever wrote the image (a record, or SQL in a
    /// migration).
    static func matches(_ db: Database, _ table: JournalTable, id: Int64, _ image: String?) throws -> Bool {
        guard let image else {
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.rawValue) WHERE id = ?", arguments: [id]) == 0
        }
        let same = table.columns.dropFirst().map { "\"\($0)\" IS json_extract(?2, '$.\($0)')" }.joined(separator: " AND ")
        return try Int.fetchOne(
            db, sql: "SELECT count(*) FROM \(table.rawValue) WHERE id = ?1 AND \(same)", arguments: [id, image]) == 1
    }

    /// Makes row `id` of `table` equal `image` (nil: no row), inserting,
    /// updating or deleting it.
    static func restore(_ db: Database, _ table: JournalTable, id: Int64, to image: String?) throws {
        let exists = try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM \(table.rawValue) WHERE id = ?"), arguments: [id]) == 1
        let names = table.columns
        func value(_ column: String) -> String { "json_extract(?1, '$.\(column)')" }
        switch (image, exists) {
        case (nil, true):
            try db.cachedStatement(sql: "DELETE FROM \(table.rawValue) WHERE id = ?").execute(arguments: [id])
        case (let image?, false):
            try db.cachedStatement(
                sql: "INSERT INTO \(table.rawValue) (\(names.map { "\"\($0)\"" }.joined(separator: ", "))) VALUES (\(names.map(value).joined(separator: ", ")))"
            ).execute(arguments: [image])
        case (let image?, true):
            let sets = names.dropFirst().map { "\"\($0)\" = \(value($0))" }.joined(separator: ", ")
            try db.cachedStatement(sql: "UPDATE \(table.rawValue) SET \(sets) WHERE id = ?2").execute(arguments: [image, id])
        case (nil, false):
            break
        }
    }
}
