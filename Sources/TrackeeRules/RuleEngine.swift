import TrackeeCore

/// Decides which rules an event fires and what they do. Pure: the event and
/// a snapshot of the state go in, firings come out; recording them (once,
/// by key) is the store's job.
///
/// Rules are compiled once here: events find their rules through indexes
/// (schedule events by rule id, focus events by mode and state) and
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
    private let byFocus: [FocusKey: [Int]]
    let byPlace: [String: [Int]]

    public init(rules: [Rule]) {
        let compiled = rules.filter(\.enabled).map(CompiledRule.init)
        var byID: [String: Int] = [:]
        var byFocus: [FocusKey: [Int]] = [:]
        var byPlace: [String: [Int]] = [:]
        for (index, rule) in compiled.enumerated() {
            for case .place(let trigger) in rule.rule.triggers where byPlace[trigger.place]?.last != index {
                byPlace[trigger.place, default: []].append(index)
            }
            if byID[rule.rule.id] == nil { byID[rule.rule.id] = index }
            for case .focus(let mode, let state) in rule.rule.triggers {
                let key = FocusKey(mode: foldFocus(mode), state: state)
                if byFocus[key]?.last != index { byFocus[key, default: []].append(index) }
            }
        }
        self.rules = compiled
        self.byID = byID
        self.byFocus = byFocus
        self.byPlace = byPlace
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

    func candidates(for event: TriggerEvent, zone: Zone) -> [Int] {
        switch event.kind {
        case .schedule(let id, let expression):
            guard let index = byID[id], rules[index].rule.triggers.contains(.schedule(expression: expression))
            else { return [] }
            return [index]
        case .focus(let mode, let state, _):
            return byFocus[FocusKey(mode: foldFocus(mode), state: state)] ?? []
        case .calendar(let id, let edge, let offset, let occurrence):
            guard let index = byID[id], rules[index].rule.triggers.contains(where: {
                guard case .calendar(let trigger) = $0 else { return false }
                return trigger.edge == edge && trigger.offset == offset && trigger.accepts(occurrence) && trigger.time(of: occurrence, zone: zone) == event.time
            }) else { return [] }
            return [index]
        case .place(let placeEvent):
            return (byPlace[placeEvent.place] ?? []).filter { index in
                rules[index].rule.triggers.contains { if case .place(let t) = $0 { t.accepts(placeEvent) } else { false } }
            }
        }
    }
}

private struct FocusKey: Hashable {
    let mode: String
    let state: FocusState
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
        let key = "\(rule.id)@\(event.occurrence)"
        let values = event.templateValues(rule: rule.id, zone: zone)
        let label = rule.name.map { "rule \"\(rule.id)\" (\($0))" } ?? "rule \"\(rule.id)\""
        return Firing(
            rule: rule.id, key: key, formerKey: event.formerOccurrence.map { "\(rule.id)@\($0)" }, time: event.time,
            description: "\(label): \(event.summary) at \(values["time"]!)",
            actions: rule.actions.enumerated().map { index, action in
                resolve(action, values: values, intentKey: "\(key)#\(index)", at: event.time)
            })
    }

    private func resolve(_ action: RuleAction, values: [String: String], intentKey: String, at time: Instant)
        -> Firing.Action
    {
        func intent(_ action: Intent.Action) -> Firing.Action {
            .intent(Intent(action, at: time, source: "rule:\(rule.id)", key: intentKey))
        }
        switch action {
        case .start(let timer): return intent(.start(timer.render(values)))
        case .stop: return intent(.stop)
        case .cancel: return intent(.cancel)
        case .notify(let title, let body): return .notify(title: title.render(values), body: body?.render(values))
        case .run(let argv): return .run(argv: argv.map { $0.render(values) }, environment: environment(values))
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
