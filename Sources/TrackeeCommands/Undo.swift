import ArgumentParser
import TrackeeAPI
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct Undo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "undo",
            abstract: "Revert the last change: a start, stop, cancel, add, edit, delete or rename.",
            discussion: """
                Each change is one step of the store's journal; undo reverts the newest step not yet \
                undone and says what it reverted, and a second undo goes one step further back (an undo \
                is never itself undone). A row changed since the step refuses the undo and nothing \
                changes. An undone rule firing stays fired: replaying its trigger changes nothing. \
                `undo --list` shows the steps.
                """)

        @OptionGroup var common: CommonOptions

        @Flag(help: "List the journal's steps, newest first, instead of undoing one.")
        var list = false

        @Option(help: "With --list, how many steps to show (default 10).")
        var limit: Int?

        func validate() throws {
            if limit != nil && !list { throw ValidationError("--limit goes with --list; give both or neither.") }
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
        }

        func run() throws {
            try Session.run(common) { session in
                let store = try session.openStore()
                if list {
                    UndoReport.printSteps(try store.steps(limit: limit ?? 10), session: session)
                } else {
                    UndoReport.print(try store.undo(now: session.now), session: session)
                }
            }
        }
    }
}

/// Says what an undo reverted, and lists the journal's steps.
enum UndoReport {
    struct View: Encodable {
        var undid: StepView
        var step: Int64
        var rows: [RowView]
    }

    struct StepView: Encodable {
        var step: Int64
        var label: String
    }

    struct RowView: Encodable {
        var table: String
        var id: Int64
        var change: String
        var name: String?
        var entry: EntryView?
    }

    struct ListedStep: Encodable {
        var step: Int64
        var at: String
        var label: String
        var rows: Int
        var undoes: Int64?
        var undone_by: Int64?
    }

    static func print(_ u: UndoneStep, session: Session) {
        if session.out.json {
            session.out.emit(View(
                undid: StepView(step: u.step, label: u.label), step: u.undoStep,
                rows: u.rows.map {
                    RowView(table: $0.table, id: $0.id, change: $0.change.rawValue, name: $0.name,
                            entry: $0.entry.map { EntryView($0, session: session) })
                }))
            return
        }
        session.out.line("undid \"\(u.label)\": " + describe(u.rows, session: session))
    }

    /// `removed running #13; #12 Docs is running again since 09:00`.
    static func describe(_ rows: [RevertedRow], session: Session) -> String {
        var parts: [String] = []
        let entries = rows.filter { $0.table == "entry" }
        let again = entries.filter { $0.entry?.isRunning == true && !$0.wasRunning }
        let removed = entries.filter { $0.change == .removed }
        // A whole import may be thousands: the first few and the last.
        let ids = { (rows: [RevertedRow]) in
            let shown = rows.count > 8 ? rows.prefix(3).map { "#\($0.id)" } + ["…", "#\(rows[rows.count - 1].id)"]
                : rows.map { "#\($0.id)" }
            return shown.joined(separator: " ")
        }
        if removed.count == 1, removed[0].wasRunning {
            parts.append("removed running #\(removed[0].id)")
        } else if !removed.isEmpty {
            parts.append("removed \(counted(removed.count, "entry", "entries")) (\(ids(removed)))")
        }
        let restored = entries.filter { $0.change == .restored && !again.contains($0) }
        if !restored.isEmpty {
            parts.append("restored \(counted(restored.count, "entry", "entries")) (\(ids(restored)))")
        }
        let reverted = entries.filter { $0.change == .reverted && !again.contains($0) }
        if !reverted.isEmpty { parts.append("\(ids(reverted)) as before") }
        for row in again {
            if let e = row.entry {
                parts.append("#\(e.id) \(session.label(e)) is running again since \(session.clock(e.start))")
            }
        }
        for table in ["project", "client"] {
            for change in [RevertedRow.Change.removed, .restored, .reverted] {
                let names = rows.filter { $0.table == table && $0.change == change }.map { "\(table) \"\($0.name ?? "")\"" }
                guard !names.isEmpty else { continue }
                let list = names.joined(separator: ", ")
                parts.append(change == .reverted ? "\(list) as before" : "\(change.rawValue) \(list)")
            }
        }
        return parts.joined(separator: "; ")
    }

    static func printSteps(_ steps: [JournalStepSummary], session: Session) {
        if session.out.json {
            session.out.emit(steps.map {
                ListedStep(step: $0.step, at: session.zone.iso8601($0.at), label: $0.label, rows: $0.rows,
                           undoes: $0.undoes, undone_by: $0.undoneBy)
            })
            return
        }
        if steps.isEmpty { return session.out.line("no changes recorded") }
        for s in steps {
            var line = "\(s.step)  \(session.clock(s.at))  \(s.label)"
            if let by = s.undoneBy { line += "  (undone by \(by))" }
            session.out.line(line)
        }
    }
}
