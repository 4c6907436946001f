import GRDB
import TrackeeCore

/// One row an undo put back as it was before the undone step.
public struct RevertedRow: Sendable, Equatable {
    /// What the undo did to the row.
    public enum Change: String, Sendable {
        /// The step had created it; the undo deleted it.
        case removed
        /// The step had deleted it; the undo put it back with its id.
        case restored
        /// The step had changed it; the undo set its old values again.
        case reverted
    }

    /// `client`, `project` or `entry`.
    public var table: String
    public var id: Int64
    public var change: Change
    /// A client's or project's name: as restored, or as it was when removed.
    public var name: String?
    /// An entry as the undo left it; nil once removed.
    public var entry: Entry?
    /// An entry ran as the undone step left it (so running now is not "again").
    public var wasRunning: Bool
}

/// What `undo` reverted.
public struct UndoneStep: Sendable, Equatable {
    /// The step reverted, and its label.
    public var step: Int64
    public var label: String
    /// The step the undo itself was journaled as.
    public var undoStep: Int64
    /// The rows put back, in the order the undone step had changed them.
    public var rows: [RevertedRow]
}

/// One step of the journal, for `undo --list`.
public struct JournalStepSummary: Sendable, Equatable {
    public var step: Int64
    public var at: Instant
    public var label: String
    /// For an undo: the step it reverted.
    public var undoes: Int64?
    /// For a step since undone: the undo's step.
    public var undoneBy: Int64?
    /// How many rows it changed.
    public var rows: Int
}

extension Store {
    /// Reverts the newest step made here by a command (not pulled from the
    /// hub, nor made by it) that is neither undone nor an undo, in one
    /// transaction, as a new step that names it in `undoes` (so the sync
    /// outbox pushes the reverted state, and a second undo goes one step
    /// further back). Refuses, changing nothing, when a row the step
    /// changed no longer looks as the step left it.
    ///
    /// The firing ledger and the intent log are not touched: an undone
    /// rule firing stays fired, and a replay of it changes nothing.
    public func undo(now: Instant) throws -> UndoneStep {
        try write { db in
            let undone = Set(try Int64.fetchAll(db, sql: "SELECT DISTINCT undoes FROM journal WHERE undoes IS NOT NULL"))
            var target: (step: Int64, label: String)?
            let firsts = try Row.fetchCursor(
                db, sql: """
                    SELECT step, label FROM journal
                    WHERE seq = step AND undoes IS NULL AND device IS NULL AND automatic = 0 ORDER BY seq DESC
                    """)
            while let row = try firsts.next() {
                let step: Int64 = row[0]
                if !undone.contains(step) {
                    target = (step, row[1])
                    break
                }
            }
            guard let target else { throw StoreError.nothingToUndo }
            let rows = try Row.fetchAll(db, sql: """
                SELECT seq, kind, row_id, before, after FROM journal WHERE seq >= ?1 AND step = ?1 ORDER BY seq
                """, arguments: [target.step]).map {
                (seq: $0[0] as Int64, table: JournalTable(rawValue: $0[1])!, id: $0[2] as Int64,
                 before: $0[3] as String?, after: $0[4] as String?)
            }
            for row in rows where try !JournalStep.matches(db, row.table, id: row.id, row.after) {
                throw StoreError.undoConflict(step: target.label, reason: try changedOutside(db, row.table, id: row.id))
            }
            var step = JournalStep("undo \"\(target.label)\"", at: now, undoes: target.step)
            // An import undone is forgotten: importing the file again adds
            // its rows again.
            try db.execute(sql: "DELETE FROM import_key WHERE step = ?", arguments: [target.step])
            // Backwards, so parents come back before their children and
            // children go before their parents.
            for row in rows.reversed() {
                do {
                    try JournalStep.restore(db, row.table, id: row.id, to: row.before)
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    throw StoreError.undoConflict(step: target.label, reason: try blocked(db, row.table, image: row.before))
                }
                try step.record(db, row.table, id: row.id, before: row.after, after: row.before)
            }
            return UndoneStep(
                step: target.step, label: target.label, undoStep: step.id ?? 0,
                rows: try rows.map { row in
                    let image = row.before ?? row.after
                    return RevertedRow(
                        table: row.table.rawValue, id: row.id,
                        change: row.before == nil ? .removed : row.after == nil ? .restored : .reverted,
                        name: row.table == .entry ? nil : try image.flatMap {
                            try String.fetchOne(db, sql: "SELECT json_extract(?, '$.name')", arguments: [$0])
                        },
                        entry: row.table == .entry ? try entryIfPresent(db, id: row.id) : nil,
                        wasRunning: try row.after.map {
                            try Bool.fetchOne(db, sql: "SELECT json_extract(?, '$.end') IS NULL", arguments: [$0]) ?? false
                        } ?? false)
                })
        }
    }

    /// Says how a row differs from what the step left. Every later step
    /// is undone before this one, so what changed it is not in the
    /// journal: a hand edit of the file, or a trackee before v11.
    private func changedOutside(_ db: Database, _ table: JournalTable, id: Int64) throws -> String {
        let what = table == .entry ? "entry #\(id)" : try "\(table.rawValue) \"\(name(db, table, id: id) ?? "\(id)")\""
        let gone = try JournalStep.matches(db, table, id: id, nil)
        return "\(what) was \(gone ? "deleted" : "changed") since by something other than trackee"
    }

    private func name(_ db: Database, _ table: JournalTable, id: Int64) throws -> String? {
        try String.fetchOne(db, sql: "SELECT name FROM \(table.rawValue) WHERE id = ?", arguments: [id])
    }

    /// Why putting a row back broke a constraint.
    private func blocked(_ db: Database, _ table: JournalTable, image: String?) throws -> String {
        let name = try image.flatMap { try String.fetchOne(db, sql: "SELECT json_extract(?, '$.name')", arguments: [$0]) } ?? ""
        switch table {
        case .client: return "another client is named \"\(name)\" now; rename it first"
        case .project: return "another project of its client is named \"\(name)\" now; rename it first"
        case .entry: return "it would make a second timer run; stop the running one first"
        }
    }

    /// The journal's steps, newest first.
    public func steps(limit: Int) throws -> [JournalStepSummary] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT j.step, j.at, j.label, j.undoes,
                       (SELECT min(u.step) FROM journal u WHERE u.undoes = j.step),
                       (SELECT count(*) FROM journal r WHERE r.seq >= j.step AND r.step = j.step)
                FROM journal j WHERE j.seq = j.step ORDER BY j.seq DESC LIMIT ?
                """, arguments: [limit]).map {
                JournalStepSummary(
                    step: $0[0], at: Instant(seconds: $0[1]), label: $0[2], undoes: $0[3], undoneBy: $0[4], rows: $0[5])
            }
        }
    }
}
