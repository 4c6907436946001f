import TrackeeAPI
import TrackeeCore
import TrackeeStore

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
