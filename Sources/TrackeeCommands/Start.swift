import ArgumentParser
import TrackeeAPI
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start",
            abstract: "Ensure a timer runs for a project (start, switch, or leave it running).",
            discussion: """
                With nothing running, starts a timer. With the same project, client, \
                description and tags already running, prints "unchanged" and keeps the \
                original start. With something else running, saves it and starts the \
                new one in one step ("switched"). A bare start (no project, client, \
                description or tag) leaves a running timer as it is ("unchanged"); \
                `trackee continue` starts the last entry again.
                """)

        @OptionGroup var common: CommonOptions
        @OptionGroup var timer: TimerOptions

        @Option(parsing: .unconditional, help: "When the timer starts (default now); see TIME FORMATS.")
        var at: String?

        @OptionGroup var idempotency: KeyOption

        func run() throws {
            try Session.run(common) { session in
                let at = try self.at.map { try session.time($0, option: "--at") } ?? session.now
                let p = try timer.parameters(for: "a timer")
                let intent = Intent(
                    .start(TimerParameters(project: p.project, client: p.client, description: p.description, tags: p.tags)),
                    at: at, source: .cli, key: idempotency.key)
                try IntentReport.apply(intent, session: session, newProject: timer.newProject)
            }
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stop",
            abstract: "Ensure no timer runs, saving the running entry.")

        @OptionGroup var common: CommonOptions

        @Option(parsing: .unconditional, help: "When the timer stops (default now).")
        var at: String?

        @OptionGroup var idempotency: KeyOption

        func run() throws {
            try Session.run(common) { session in
                let at = try self.at.map { try session.time($0, option: "--at") } ?? session.now
                try IntentReport.apply(Intent(.stop, at: at, source: .cli, key: idempotency.key), session: session)
            }
        }
    }

    struct Cancel: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cancel",
            abstract: "Ensure no timer runs, discarding the running entry.")

        @OptionGroup var common: CommonOptions

        @OptionGroup var idempotency: KeyOption

        func run() throws {
            try Session.run(common) { session in
                try IntentReport.apply(Intent(.cancel, at: session.now, source: .cli, key: idempotency.key), session: session)
            }
        }
    }
}

/// `--key`, shared by the intent commands.
struct KeyOption: ParsableArguments {
    @Option(help: "An idempotency key: a second call with the same key changes nothing.")
    var key: String?
}

/// Applies an intent and says what happened.
enum IntentReport {
    /// `newProject` is `--new-project`: a project that does not exist may
    /// be created whatever the settings say.
    static func apply(_ intent: Intent, session: Session, newProject: Bool = false) throws {
        let store = try session.openStore()
        let result = try session.creatingProjects(allowed: newProject) {
            try store.apply(intent, now: session.now, newProjects: $0)
        }
        report(result, key: intent.key, at: intent.at, session: session)
    }

    /// Prints what an intent under `key`, taking effect `at`, did.
    static func report(_ result: IntentResult, key: String?, at: Instant, session: Session) {
        if session.out.json {
            session.out.emit(IntentReportView(result, key: key, zone: session.zone, now: session.now))
            return
        }
        session.printCreated(result.created)
        session.out.line(describe(result, key: key, at: at, session: session))
    }

    static func describe(_ result: IntentResult, key: String?, at: Instant, session: Session) -> String {
        let out = session.out
        var text: String
        switch (result.outcome, result.entry) {
        case (.started, let e?):
            text = "\(out.green("started")) \(session.label(e)) at \(session.clock(e.start))"
        case (.switched, let e?):
            text = "\(out.green("switched"))"
            if let p = result.previous, let end = p.end {
                text += ": saved \(session.label(p)) (\(session.duration(end - p.start))),"
            }
            text += " started \(session.label(e)) at \(session.clock(e.start))"
        case (.stopped, let e?):
            text = "\(out.green("stopped")) \(session.label(e)) at \(session.clock(e.end ?? at)) after \(session.duration(e.duration(now: session.now)))"
        case (.cancelled, let e?):
            text = "\(out.yellow("cancelled")) \(session.label(e)), started \(session.clock(e.start)); \(session.duration(e.duration(now: at))) discarded"
        case (.unchanged, let e?) where e.isRunning:
            text = "unchanged: \(session.label(e)) running since \(session.clock(e.start)) (\(session.duration(e.duration(now: session.now))))"
        case (_, nil) where result.replayed && result.outcome != .unchanged:
            text = "\(result.outcome.rawValue) (its entry has since been deleted)"
        default:
            text = "\(result.outcome.rawValue): no timer running"
        }
        if result.replayed, let key {
            text += " — key \"\(key)\" was applied before; nothing changed"
        }
        return text
    }
}
