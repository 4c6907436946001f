import GRDB
import TrackeeCore

extension Store {
    /// Applies an intent in one transaction: changes the timer if needed,
    /// writes an intent log row and, when the intent has a key, a firing
    /// ledger row. This is the only place the timer changes.
    ///
    /// - `start` with nothing running starts; with the same parameters
    ///   running it is `unchanged` and keeps the original start; with other
    ///   parameters it stops and saves the running entry, then starts. A
    ///   start without any parameter is `unchanged` whatever runs.
    /// - `stop` saves the running entry; `cancel` discards it; both are
    ///   `unchanged` when nothing runs.
    /// - A key already in the ledger changes nothing and reports the first
    ///   application's outcome with `replayed` set.
    /// - A start naming a project that does not exist creates it, or under
    ///   `newProjects: .refuse` throws ``StoreError/noSuchProject(name:client:nearest:)``
    ///   and changes nothing.
    public func apply(_ intent: Intent, now: Instant, newProjects: NewProjects = .create) throws -> IntentResult {
        try write { db in try apply(db, intent, now: now, newProjects: newProjects) }
    }

    /// ``apply(_:now:newProjects:)`` inside a transaction the caller owns;
    /// `firing` is the rule firing the intent belongs to, which its intent
    /// log row names so history finds the trigger.
    func apply(
        _ db: Database, _ intent: Intent, now: Instant, newProjects: NewProjects, firing: FiringKey? = nil
    ) throws -> IntentResult {
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
        if let key = intent.key,
           let firstID = try Int64.fetchOne(
               db.cachedStatement(sql: "SELECT intent_id FROM firing WHERE key = ?"), arguments: [key]) {
            return try replay(db, intent: intent, firstID: firstID, now: now, firing: firing)
        }
        // A key of its own (not a rule's, whose firing is the key) is
        // kept for the hub once the store has joined one.
        let mark = intent.key != nil && firing == nil ? try HubKeys.mark(db) : nil
        let running = try runningRecord(db)
        var step = JournalStep(label(intent, running: running), at: now)
        var result: IntentResult
        if let running, case .rule = intent.source, intent.at.seconds < running.start, intent.action != .cancel {
            // A rule's occurrence older than the running timer (a 19:00
            // stop caught up at 22:00 while a timer started by hand at
            // 20:00 runs) is overtaken by that newer start and changes
            // nothing; the same time typed on the command line is an error.
            result = IntentResult(outcome: .unchanged, entry: try entry(db, running), logID: 0)
        } else {
            switch intent.action {
            case .start(let parameters):
                result = try applyStart(
                    db, parameters, intent: intent, running: running, now: now, newProjects: newProjects, step: &step)
            case .stop:
                result = try applyStop(db, at: intent.at, running: running, now: now, step: &step)
            case .cancel:
                if let running {
                    let entry = try entry(db, running)
                    try db.cachedStatement(sql: "DELETE FROM entry WHERE id = ?").execute(arguments: [running.id])
                    try step.record(db, .entry, id: running.id!, before: running.image, after: nil)
                    result = IntentResult(outcome: .cancelled, entry: entry, logID: 0)
                } else {
                    result = IntentResult(outcome: .unchanged, entry: nil, logID: 0)
                }
            }
        }
        let logged = loggedRow(
            intent, outcome: result.outcome, entryID: result.entry?.id, previousEntryID: result.previous?.id,
            firing: firing, now: now)
        result.logID = try log(db, logged, replayOf: nil)
        if let key = intent.key {
            try db.cachedStatement(sql: "INSERT INTO firing (key, intent_id, fired) VALUES (?, ?, ?)").execute(
                arguments: [key, result.logID, now.seconds])
            try HubKeys.record(db, .intent, key: key, since: mark)
        }
        // One without a key of its own travels as its log row.
        if intent.key == nil || firing != nil {
            try HubKeys.log(db, id: result.logID, row: HubKeys.logRow(logged))
        }
        return result
    }

    /// The journal's name for an intent's step: the rule that fired it, or
    /// what was typed (`start Docs`, `stop #12`, `cancel #12`).
    private func label(_ intent: Intent, running: EntryRecord?) -> String {
        if case .rule(let id) = intent.source { return "rule " + id }
        switch intent.action {
        case .start(let p):
            let words = [p.project, p.description.isEmpty ? nil : "\"\(p.description)\""].compactMap { $0 }
            return words.isEmpty ? "start" : "start " + words.joined(separator: " ")
        case .stop: return running.map { "stop #\($0.id!)" } ?? "stop"
        case .cancel: return running.map { "cancel #\($0.id!)" } ?? "cancel"
        }
    }

    /// An intent's row in the intent log.
    private func loggedRow(
        _ intent: Intent, outcome: Outcome, entryID: Int64?, previousEntryID: Int64?, firing: FiringKey?, now: Instant
    ) -> HubLoggedIntent {
        HubLoggedIntent(
            applied: now.seconds, at: intent.at.seconds, source: intent.source.storedText, action: intent.verb,
            parameters: intent.loggedParameters, outcome: outcome.rawValue, entryID: entryID,
            previousEntryID: previousEntryID, key: intent.key, firing: firing?.text)
    }

    /// Appends a row to the intent log and returns its id.
    private func log(_ db: Database, _ row: HubLoggedIntent, replayOf: Int64?) throws -> Int64 {
        try db.cachedStatement(sql: Self.logInsert)
            .execute(arguments: StatementArguments(values: row.values, then: replayOf))
        return db.lastInsertedRowID
    }

    private static let logInsert = HubLoggedIntent.insert(adding: "replay_of")

    private func applyStart(
        _ db: Database, _ parameters: TimerParameters, intent: Intent, running: EntryRecord?, now: Instant,
        newProjects: NewProjects,
        step: inout JournalStep
    ) throws -> IntentResult {
        // A start that names nothing asks only that some timer runs, which
        // the running one does; switching would save it short and start
        // one without a project.
        if let running, parameters == TimerParameters() {
            return IntentResult(outcome: .unchanged, entry: try entry(db, running), logID: 0)
        }
        let resolved = try resolveProject(
            db, name: parameters.project, client: parameters.client, now: now, newProjects: newProjects, step: &step)
        let tags = Tags.encode(parameters.tags)
        var previous: Entry?
        if var running {
            if running.projectID == resolved.projectID && running.description == parameters.description
                && running.tags == tags
            {
                return IntentResult(outcome: .unchanged, entry: try entry(db, running), logID: 0)
            }
            // Switching at a time before the running timer began would end
            // it before its start: the time the user gave is the new start.
            guard intent.at.seconds >= running.start else {
                throw StoreError.startBeforeRunning(start: intent.at, running: Instant(seconds: running.start))
            }
            try close(&running, at: intent.at, now: now, db, step: &step)
            previous = try entry(db, running)
        }
        var started = EntryRecord(
            id: try HubIDs.next(db, .entry), projectID: resolved.projectID, description: parameters.description,
            tags: tags, start: intent.at.seconds, end: nil, source: intent.source.storedText, created: now.seconds,
            updated: now.seconds)
        let image = try started.insert(db, prepared: db.cachedStatement(sql: JournalTable.entry.insert))
        let id = started.id!
        try step.record(db, .entry, id: id, before: nil, after: image)
        return IntentResult(
            outcome: previous == nil ? .started : .switched, entry: try entry(db, id: id),
            previous: previous, created: resolved.created, logID: 0)
    }

    private func applyStop(
        _ db: Database, at: Instant, running: EntryRecord?, now: Instant, step: inout JournalStep
    ) throws -> IntentResult {
        guard var running else { return IntentResult(outcome: .unchanged, entry: nil, logID: 0) }
        try close(&running, at: at, now: now, db, step: &step)
        return IntentResult(outcome: .stopped, entry: try entry(db, running), logID: 0)
    }

    private func close(
        _ running: inout EntryRecord, at: Instant, now: Instant, _ db: Database, step: inout JournalStep
    ) throws {
        guard at.seconds >= running.start else {
            throw StoreError.endBeforeStart(start: Instant(seconds: running.start), end: at)
        }
        let before = running.image
        running.end = at.seconds
        running.updated = now.seconds
        try db.cachedStatement(sql: "UPDATE entry SET \"end\" = ?, updated = ? WHERE id = ?")
            .execute(arguments: [at.seconds, now.seconds, running.id])
        try step.record(db, .entry, id: running.id!, before: before, after: running.image)
    }

    /// A key seen before: log the replay, change nothing, and report what
    /// the first application did.
    private func replay(
        _ db: Database, intent: Intent, firstID: Int64, now: Instant, firing: FiringKey?
    ) throws -> IntentResult {
        guard let first = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT outcome, entry_id, previous_entry_id FROM intent_log WHERE id = ?"),
            arguments: [firstID])
        else {
            throw StoreError.database(path: path, message: "firing \(intent.key ?? "") names a missing intent log row")
        }
        let outcome = Outcome(rawValue: first[0]) ?? .unchanged
        let entryID: Int64? = first[1]
        let previousEntryID: Int64? = first[2]
        let logID = try log(
            db, loggedRow(intent, outcome: outcome, entryID: entryID, previousEntryID: previousEntryID, firing: firing,
                          now: now),
            replayOf: firstID)
        return IntentResult(
            outcome: outcome, entry: try entryID.flatMap { try entryIfPresent(db, id: $0) },
            previous: try previousEntryID.flatMap { try entryIfPresent(db, id: $0) }, replayed: true, logID: logID)
    }

    func runningRecord(_ db: Database) throws -> EntryRecord? {
        // Raw SQL, prepared once a connection: the query builder costs more
        // than the query here, and this runs on every one-shot command and
        // every intent a daemon applies.
        try EntryRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM entry WHERE \"end\" IS NULL"))
    }
}
