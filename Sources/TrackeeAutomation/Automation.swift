import TrackeeCalendar
import TrackeeCore
import TrackeeRules
import TrackeeSchedule

/// The rules a process runs: the engine, and the timed trigger runtimes
/// (schedules, calendar edges) prepared once, so finding the next deadline
/// costs no parsing.
///
/// ```swift
/// let loaded = Automation.load([RuleFile(path: "rules.yaml", text: yaml)])
/// loaded.errors            // positioned, one line each
/// let automation = Automation(loaded.automation.ruleSet, calendars: calendars)
/// automation.nextElapse(after: now, zone: zone)
/// ```
public struct Automation: Sendable {
    public let ruleSet: RuleSet
    public let engine: RuleEngine
    /// One per timed kind some enabled rule uses, in the order the kinds
    /// first appear in the rules.
    let runtimes: [any TimedRuntime]
    /// The calendars the automation was given.
    public let calendars: [String: EventCalendar]
    /// Each rule's catch-up policy, by its index in `ruleSet.rules`.
    let policies: [CatchUp]
    /// The kinds fed by applied intents that some enabled rule uses.
    let intentKinds: [any IntentTrigger.Type]

    /// `calendars` are the calendars `ruleSet.calendars` names, read by
    /// ``CalendarFiles``; a calendar trigger whose calendar is missing
    /// never fires.
    public init(_ ruleSet: RuleSet, calendars: [String: EventCalendar] = [:]) {
        self.ruleSet = ruleSet
        self.calendars = calendars
        engine = RuleEngine(rules: ruleSet.rules)
        var kinds: [any TimedTrigger.Type] = []
        for rule in ruleSet.rules where rule.enabled {
            for case let trigger as any TimedTrigger in rule.triggers {
                let kind = type(of: trigger)
                if !kinds.contains(where: { $0 == kind }) { kinds.append(kind) }
            }
        }
        let setup = RuntimeSetup(calendars: calendars)
        runtimes = kinds.compactMap { $0.runtime(in: ruleSet.rules, setup) }
        policies = ruleSet.rules.map(CatchUp.init)
        intentKinds = Self.intentKinds(ruleSet.rules)
    }

    /// Loads rule files, checking `at:` expressions with the schedule
    /// parser. Rules with errors are left out; the rest run. Calendars are
    /// not read here.
    public static func load(_ files: [RuleFile]) -> (automation: Automation, errors: [RuleError]) {
        let result = RuleSet.load(files) { expression in
            do {
                _ = try CalendarSpec(expression)
                return nil
            } catch {
                return "\(error)"
            }
        }
        return (Automation(result.ruleSet), result.errors)
    }

    /// The earliest timed occurrence after `instant`, over all rules: what
    /// the daemon arms its one deadline for.
    public func nextElapse(after instant: Instant, zone: Zone, state: TrackerState = .empty) -> Instant? {
        let context = TimedContext(zone: zone, state: state)
        return runtimes.compactMap { $0.next(after: instant, context) }.min()
    }

    /// Every timed occurrence in `(after, through]`, in time order (ties in
    /// rule order), with no catch-up policy applied: what a simulation
    /// plays. A rule whose two expressions elapse at the same instant
    /// occurs once.
    public func occurrences(after: Instant, through: Instant, zone: Zone, state: TrackerState = .empty) -> [TriggerEvent] {
        let context = TimedContext(zone: zone, state: state)
        return TimedLookAhead.ordered(runtimes.flatMap { $0.occurrences(after: after, through: through, context) }).map(\.event)
    }

    /// The first `count` timed occurrences after `instant` across all
    /// rules, in time order (ties in rule order), among those `include`
    /// keeps. Calendars are looked at up to a year ahead.
    public func upcoming(after instant: Instant, count: Int, zone: Zone, state: TrackerState = .empty,
                         where include: (TriggerEvent) -> Bool = { _ in true }) -> [TriggerEvent] {
        TimedLookAhead.upcoming(runtimes, after: instant, count: count, TimedContext(zone: zone, state: state), where: include)
    }

    /// The first `count` occurrences of one trigger of `rule` after
    /// `instant`: empty for a disabled rule; nil when no timed runtime
    /// serves the trigger (not a timed kind, or its calendar was not read).
    public func upcoming(of trigger: any RuleTrigger, rule: Rule, after instant: Instant, count: Int, zone: Zone,
                         state: TrackerState = .empty) -> [TriggerEvent]? {
        guard let ruleIndex = ruleSet.rules.firstIndex(where: { $0.id == rule.id }) else { return nil }
        if !rule.enabled {
            // A disabled rule has no runtime; say whether it would have one.
            guard let kind = trigger as? any TimedTrigger,
                  type(of: kind).runtime(in: [enabledCopy(rule)], RuntimeSetup(calendars: calendars))?
                      .only(ruleIndex: 0, trigger: trigger) != nil
            else { return nil }
            return []
        }
        let served = runtimes.compactMap { $0.only(ruleIndex: ruleIndex, trigger: trigger) }
        guard !served.isEmpty else { return nil }
        return TimedLookAhead.upcoming(served, after: instant, count: count, TimedContext(zone: zone, state: state)) { _ in true }
    }

    /// The kinds of the enabled rules' desk triggers (`idle`, `session`,
    /// …), each once, in the order the rules first name them: they fire
    /// when the machine changes, so no look-ahead has a time for them.
    public var untimedKinds: [String] {
        var kinds: [String] = []
        for rule in ruleSet.rules where rule.enabled {
            for case let trigger as any DeskTrigger in rule.triggers where !kinds.contains(trigger.kindName) {
                kinds.append(trigger.kindName)
            }
        }
        return kinds
    }

    private func enabledCopy(_ rule: Rule) -> Rule {
        var rule = rule
        rule.enabled = true
        return rule
    }

    /// What a window of time holds: the timed occurrences that fire, in
    /// time order, and those the catch-up policy passes over.
    public struct Window: Sendable {
        public var events: [TriggerEvent]
        public var skipped: [(event: TriggerEvent, reason: CatchUp.Skip)]
    }

    /// Timed occurrences in `(after, through]`, noticed at `now`, sorted
    /// into those that fire and those each rule's catch-up policy skips.
    /// Occurrences too old to fire (more than `max_late` before `now`) are
    /// reported only for the day before that limit, so a long downtime
    /// costs little.
    public func window(after: Instant, through: Instant, now: Instant, zone: Zone, state: TrackerState = .empty) -> Window {
        let context = TimedContext(zone: zone, state: state)
        func lookback(_ policy: CatchUp) -> Instant { max(after, now - max(policy.maxLate, CatchUp.grace) - 86_400) }
        guard let earliest = policies.map(lookback).min() else { return Window(events: [], skipped: []) }
        var byRule: [Int: [(time: Instant, item: TriggerEvent)]] = [:]
        for o in runtimes.flatMap({ $0.occurrences(after: earliest, through: through, context) })
        where o.event.time > lookback(policies[o.ruleIndex]) {
            byRule[o.ruleIndex, default: []].append((o.event.time, o.event))
        }
        var fire: [TimedOccurrence] = []
        var skipped: [(event: TriggerEvent, reason: CatchUp.Skip)] = []
        for (index, items) in byRule {
            let sorted = policies[index].sort(items, now: now)
            fire += sorted.fire.map { TimedOccurrence(ruleIndex: index, event: $0) }
            skipped += sorted.skip.map { (event: $0.0, reason: $0.1) }
        }
        return Window(events: TimedLookAhead.ordered(fire).map(\.event),
                      skipped: skipped.sorted { ($0.event.time, $0.event.occurrence) < ($1.event.time, $1.event.occurrence) })
    }
}

extension CatchUp {
    /// A rule's `catchup` and `max_late`.
    init(_ rule: Rule) {
        self.init(policy: rule.catchup, maxLate: rule.maxLate.components.seconds)
    }
}
