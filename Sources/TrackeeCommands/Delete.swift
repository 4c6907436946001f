import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete entries by id; `trackee undo` brings them back.")

        @OptionGroup var common: CommonOptions

        @Argument(help: "Entry ids (or `running`).")
        var entries: [String]

        func validate() throws {
            if entries.isEmpty { throw ValidationError("Name at least one entry id; `trackee log` lists them.") }
        }

        func run() throws {
            try Session.run(common) { session in
                let store = try session.openStore()
                let ids = try entries.map { try EntryArgument.resolve($0, store: store) }
                let removal = try store.deleteEntries(ids, now: session.now)
                RemovalReport.print("deleted", removal, session: session)
            }
        }
    }
}

enum RemovalReport {
    struct View: Encodable {
        var action: String
        var clients: [String]
        var projects: [String]
        var entries: [Int64]
    }

    static func print(_ action: String, _ r: Removal, session: Session) {
        if session.out.json {
            session.out.emit(View(action: action, clients: r.clients, projects: r.projects, entries: r.entries))
            return
        }
        var parts: [String] = []
        for c in r.clients { parts.append("client \"\(c)\"") }
        for p in r.projects { parts.append("project \"\(p)\"") }
        if !r.entries.isEmpty {
            let ids = r.entries.map { "#\($0)" }.joined(separator: " ")
            parts.append("\(r.entries.count) \(r.entries.count == 1 ? "entry" : "entries") (\(ids))")
        }
        session.out.line("\(action) " + (parts.isEmpty ? "nothing" : parts.joined(separator: ", ")) + "; `trackee undo` restores")
    }
}
