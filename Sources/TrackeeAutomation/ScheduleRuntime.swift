import TrackeeCore
import TrackeeRules
import TrackeeSchedule

/// `at:` triggers: every rule's systemd calendar expressions, parsed once.
struct ScheduleRuntime: TimedRuntime {
    /// One rule's `at:` expressions.
    struct RuleSchedule: Sendable {
        var ruleIndex: Int
        var rule: String
        var specs: [(expression: String, spec: CalendarSpec)]
    }

    let schedules: [RuleSchedule]

    init(_ triggers: [RuleTriggered<ScheduleTrigger>]) {
        var schedules: [RuleSchedule] = []
        for t in triggers {
            guard let spec = try? CalendarSpec(t.trigger.expression) else { continue }
            if schedules.last?.ruleIndex == t.ruleIndex {
                schedules[schedules.count - 1].specs.append((t.trigger.expression, spec))
            } else {
                schedules.append(RuleSchedule(ruleIndex: t.ruleIndex, rule: t.rule, specs: [(t.trigger.expression, spec)]))
            }
        }
        self.schedules = schedules
    }

    private init(schedules: [RuleSchedule]) {
        self.schedules = schedules
    }

    /// A schedule elapses for a century ahead, as far as anyone asks.
    var horizon: Int64 { 100 * TimedLookAhead.year }

    /// A rule whose two expressions elapse at the same instant occurs once,
    /// under the first of them.
    func occurrences(after: Instant, through: Instant, _ context: TimedContext) -> [TimedOccurrence] {
        schedules.flatMap { schedule in
            schedule.times(after: after, through: through, zone: context.zone).map { time, expression in
                TimedOccurrence(ruleIndex: schedule.ruleIndex,
                                event: TriggerEvent(.schedule(rule: schedule.rule, expression: expression), time: time))
            }
        }
    }

    /// Each expression finds its own next elapse, which costs less than any
    /// look-ahead.
    func next(after instant: Instant, _ context: TimedContext) -> Instant? {
        schedules.lazy.flatMap(\.specs).compactMap { $0.spec.next(after: instant, zone: context.zone) }.min()
    }

    func only(ruleIndex: Int, trigger: any RuleTrigger) -> (any TimedRuntime)? {
        guard let trigger = trigger as? ScheduleTrigger,
              var schedule = schedules.first(where: { $0.ruleIndex == ruleIndex })
        else { return nil }
        schedule.specs = schedule.specs.filter { $0.expression == trigger.expression }
        return ScheduleRuntime(schedules: schedule.specs.isEmpty ? [] : [schedule])
    }
}

extension ScheduleTrigger: TimedTrigger {
    static func runtime(_ triggers: [RuleTriggered<ScheduleTrigger>], _ setup: RuntimeSetup) -> (any TimedRuntime)? {
        ScheduleRuntime(triggers)
    }
}

extension ScheduleRuntime.RuleSchedule {
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
