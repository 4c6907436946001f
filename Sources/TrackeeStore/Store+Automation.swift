import GRDB
import TrackeeCore

/// A focus change the store recorded.
public struct FocusChange: Sendable, Equatable {
    public var sequence: Int64
    public var previous: String?
    public var mode: String?
    public var at: Instant

    public init(sequence: Int64, previous: String?, mode: String?, at: Instant) {
        self.sequence = sequence
        self.previous = previous
        self.mode = mode
        self.at = at
    }
}

/// What recording a rule firing did.
public struct FiringOutcome: Sendable, Equatable {
    /// The results of the firing's intents, in order; empty when refused.
    public var results: [IntentResult]
    /// Why the firing's intents were refused (a project that does not
    /// exist); the firing is recorded all the same, with no intent applied.
    public var refused: StoreError?

    public init(results: [IntentResult], refused: StoreError? = nil) {
        self.results = results
        self.refused = refused
    }
}

extension Store {
    // MARK: Focus

    /// The focus mode that is on, and the number of the last change.
    public func focus() throws -> Focus {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT seq, mode, at FROM focus_change ORDER BY seq DESC LIMIT 1")
            else { return Focus(mode: nil, sequence: 0, changed: nil) }
            return Focus(mode: row[1], sequence: row[0], changed: Instant(seconds: row[2]))
        }
    }

    /// Switches the focus to `mode` (nil: none). Returns the change, or nil
    /// when that mode was already on (a repeat changes nothing and fires
    /// nothing) or when `key` was recorded before (a replayed event line).
    /// Mode names compare without regard to case.
    public func setFocus(
        _ mode: String?, at: Instant, source: ChangeSource, key: FocusLineKey? = nil
    ) throws -> FocusChange? {
        let mode = try mode.map { try validName($0, kind: "focus mode") }
        return try write { db in
            if let key,
               try Bool.fetchOne(db, sql: "SELECT 1 FROM focus_change WHERE key = ?", arguments: [key.text]) == true
            {
                return nil
            }
            let previous = try String.fetchOne(db, sql: "SELECT mode FROM focus_change ORDER BY seq DESC LIMIT 1")
            if previous?.lowercased() == mode?.lowercased() { return nil }
            try db.execute(
                sql: "INSERT INTO focus_change (mode, previous, at, source, key) VALUES (?, ?, ?, ?, ?)",
                arguments: [mode, previous, at.seconds, source, key?.text])
            return FocusChange(sequence: db.lastInsertedRowID, previous: previous, mode: mode, at: at)
        }
    }

    /// Focus changes numbered after `sequence`, oldest first.
    public func focusChanges(after sequence: Int64) throws -> [FocusChange] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT seq, previous, mode, at FROM focus_change WHERE seq > ? ORDER BY seq",
                arguments: [sequence]
            ).map { FocusChange(sequence: $0[0], previous: $0[1], mode: $0[2], at: Instant(seconds: $0[3])) }
        }
    }

    // MARK: Rule firings

    /// Records a rule firing and applies its intents, all in one
    /// transaction. Returns nil, changing nothing, when `key` has fired
    /// before: re-evaluating a window, a restarted daemon and `tick`
    /// running beside `run` all meet the same UNIQUE key. `formerKey` is
    /// the key an older release gave the same firing: a row recorded under
    /// it before the upgrade (`any_offset`) counts as this firing too.
    /// `trigger` is what fired it in a few words (`focus deep on`), which
    /// history shows beside each of its intents.
    ///
    /// A start naming a project that does not exist, under `newProjects:
    /// .refuse`, or a stop at a time before the running entry's start,
    /// applies none of the firing's intents but still records the firing: the same occurrence is not retried at every pass, and
    /// the next one fires once the project exists.
    ///
    /// `trace`, when given, is recorded in the same transaction with what
    /// became of the firing filled in (already fired, refused, each intent's
    /// outcome), after `pending` traces, and pruned to `keepTraces`.
    public func fire(
        key: FiringKey, formerKey: FiringKey? = nil, occurred: Instant, trigger: String, description: String,
        intents: [Intent], now: Instant, newProjects: NewProjects = .create, trace: RuleTrace? = nil,
        pending: [RuleTrace] = [], keepTraces: Int = RuleTrace.defaultKept
    ) throws -> FiringOutcome? {
        try write { db -> FiringOutcome? in
            let outcome = try fire(
                db, key: key, formerKey: formerKey, occurred: occurred, trigger: trigger, description: description,
                intents: intents, now: now, newProjects: newProjects)
            if var trace {
                trace.record(outcome)
                try insert(db, pending + [trace], keep: keepTraces)
            } else {
                try insert(db, pending, keep: keepTraces)
            }
            return outcome
        }
    }

    private func fire(
        _ db: Database, key: FiringKey, formerKey: FiringKey?, occurred: Instant, trigger: String, description: String,
        intents: [Intent], now: Instant, newProjects: NewProjects
    ) throws -> FiringOutcome? {
        let seen = try Bool.fetchOne(
            db, sql: "SELECT 1 FROM rule_firing WHERE key = ? OR (key = ? AND any_offset = 1)",
            arguments: [key.text, formerKey?.text]) ?? false
        if seen { return nil }
        let mark = try HubKeys.mark(db)
        try db.execute(
            sql: """
                INSERT INTO rule_firing (key, rule, occurred, fired, description, trigger) VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [key.text, key.rule, occurred.seconds, now.seconds, description, trigger])
        var results: [IntentResult] = []
        do {
            // A savepoint, so a refusal after an earlier intent (a stop
            // then a start) leaves neither applied.
            try db.inSavepoint {
                results = try intents.map { intent in
                    // A stop at a time the rule stated (not the
                    // occurrence's own) before the running entry's
                    // start is refused, not overtaken: the rule asked
                    // for that end.
                    if case .stop = intent.action, intent.at != occurred, let running = try runningRecord(db),
                       intent.at.seconds < running.start {
                        throw StoreError.endBeforeStart(start: Instant(seconds: running.start), end: intent.at)
                    }
                    return try apply(db, intent, now: now, newProjects: newProjects, firing: key)
                }
                return .commit
            }
        } catch let refusal as StoreError {
            switch refusal {
            case .noSuchProject, .endBeforeStart, .stopAfterNow:
                try HubKeys.record(db, .firing, key: key.text, since: mark)
                return FiringOutcome(results: [], refused: refusal)
            default: throw refusal
            }
        }
        try HubKeys.record(db, .firing, key: key.text, since: mark)
        return FiringOutcome(results: results)
    }

    /// Whether a firing key is in the ledger.
    public func hasFired(_ key: FiringKey) throws -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM rule_firing WHERE key = ?", arguments: [key.text]) ?? false
        }
    }

    /// Each rule's latest firing, by the occurrence's own time.
    public func lastFirings() throws -> [String: Instant] {
        try read { db in
            var last: [String: Instant] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT rule, MAX(occurred) FROM rule_firing GROUP BY rule") {
                last[row[0]] = Instant(seconds: row[1])
            }
            return last
        }
    }

    /// The timer as rule conditions see it.
    public func timerState() throws -> TimerState {
        guard let running = try running() else { return .stopped }
        return .running(project: running.project, client: running.client)
    }

    // MARK: Watermarks

    /// How far the evaluator called `name` has looked; nil before its first
    /// run.
    public func watermark(_ name: String) throws -> Instant? {
        try read { db in
            try Int64.fetchOne(db, sql: "SELECT at FROM watermark WHERE name = ?", arguments: [name]).map { Instant(seconds: $0) }
        }
    }

    /// Moves a watermark forward to `at`; it never moves back, so a late or
    /// concurrent evaluator cannot make another look at a window twice.
    public func advanceWatermark(_ name: String, to at: Instant) throws {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO watermark (name, at) VALUES (?, ?)
                    ON CONFLICT (name) DO UPDATE SET at = MAX(at, excluded.at)
                    """,
                arguments: [name, at.seconds])
        }
    }
}
