import TrackeeCalendar
import TrackeeCore
import TrackeeRules
import TrackeeSchedule

/// The rules a process runs: the engine, and the timed trigger sources
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
    let schedule: ScheduleSource
    let calendar: CalendarEdgeSource
    /// Each rule's catch-up policy, by its index in `ruleSet.rules`.
    let policies: [CatchUp]

    private var sources: [any TimedSource] { [schedule, calendar] }

    /// `calendars` are the calendars `ruleSet.calendars` names, read by
    /// ``CalendarFiles``; a calendar trigger whose calendar is missing
    /// never fires.
    public init(_ ruleSet: RuleSet, calendars: [String: EventCalendar] = [:]) {
        self.ruleSet = ruleSet
        engine = RuleEngine(rules: ruleSet.rules)
        schedule = ScheduleSource(ruleSet.rules)
        calendar = CalendarEdgeSource(ruleSet.rules, calendars: calendars)
        policies = ruleSet.rules.map(CatchUp.init)
    }

    /// The calendars the automation was given.
    public var calendars: [String: EventCalendar] { calendar.calendars }

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
    public func nextElapse(after instant: Instant, zone: Zone) -> Instant? {
        sources.compactMap { $0.next(after: instant, zone: zone) }.min()
    }

    /// Every timed occurrence in `(after, through]`, in time order (ties in
    /// rule order), with no catch-up policy applied: what a simulation
    /// plays. A rule whose two expressions elapse at the same instant
    /// occurs once.
    public func occurrences(after: Instant, through: Instant, zone: Zone) -> [TriggerEvent] {
        Self.ordered(sources.flatMap { $0.occurrences(after: after, through: through, zone: zone) }).map(\.event)
    }

    /// The first `count` timed occurrences after `instant` across all
    /// rules, in time order (ties in rule order), among those `include`
    /// keeps. Calendars are looked at up to a year ahead.
    public func upcoming(after instant: Instant, count: Int, zone: Zone,
                         where include: (TriggerEvent) -> Bool = { _ in true }) -> [TriggerEvent] {
        var found: [TimedOccurrence] = []
        for schedule in schedule.schedules {
            for (expression, spec) in schedule.specs {
                let events = spec.elapses(after: instant, zone: zone, count: count).map {
                    TriggerEvent(.schedule(rule: schedule.rule, expression: expression), time: $0)
                }
                found += events.filter(include).map { TimedOccurrence(ruleIndex: schedule.ruleIndex, event: $0) }
            }
        }
        if !calendar.triggers.isEmpty {
            var through = instant
            for span: Int64 in [86_400, 7 * 86_400, 31 * 86_400, 366 * 86_400] {
                let ahead = calendar.occurrences(after: through, through: instant + span, zone: zone)
                found += ahead.filter { include($0.event) }
                through = instant + span
                if found.filter({ if case .calendar = $0.event.kind { true } else { false } }).count >= count { break }
            }
        }
        var seen: Set<FiringKey> = []
        return Self.ordered(found).filter { seen.insert($0.event.firingKey(rule: $0.event.rule ?? "")).inserted }
            .prefix(count).map(\.event)
    }

    /// The first `count` elapses of one rule's `at:` expression after
    /// `instant`; empty for an unknown rule or expression.
    public func elapses(rule: String, expression: String, after instant: Instant, count: Int, zone: Zone) -> [Instant] {
        schedule.elapses(rule: rule, expression: expression, after: instant, count: count, zone: zone)
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
    public func window(after: Instant, through: Instant, now: Instant, zone: Zone) -> Window {
        func lookback(_ policy: CatchUp) -> Instant { max(after, now - max(policy.maxLate, CatchUp.grace) - 86_400) }
        guard let earliest = policies.map(lookback).min() else { return Window(events: [], skipped: []) }
        var byRule: [Int: [(time: Instant, item: TriggerEvent)]] = [:]
        for o in sources.flatMap({ $0.occurrences(after: earliest, through: through, zone: zone) })
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
        return Window(events: Self.ordered(fire).map(\.event),
                      skipped: skipped.sorted { ($0.event.time, $0.event.occurrence) < ($1.event.time, $1.event.occurrence) })
    }

    /// By time, ties in rule order, then in the order given.
    private static func ordered(_ occurrences: [TimedOccurrence]) -> [TimedOccurrence] {
        occurrences.enumerated().sorted {
            ($0.element.event.time, $0.element.ruleIndex, $0.offset) < ($1.element.event.time, $1.element.ruleIndex, $1.offset)
        }.map(\.element)
    }
}

extension CatchUp {
    /// A rule's `catchup` and `max_late`.
    init(_ rule: Rule) {
        self.init(policy: rule.catchup, maxLate: rule.maxLate.components.seconds)
    }
}
