import TrackeeCore

/// Decides which rules an event fires and what they do. Pure: the event and
/// a snapshot of the state go in, firings come out; recording them (once,
/// by key) is the store's job.
///
/// Rules are compiled once here: events find their rules through indexes
/// (events made for a rule by its id, others by their kind's index key,
/// such as a focus mode and state) and
/// conditions are checked without parsing or allocating.
///
///     let engine = RuleEngine(rules: result.ruleSet.rules)
///     let event = TriggerEvent(.focus(mode: "deep", state: .on, sequence: 17), time: now)
///     for firing in engine.evaluate(event, snapshot: Snapshot(zone: .local(), focus: "deep")) {
///         try store.fire(key: firing.key, …)
///     }
public struct RuleEngine: Sendable {
    let rules: [CompiledRule]
    private let byID: [String: Int]
    /// Rules by the ``TriggerIndex/key(_:)`` of their triggers, each rule
    /// once per key, in rule order.
    let byKey: [String: [Int]]

    public init(rules: [Rule]) {
        let compiled = rules.filter(\.enabled).map(CompiledRule.init)
        var byID: [String: Int] = [:]
        var byKey: [String: [Int]] = [:]
        for (index, rule) in compiled.enumerated() {
            if byID[rule.rule.id] == nil { byID[rule.rule.id] = index }
            for trigger in rule.rule.triggers {
                guard case .key(let key) = trigger.index, byKey[key]?.last != index else { continue }
                byKey[key, default: []].append(index)
            }
        }
        self.rules = compiled
        self.byID = byID
        self.byKey = byKey
    }

    /// The firings `event` causes, in rule order.
    ///
    /// A schedule event considers only the rule it names, and only when
    /// that rule has an `at:` with the event's expression; a calendar event
    /// likewise, when that rule has a `calendar:` trigger that accepts the
    /// occurrence at the event's time; a focus event considers every rule
    /// with a matching `focus:` trigger, and a place event every rule with
    /// a matching `arrive:` or `leave:` (same place, source and `for:`). A considered
    /// rule fires when all its conditions hold at `event.time` in
    /// `snapshot.zone` and it is not cooling down (`event.time` earlier
    /// than its last firing plus its cooldown).
    public func evaluate(_ event: TriggerEvent, snapshot: Snapshot) -> [Firing] {
        evaluate(event, zone: snapshot.zone) { snapshot }
    }

    /// ``evaluate(_:snapshot:)`` with the state read only when a rule waits
    /// for `event`: most of a feed's transitions are at places no rule
    /// watches, and reading the state costs more than deciding that.
    public func evaluate(_ event: TriggerEvent, zone: Zone, snapshot read: () throws -> Snapshot) rethrows -> [Firing] {
        let candidates = candidates(for: event, zone: zone)
        guard !candidates.isEmpty else { return [] }
        let snapshot = try read()
        let moment = Moment(event.time, snapshot)
        return candidates.compactMap { index in
            let rule = rules[index]
            guard rule.checks.allSatisfy({ $0.holds(at: moment) }), !rule.isCoolingDown(at: event.time, snapshot)
            else { return nil }
            return rule.fire(on: event, zone: snapshot.zone)
        }
    }

    /// Whether any rule waits for `event`, before its conditions: when none
    /// does, ``evaluate(_:snapshot:)`` returns nothing whatever the state,
    /// and a caller need not read the state at all.
    public func considers(_ event: TriggerEvent, zone: Zone) -> Bool {
        !candidates(for: event, zone: zone).isEmpty
    }

    /// An event made for one rule looks at that rule; any other at the
    /// rules filed under its index key. Either way a rule is a candidate
    /// only when one of its triggers accepts the event.
    func candidates(for event: TriggerEvent, zone: Zone) -> [Int] {
        let filed: [Int]
        if let id = event.rule {
            guard let index = byID[id] else { return [] }
            filed = [index]
        } else {
            filed = byKey[event.payload.indexKey] ?? []
        }
        return filed.filter { index in rules[index].rule.triggers.contains { $0.accepts(event, zone: zone) } }
    }
}

/// A rule with its conditions compiled.
struct CompiledRule: Sendable {
    let rule: Rule
    let checks: [Check]
    let cooldownSeconds: Int64?

    init(_ rule: Rule) {
        self.rule = rule
        checks = rule.conditions.map(Check.init)
        cooldownSeconds = rule.cooldown.map { $0.components.seconds }
    }

    func isCoolingDown(at time: Instant, _ snapshot: Snapshot) -> Bool {
        guard let cooldownSeconds, let last = snapshot.lastFired[rule.id] else { return false }
        return time < last + cooldownSeconds
    }

    func fire(on event: TriggerEvent, zone: Zone) -> Firing {
        let key = event.firingKey(rule: rule.id)
        let values = event.templateValues(rule: rule.id, zone: zone)
        let label = rule.name.map { "rule \"\(rule.id)\" (\($0))" } ?? "rule \"\(rule.id)\""
        let trigger = event.summary
        var refusal: String?
        var firing = Firing(
            key: key, formerKey: event.formerFiringKey(rule: rule.id), time: event.time, trigger: trigger,
            description: "\(label): \(trigger) at \(values["time"]!)",
            actions: rule.actions.enumerated().map { index, action in
                resolve(action, values: values, intentKey: key.intentKey(index), at: event.time, zone: zone, refusal: &refusal)
            })
        firing.refusal = refusal
        return firing
    }

    private func resolve(_ action: RuleAction, values: [String: String], intentKey: String, at time: Instant, zone: Zone,
                         refusal: inout String?) -> Firing.Action
    {
        func intent(_ action: Intent.Action, at: Instant = time) -> Firing.Action {
            .intent(Intent(action, at: at, source: .rule(rule.id), key: intentKey))
        }
        switch action {
        case .start(let timer): return intent(.start(timer.render(values, zone: zone)))
        case .stop: return intent(.stop)
        case .stopAt(let template):
            let text = template.render(values, zone: zone)
            do {
                return intent(.stop, at: try TimeExpression.parse(text, now: time, zone: zone))
            } catch {
                refusal = "stop at \"\(text)\": not a time (\(template.source))"
                return intent(.stop)
            }
        case .cancel: return intent(.cancel)
        case .notify(let title, let body): return .notify(title: title.render(values, zone: zone), body: body?.render(values, zone: zone))
        case .run(let argv): return .run(argv: argv.map { $0.render(values, zone: zone) }, environment: environment(values))
        }
    }

    /// `TRACKEE_RULE`, `TRACKEE_RULE_NAME`, and `TRACKEE_TRIGGER_<FIELD>`
    /// for every template field but `rule`.
    private func environment(_ values: [String: String]) -> [String: String] {
        var environment = ["TRACKEE_RULE": rule.id]
        if let name = rule.name { environment["TRACKEE_RULE_NAME"] = name }
        for (field, value) in values where field != "rule" {
            environment["TRACKEE_TRIGGER_" + field.uppercased()] = value
        }
        return environment
    }
}
