import Foundation
import Logging
import TrackeeCore
import TrackeeRules
import TrackeeStore

/// Carries out what rules decide: evaluates an event against the store's
/// state, records each firing with its intents in one transaction, and only
/// then notifies and runs programs, so a firing's side effects happen at
/// most once even when the same occurrence is seen again.
///
/// `trackee run`, `trackee tick`, `trackee focus set` and `trackee
/// simulate` all go through here.
public struct Runner: Sendable {
    public let store: Store
    public let zone: Zone
    /// The environment `run` actions start from (trigger variables are
    /// added) and where notifications look for a session bus.
    public let environment: [String: String]
    public let logger: Logger
    /// Whether `run` actions are waited for (one-shot commands) or left to
    /// finish on their own (the daemon).
    public let waitForPrograms: Bool
    /// Whether `notify` and `run` actions really happen (false for
    /// `simulate`, which only reports them).
    public let performSideEffects: Bool
    /// Whether a rule's start may create a project it names (the user's
    /// `create_projects`; `ask` refuses, as no one is there to answer).
    public let newProjects: NewProjects
    /// How many traces each rule keeps (`traces:` in the settings).
    public let keepTraces: Int
    /// Whether traces of events that fire nothing wait for a batch (a feed,
    /// which then calls ``flushTraces()`` at its end) rather than being
    /// written after each event.
    public let batchTraces: Bool
    private let traceLog = TraceLog()

    /// The name of the watermark every timed runtime's evaluators share.
    public static let timedWatermark = "timed"
    /// Its name when it covered schedules alone: a store from then keeps
    /// its watermark under it until the first pass moves it.
    static let formerTimedWatermark = "schedule"

    public init(store: Store, zone: Zone, environment: [String: String], logger: Logger,
                waitForPrograms: Bool, performSideEffects: Bool = true, newProjects: NewProjects,
                keepTraces: Int = RuleTrace.defaultKept, batchTraces: Bool = false) {
        self.store = store
        self.zone = zone
        self.environment = environment
        self.logger = logger
        self.waitForPrograms = waitForPrograms
        self.performSideEffects = performSideEffects
        self.newProjects = newProjects
        self.keepTraces = keepTraces
        self.batchTraces = batchTraces
    }

    /// What became of one firing.
    public struct Report: Sendable, Equatable {
        public enum Status: Sendable, Equatable {
            /// Recorded now; the intents' results in order.
            case fired([IntentResult])
            /// The ledger already had the key.
            case alreadyFired
            /// Recorded, but its intents were refused and nothing else
            /// happened: it names a project that does not exist.
            case refused(String)
            /// Recording failed; nothing was recorded.
            case failed(String)
        }

        public var firing: Firing
        public var status: Status
    }

    /// Evaluates `event` against the store's current state, carries out
    /// every firing and records why each candidate rule fired or did not
    /// (``RuleTrace``).
    /// `inside`, when given, are the places fixes put inside as the caller
    /// holds them (a feed's, newer than the store's); otherwise the store's.
    /// Rules on applied intents (`timer: started`) follow each firing's
    /// report, unless `cascade` is false: the event was itself made by
    /// intents, and its firings' intents make no more events.
    public func handle(_ event: TriggerEvent, automation: Automation, now: Instant,
                       inside: @autoclosure () -> Set<String>? = nil, cascade: Bool = true) throws
        -> [Report]
    {
        let answers = try automation.engine.explain(event, zone: zone, noticed: now) {
            Snapshot(zone: zone, focus: try store.focus().mode, timer: try store.timerState(),
                     lastFired: try store.lastFirings(), inside: try inside() ?? store.placesInside())
        }
        var reports: [Report] = []
        for answer in answers {
            if let firing = answer.firing {
                reports.append(carryOut(firing, trace: answer.trace, now: now, timed: event.isTimed))
            } else {
                record(answer.trace)
            }
        }
        if !batchTraces { flushTraces() }
        guard cascade, automation.watchesIntents else { return reports }
        var all: [Report] = []
        for report in reports {
            all.append(report)
            guard case .fired(let results) = report.status else { continue }
            let intents = report.firing.intents
            let applied = zip(intents, results).filter { !$0.1.replayed }.map {
                LoggedIntent(id: $0.1.logID, at: $0.0.at, source: $0.0.source, key: $0.0.key, result: $0.1)
            }
            all += try handleApplied(applied, automation: automation, now: now)
        }
        return all
    }

    /// Keeps a trace no firing carries: written with the event's firing or
    /// after the event, or, when batching, at the next full batch or
    /// ``flushTraces()``.
    public func record(_ trace: RuleTrace) {
        guard let batch = traceLog.add(trace) else { return }
        write(batch)
    }

    /// Writes every trace still waiting. A failed write is logged, not
    /// thrown: traces explain, and losing them must not stop the rules.
    public func flushTraces() {
        write(traceLog.take())
    }

    private func write(_ traces: [RuleTrace]) {
        guard !traces.isEmpty else { return }
        do {
            try store.recordTraces(traces, keep: keepTraces)
        } catch {
            logger.warning("rule traces not recorded: \(error)")
        }
    }

    /// Records one firing and, if it is new, performs its side effects.
    /// The log line of a `timed` one says how late it was carried out.
    func carryOut(_ firing: Firing, trace: RuleTrace? = nil, now: Instant, timed: Bool) -> Report {
        let intents = firing.intents
        var log = logger
        log[metadataKey: "rule.id"] = "\(firing.rule)"
        log[metadataKey: "firing.key"] = "\(firing.key)"
        let results: [IntentResult]
        // A feed's traces wait for their batch; a one-shot command's go
        // with the firing, one transaction for the event.
        let pending = batchTraces ? [] : traceLog.take()
        do {
            guard let outcome = try store.fire(
                key: firing.key, formerKey: firing.formerKey, occurred: firing.time, trigger: firing.trigger,
                description: firing.description, intents: firing.refusal == nil ? intents : [], now: now,
                newProjects: newProjects, trace: trace, pending: pending, keepTraces: keepTraces)
            else {
                log.debug("already fired: \(firing.description)")
                return Report(firing: firing, status: .alreadyFired)
            }
            if let refusal = firing.refusal {
                log.error("\(firing.description): refused: \(refusal)")
                return Report(firing: firing, status: .refused(refusal))
            }
            if let refusal = outcome.refused {
                let hint = if case .noSuchProject = refusal {
                    "; create the project with `trackee projects add` or set create_projects: always"
                } else { "" }
                log.error("\(firing.description): refused: \(refusal)\(hint)")
                return Report(firing: firing, status: .refused("\(refusal)"))
            }
            results = outcome.results
        } catch {
            traceLog.putBack(pending)
            if var trace {
                trace.verdict = .failed
                trace.detail = "\(error)"
                record(trace)
            }
            log.error("\(firing.description): not recorded: \(error)")
            return Report(firing: firing, status: .failed("\(error)"))
        }
        let outcomes = results.map { $0.outcome.rawValue }.joined(separator: ", ")
        var metadata: Logger.Metadata = [:]
        if timed {
            // From the occurrence's own instant to its intents committed.
            let latency = Double(Self.wallNanoseconds() - firing.time.seconds * 1_000_000_000) / 1e6
            metadata["latency_ms"] = "\((latency * 10).rounded() / 10)"
        }
        log.info("fired \(firing.description)\(outcomes.isEmpty ? "" : ": " + outcomes)", metadata: metadata)
        for action in firing.actions {
            switch action {
            case .intent: break
            case .notify(let title, let body): notify(title: title, body: body ?? "", log)
            case .run(let argv, let extra): run(argv, extra, log)
            }
        }
        return Report(firing: firing, status: .fired(results))
    }

    private func notify(title: String, body: String, _ log: Logger) {
        let text = body.isEmpty ? title : "\(title): \(body)"
        guard performSideEffects else { return }
        switch NotificationRoute.choose(title: title, body: body, environment: environment) {
        case .log(let reason):
            log.notice("notify (\(reason)): \(text)")
        case .desktop(let argv):
            do {
                let status = try Spawn.run(argv, environment: environment)
                if status != 0 { log.warning("notify-send exited with status \(status): \(text)") }
            } catch {
                log.warning("\(error); notification: \(text)")
            }
        }
    }

    private func run(_ argv: [String], _ extra: [String: String], _ log: Logger) {
        guard performSideEffects else { return }
        let env = environment.merging(extra) { $1 }
        let pid: pid_t
        do {
            pid = try Spawn.start(argv, environment: env)
        } catch {
            log.error("\(error)")
            return
        }
        let program = argv[0]
        let report: @Sendable (Int32) -> Void = { status in
            if status == 0 {
                log.debug("\(program) finished")
            } else {
                log.warning("\(program) exited with status \(status)")
            }
        }
        if waitForPrograms {
            report(Spawn.wait(pid))
        } else {
            Thread.detachNewThread { report(Spawn.wait(pid)) }
        }
    }

    // MARK: Schedules

    /// What one pass over the schedule window did.
    public struct TickReport: Sendable {
        /// The window looked at, `(from, to]`; nil `from` on the first run,
        /// which only sets the watermark.
        public var from: Instant?
        public var to: Instant
        public var reports: [Report]
        public var skipped: [(event: TriggerEvent, reason: CatchUp.Skip)]
        /// Occurrences that fired no rule: its conditions did not hold, or
        /// it was cooling down.
        public var quiet: [TriggerEvent]
    }

    /// Fires every schedule occurrence since the stored watermark, up to
    /// `now`, then moves the watermark to `now`. The first run only sets
    /// the watermark: nothing from before it fires.
    public func tick(_ automation: Automation, now: Instant) throws -> TickReport {
        guard let from = try timedWatermark() else {
            try store.advanceWatermark(Runner.timedWatermark, to: now)
            try catchUpIntents(automation, now: now)
            return TickReport(from: nil, to: now, reports: [], skipped: [], quiet: [])
        }
        var report = try evaluate(automation, after: from, now: now)
        try store.advanceWatermark(Runner.timedWatermark, to: now)
        report.reports += try catchUpIntents(automation, now: now)
        return report
    }

    /// How far timed runtimes were evaluated, under the watermark's name or
    /// the one it had before it covered every timed runtime.
    public func timedWatermark() throws -> Instant? {
        try store.watermark(Runner.timedWatermark) ?? store.watermark(Runner.formerTimedWatermark)
    }

    /// What timed runtimes may read of the store.
    public var state: TrackerState { TrackerState(store) }

    /// Fires what the schedule window `(from, now]` holds, leaving the
    /// watermark to the caller.
    public func evaluate(_ automation: Automation, after from: Instant, now: Instant) throws -> TickReport {
        let window = automation.window(after: from, through: now, now: now, zone: zone, state: state)
        for (event, reason) in window.skipped {
            logger.info("skipped \(event.kindName) of rule \(event.rule ?? "?") at \(zone.iso8601(event.time)): \(reason)")
            record(RuleEngine.skipped(event, noticed: now, verdict: reason.verdict))
        }
        var reports: [Report] = []
        var quiet: [TriggerEvent] = []
        for event in window.events {
            let handled = try handle(event, automation: automation, now: now)
            if handled.isEmpty {
                quiet.append(event)
                logger.debug("not fired: \(event.kindName) of rule \(event.rule ?? "?") at \(zone.iso8601(event.time)): conditions not met or cooling down")
            }
            reports += handled
        }
        if !batchTraces { flushTraces() }
        return TickReport(from: from, to: now, reports: reports, skipped: window.skipped, quiet: quiet)
    }
}

extension Runner {
    /// The wall clock to the nanosecond, for a firing's latency (an
    /// ``Instant`` holds whole seconds).
    static func wallNanoseconds() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }
}
