import TrackeeCore
import TrackeeRules
import TrackeeSchedule

/// The rules a process runs: the engine, and every rule's `at:`
/// expressions parsed once, so finding the next deadline costs no parsing.
///
/// ```swift
/// let loaded = Automation.load([RuleFile(path: "rules.yaml", text: yaml)])
/// loaded.errors            // positioned, one line each
/// loaded.automation.nextElapse(after: now, zone: zone)
/// ```
public struct Automation: Sendable {
    public let ruleSet: RuleSet
    public let engine: RuleEngine
    let schedules: [RuleSchedule]

    /// One rule's schedule triggers.
    struct RuleSchedule: Sendable {
        var rule: Rule
        var specs: [(expression: String, spec: CalendarSpec)]
    }

    public init(_ ruleSet: RuleSet) {
        self.ruleSet = ruleSet
        engine = RuleEngine(rules: ruleSet.rules)
        schedules = ruleSet.rules.filter(\.enabled).compactMap { rule in
            let specs = rule.triggers.compactMap { trigger -> (String, CalendarSpec)? in
                guard case .schedule(let expression) = trigger, let spec = try? CalendarSpec(expression) else { return nil }
                return (expression, spec)
            }
            return specs.isEmpty ? nil : RuleSchedule(rule: rule, specs: specs)
        }
    }

    /// Loads rule files, checking `at:` expressions with the schedule
    /// parser. Rules with errors are left out; the rest run.
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

    /// The earliest schedule elapse after `instant`, over all rules.
    public func nextElapse(after instant: Instant, zone: Zone) -> Instant? {
        schedules.lazy.flatMap(\.specs).compactMap { $0.spec.next(after: instant, zone: zone) }.min()
    }

    /// One upcoming schedule elapse.
    public struct Elapse: Sendable, Equatable {
        public var rule: String
        public var expression: String
        public var time: Instant
    }

    /// The first `count` elapses after `instant` across all rules, in time
    /// order (ties in rule order).
    public func upcoming(after instant: Instant, count: Int, zone: Zone) -> [Elapse] {
        var all: [Elapse] = []
        for schedule in schedules {
            for (expression, spec) in schedule.specs {
                all += spec.elapses(after: instant, zone: zone, count: count).map {
                    Elapse(rule: schedule.rule.id, expression: expression, time: $0)
                }
            }
        }
        return Array(all.enumerated().sorted {
            $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset
        }.prefix(count).map(\.element))
    }

    /// The first `count` elapses of one rule's `at:` expression after
    /// `instant`; empty for an unknown rule or expression.
    public func elapses(rule: String, expression: String, after instant: Instant, count: Int, zone: Zone) -> [Instant] {
        guard let schedule = schedules.first(where: { $0.rule.id == rule }),
              let spec = schedule.specs.first(where: { $0.expression == expression })?.spec
        else { return [] }
        return spec.elapses(after: instant, zone: zone, count: count)
    }

    /// What a window of schedule time holds: the events that fire, in time
    /// order, and the occurrences the catch-up policy passes over.
    public struct Window: Sendable {
        public var events: [TriggerEvent]
        public var skipped: [(event: TriggerEvent, reason: CatchUp.Skip)]
    }

    /// Every schedule occurrence in `(after, through]`, in time order (ties
    /// in rule order), with no catch-up policy applied: what a simulation
    /// plays. A rule whose two expressions elapse at the same instant
    /// occurs once.
    public func occurrences(after: Instant, through: Instant, zone: Zone) -> [TriggerEvent] {
        var events: [(TriggerEvent, Int)] = []
        for (order, schedule) in schedules.enumerated() {
            let times = schedule.times(after: after, through: through, zone: zone)
            events += times.keys.map { (TriggerEvent(.schedule(rule: schedule.rule.id, expression: times[$0]!), time: $0), order) }
        }
        return events.sorted { $0.0.time != $1.0.time ? $0.0.time < $1.0.time : $0.1 < $1.1 }.map(\.0)
    }

    /// Schedule occurrences in `(after, through]`, noticed at `now`, sorted
    /// into those that fire and those each rule's catch-up policy skips. A
    /// rule whose two expressions elapse at the same instant fires once.
    /// Occurrences too old to fire (more than `max_late` before `now`) are
    /// reported only for the day before that limit, so a long downtime
    /// costs little.
    public func window(after: Instant, through: Instant, now: Instant, zone: Zone) -> Window {
        var events: [(TriggerEvent, Int)] = []
        var skipped: [(event: TriggerEvent, reason: CatchUp.Skip)] = []
        for (order, schedule) in schedules.enumerated() {
            let policy = CatchUp(schedule.rule)
            let start = max(after, now - max(policy.maxLate, CatchUp.grace) - 86_400)
            let times = schedule.times(after: start, through: through, zone: zone)
            let sorted = policy.sort(Array(times.keys), now: now)
            func event(_ time: Instant) -> TriggerEvent {
                TriggerEvent(.schedule(rule: schedule.rule.id, expression: times[time]!), time: time)
            }
            events += sorted.fire.map { (event($0), order) }
            skipped += sorted.skip.map { (event($0.0), $0.1) }
        }
        events.sort { $0.0.time != $1.0.time ? $0.0.time < $1.0.time : $0.1 < $1.1 }
        return Window(events: events.map(\.0), skipped: skipped.sorted { $0.event.time < $1.event.time })
    }
}

extension Automation.RuleSchedule {
    /// Elapse instants in `(after, through]`, each with the first of the
    /// rule's expressions that elapses then.
    func times(after: Instant, through: Instant, zone: Zone) -> [Instant: String] {
        var times: [Instant: String] = [:]
        for (expression, spec) in specs {
            var t = after
            while let next = spec.next(after: t, zone: zone), next <= through {
                if times[next] == nil { times[next] = expression }
                t = next
            }
        }
        return times
    }
}

extension CatchUp {
    /// A rule's `catchup` and `max_late`.
    init(_ rule: Rule) {
        self.init(policy: rule.catchup, maxLate: rule.maxLate.components.seconds)
    }
}
