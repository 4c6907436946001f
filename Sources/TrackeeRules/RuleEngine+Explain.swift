import TrackeeCore

extension RuleEngine {
    /// One candidate rule's answer to an event: its trace, and its firing
    /// when it fires.
    public struct Explained: Sendable, Equatable {
        /// The firing's actions have no outcome yet: recording the firing
        /// gives them.
        public var trace: RuleTrace
        public var firing: Firing?
    }

    /// ``evaluate(_:zone:snapshot:)`` with the reasons: the same firings, in
    /// the same order, each candidate rule with its trace (every condition
    /// checked with its inputs, not only up to the first false one), and
    /// when no rule takes `event`, the one trace ``unawaited(_:noticed:)``
    /// gives, if any. Pure, like `evaluate`; `noticed` is only written
    /// into the traces.
    ///
    ///     for answer in engine.explain(event, zone: zone, noticed: now, snapshot: { snapshot }) {
    ///         print(answer.trace.verdict)  // fired, condition-false, cooling-down, no-rule
    ///     }
    public func explain(_ event: TriggerEvent, zone: Zone, noticed: Instant, snapshot read: () throws -> Snapshot)
        rethrows -> [Explained]
    {
        let candidates = candidates(for: event, zone: zone)
        guard !candidates.isEmpty else { return unawaited(event, noticed: noticed).map { [Explained(trace: $0, firing: nil)] } ?? [] }
        let snapshot = try read()
        let moment = Moment(event.time, snapshot)
        return candidates.map { index in
            let rule = rules[index]
            let conditions = zip(rule.rule.conditions, rule.checks).map {
                $1.explain($0, at: moment, time: event.time, snapshot)
            }
            var trace = RuleTrace(rule: rule.rule.id, occurred: event.time, noticed: noticed, trigger: event.summary,
                                  verdict: .fired, conditions: conditions)
            guard conditions.allSatisfy(\.holds) else {
                trace.verdict = .conditionFalse
                return Explained(trace: trace, firing: nil)
            }
            if rule.isCoolingDown(at: event.time, snapshot), let seconds = rule.cooldownSeconds,
                let last = snapshot.lastFired[rule.rule.id]
            {
                trace.verdict = .coolingDown
                trace.detail = "last fired \(snapshot.zone.iso8601(last)); cooldown \(formatDuration(seconds, .human)) "
                    + "until \(snapshot.zone.iso8601(last + seconds))"
                return Explained(trace: trace, firing: nil)
            }
            let firing = rule.fire(on: event, zone: snapshot.zone)
            trace.key = firing.key.text
            trace.actions = firing.actions.map(RuleTrace.ActionStep.init)
            return Explained(trace: trace, firing: firing)
        }
    }

    /// The trace of `event`, which no rule's trigger takes, as an event no
    /// rule waits for; nil when a trigger still waits for it in another
    /// form (``RuleTrigger/awaits(_:)``: a place crossing watched with a
    /// dwell not yet reached), or when its source made it only for a rule
    /// (``TriggerPayload/isMadeForARule``).
    public func unawaited(_ event: TriggerEvent, noticed: Instant) -> RuleTrace? {
        if event.payload.isMadeForARule { return nil }
        let filed = event.rule.map { id in rules.indices.filter { rules[$0].rule.id == id } }
            ?? byKey[event.payload.indexKey] ?? []
        if filed.contains(where: { index in rules[index].rule.triggers.contains { $0.awaits(event) } }) { return nil }
        return RuleTrace(rule: nil, occurred: event.time, noticed: noticed, trigger: event.summary, verdict: .noRule)
    }

    /// The trace of a timed occurrence the catch-up window did not let
    /// fire: its rule, and how late it was noticed.
    public static func skipped(_ event: TriggerEvent, noticed: Instant, verdict: RuleTrace.Verdict) -> RuleTrace {
        RuleTrace(rule: event.rule, occurred: event.time, noticed: noticed, trigger: event.summary, verdict: verdict,
                  detail: "noticed \(formatDuration(noticed - event.time, .human)) late")
    }
}

extension RuleTrace.ActionStep {
    /// A firing's action before it is carried out: intents with their keys.
    init(_ action: Firing.Action) {
        switch action {
        case .intent(let intent):
            var words = intent.verb
            if case .start(let timer) = intent.action {
                if let project = timer.project { words += " \(project)" }
                if !timer.description.isEmpty { words += " \"\(timer.description)\"" }
            }
            self.init(action: words, key: intent.key)
        case .notify(let title, _):
            self.init(action: "notify \"\(title)\"")
        case .run(let argv, _):
            self.init(action: "run " + argv.joined(separator: " "))
        }
    }
}
