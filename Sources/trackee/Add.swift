import ArgumentParser
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

        func run() throws {
            try Session.run(common) { session in
                let start = try session.time(from, option: "--from")
                let end = try session.time(to, option: "--to")
                let p = timer.parameters
                let store = try session.openStore()
                let result = try store.add(
                    TimerParameters(project: p.project, client: p.client, description: p.description, tags: p.tags),
                    start: start, end: end, now: session.now)
                EntryReport.print("added", result, session: session)
            }
        }
    }
}

/// Prints an entry that a command added or changed.
enum EntryReport {
    struct View: Encodable {
        var action: String
        var entry: EntryView
        var created: [String]
    }

    static func print(_ action: String, _ result: EntryResult, session: Session) {
        if session.out.json {
            session.out.emit(View(action: action, entry: EntryView(result.entry, session: session), created: result.created))
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
        session.out.line("\(action) #\(e.id) \(session.label(e)) \(span) (\(session.duration(e.duration(now: session.now))))")
    }
}
