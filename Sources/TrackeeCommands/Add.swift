import ArgumentParser
import TrackeeAPI
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Record a finished entry between two times.")

        @OptionGroup var common: CommonOptions
        @OptionGroup var timer: TimerOptions

        @Option(parsing: .unconditional, help: "When the entry starts.")
        var from: String

        @Option(parsing: .unconditional, help: "When the entry ends; not before --from.")
        var to: String

        @OptionGroup var idempotency: KeyOption

        func run() throws {
            try Session.run(common) { session in
                let start = try session.time(from, option: "--from")
                let end = try session.time(to, option: "--to")
                let p = try timer.parameters(for: "an entry")
                let parameters = TimerParameters(project: p.project, client: p.client, description: p.description, tags: p.tags)
                let store = try session.openStore()
                guard let key = idempotency.key else {
                    let result = try session.creatingProjects(allowed: timer.newProject) {
                        try store.add(parameters, start: start, end: end, now: session.now, newProjects: $0)
                    }
                    EntryReport.print("added", result, session: session)
                    return
                }
                let keyed = try session.creatingProjects(allowed: timer.newProject) {
                    try store.add(parameters, start: start, end: end, now: session.now, key: key, newProjects: $0)
                }
                guard keyed.replayed else {
                    EntryReport.print("added", keyed.result!, key: key, session: session)
                    return
                }
                if let result = keyed.result {
                    EntryReport.print("added", result, key: key, replayed: true, session: session)
                } else if session.out.json {
                    session.out.emit(EntryReport.View(action: "added", entry: nil, entry_id: keyed.entryID, created: [],
                                                      key: key, replayed: true))
                } else {
                    session.out.line("added #\(keyed.entryID) (its entry has since been deleted) — key \"\(key)\" was applied before; nothing changed")
                }
            }
        }
    }
}

/// Prints an entry that a command added or changed.
enum EntryReport {
    struct View: Encodable {
        var action: String
        var entry: EntryView?
        /// The entry's id when it has since been deleted (a replayed key).
        var entry_id: Int64?
        var created: [String]
        /// `add --key`: the key, and whether it had been used (nothing added).
        var key: String?
        var replayed: Bool?

        init(action: String, entry: EntryView?, entry_id: Int64? = nil, created: [String], key: String? = nil,
             replayed: Bool? = nil) {
            self.action = action
            self.entry = entry
            self.entry_id = entry_id
            self.created = created
            self.key = key
            self.replayed = replayed
        }
    }

    static func print(_ action: String, _ result: EntryResult, key: String? = nil, replayed: Bool = false, session: Session) {
        if session.out.json {
            session.out.emit(View(action: action, entry: EntryView(result.entry, session: session), created: result.created,
                                  key: key, replayed: key == nil ? nil : replayed))
            return
        }
        session.printCreated(result.created)
        let e = result.entry
        var span = "since \(session.clock(e.start)), running"
        if let end = e.end {
            let sameDay = session.zone.localDate(end) == session.zone.localDate(e.start)
            let l = session.zone.localDateTime(end)
            span = session.clock(e.start) + "–" + (sameDay ? pad(l.hour, 2) + ":" + pad(l.minute, 2) : session.clock(end))
        }
        var line = "\(action) #\(e.id) \(session.label(e)) \(span) (\(session.duration(e.duration(now: session.now))))"
        if replayed, let key { line += " — key \"\(key)\" was applied before; nothing changed" }
        session.out.line(line)
    }
}
