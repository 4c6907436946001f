import Foundation
import GRDB
import TrackeeCore

extension Store {
    /// Applies an intent in one transaction: changes the timer if needed,
    /// writes an intent log row and, when the intent has a key, a firing
    /// ledger row. This is the only place the timer changes.
    ///
    /// - `start` with nothing running starts; with the same parameters
    ///   running it is `unchanged` and keeps the original start; with other
    ///   parameters it stops and saves the running entry, then starts.
    /// - `stop` saves the running entry; `cancel` discards it; both are
    ///   `unchanged` when nothing runs.
    /// - A key already in the ledger changes nothing and reports the first
    ///   application's outcome with `replayed` set.
    public func apply(_ intent: Intent, now: Instant) throws -> IntentResult {
        if case .start(let p) = intent.action, let bad = Tags.invalid(p.tags) {
            throw StoreError.invalidTag(bad)
        }
        // A timer cannot run from the future: stop and switch times, and a
        // new start, are at most now.
        if intent.at > now {
            switch intent.action {
            case .start: throw StoreError.startAfterNow(start: intent.at, now: now)
            case .stop: throw StoreError.stopAfterNow(end: intent.at, now: now)
            case .cancel: break
            }
        }
        return try write { db in
            if let key = intent.key,
               let firing = try FiringRecord.fetchOne(db, sql: "SELECT * FROM firing WHERE key = ?", arguments: [key]) {
                return try replay(db, intent: intent, firing: firing, now: now)
            }
            let running = try runningRecord(db)
            var result: IntentResult
            switch intent.action {
            case .start(let parameters):
                result = try applyStart(db, parameters, intent: intent, running: running, now: now)
            case .stop:
                result = try applyStop(db, at: intent.at, running: running, now: now)
            case .cancel:
                if let running {
                    let entry = try entry(db, running)
                    try EntryRecord.deleteOne(db, key: running.id)
                    result = IntentResult(outcome: .cancelled, entry: entry, logID: 0)
                } else {
                    result = IntentResult(outcome: .unchanged, entry: nil, logID: 0)
                }
            }
            var log = IntentLogRecord(
                applied: now.seconds, at: intent.at.seconds, source: intent.source, action: intent.verb,
                parameters: parametersJSON(intent), outcome: result.outcome.rawValue,
                entryID: result.entry?.id, previousEntryID: result.previous?.id, key: intent.key)
            try log.insert(db)
            result.logID = log.id!
            if let key = intent.key {
                try FiringRecord(key: key, intentID: log.id!, fired: now.seconds).insert(db)
            }
            return result
        }
    }

    private func applyStart(
        _ db: Database, _ parameters: TimerParameters, intent: Intent, running: EntryRecord?, now: Instant
    ) throws -> IntentResult {
        let resolved = try resolveProject(db, name: parameters.project, client: parameters.client, now: now)
        let tags = Tags.encode(parameters.tags)
        var previous: Entry?
        if var running {
            if running.projectID == resolved.projectID && running.description == parameters.description
                && running.tags == tags
            {
                return IntentResult(outcome: .unchanged, entry: try entry(db, running), logID: 0)
            }
            try close(&running, at: intent.at, now: now, db)
            previous = try entry(db, running)
        }
        var record = EntryRecord(
            projectID: resolved.projectID, description: parameters.description, tags: tags,
            start: intent.at.seconds, end: nil, source: intent.source, created: now.seconds, updated: now.seconds)
        try record.insert(db)
        return IntentResult(
            outcome: previous == nil ? .started : .switched, entry: try entry(db, record),
            previous: previous, created: resolved.created, logID: 0)
    }

    private func applyStop(_ db: Database, at: Instant, running: EntryRecord?, now: Instant) throws -> IntentResult {
        guard var running else { return IntentResult(outcome: .unchanged, entry: nil, logID: 0) }
        try close(&running, at: at, now: now, db)
        return IntentResult(outcome: .stopped, entry: try entry(db, running), logID: 0)
    }

    private func close(_ running: inout EntryRecord, at: Instant, now: Instant, _ db: Database) throws {
        guard at.seconds >= running.start else {
            throw StoreError.endBeforeStart(start: Instant(seconds: running.start), end: at)
        }
        running.end = at.seconds
        running.updated = now.seconds
        try running.update(db)
    }

    /// A key seen before: log the replay, change nothing, and report what
    /// the first application did.
    private func replay(_ db: Database, intent: Intent, firing: FiringRecord, now: Instant) throws -> IntentResult {
        guard let first = try IntentLogRecord.fetchOne(db, key: firing.intentID) else {
            throw StoreError.database(path: path, message: "firing \(firing.key) names a missing intent log row")
        }
        let outcome = Outcome(rawValue: first.outcome) ?? .unchanged
        var log = IntentLogRecord(
            applied: now.seconds, at: intent.at.seconds, source: intent.source, action: intent.verb,
            parameters: parametersJSON(intent), outcome: outcome.rawValue,
            entryID: first.entryID, previousEntryID: first.previousEntryID, key: intent.key, replayOf: first.id)
        try log.insert(db)
        let entry = try first.entryID.flatMap { try EntryRecord.fetchOne(db, key: $0) }.map { try self.entry(db, $0) }
        let previous = try first.previousEntryID.flatMap { try EntryRecord.fetchOne(db, key: $0) }.map { try self.entry(db, $0) }
        return IntentResult(outcome: outcome, entry: entry, previous: previous, replayed: true, logID: log.id!)
    }

    func runningRecord(_ db: Database) throws -> EntryRecord? {
        // Raw SQL: the query builder costs more than the query here, and
        // this runs on every one-shot command.
        try EntryRecord.fetchOne(db, sql: "SELECT * FROM entry WHERE \"end\" IS NULL")
    }

    private func parametersJSON(_ intent: Intent) -> String {
        struct Logged: Encodable {
            var at: Int64
            var project: String?
            var client: String?
            var description: String?
            var tags: [String]?
        }
        var logged = Logged(at: intent.at.seconds)
        if case .start(let p) = intent.action {
            logged.project = p.project
            logged.client = p.client
            logged.description = p.description
            logged.tags = p.tags
        }
        return jsonText(logged)
    }
}
