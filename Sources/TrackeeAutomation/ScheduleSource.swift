import TrackeeCore
import TrackeeRules
import TrackeeSchedule

/// `at:` triggers: every rule's systemd calendar expressions, parsed once.
struct ScheduleSource: TimedSource {
    /// One rule's `at:` expressions.
    struct RuleSchedule: Sendable {
        var ruleIndex: Int
        var rule: String
        var specs: [(expression: String, spec: CalendarSpec)]
    }

    let schedules: [RuleSchedule]

    init(_ rules: [Rule]) {
        schedules = rules.enumerated().compactMap { index, rule in
            guard rule.enabled else { return nil }
            let specs = rule.triggers.compactMap { trigger -> (String, CalendarSpec)? in
                guard case .schedule(let expression) = trigger, let spec = try? CalendarSpec(expression) else { return nil }
                return (expression, spec)
            }
            return specs.isEmpty ? nil : RuleSchedule(ruleIndex: index, rule: rule.id, specs: specs)
        }
    }

    /// A rule whose two expressions elapse at the same instant occurs once,
    /// under the first of them.
    func occurrences(after: Instant, through: Instant, zone: Zone) -> [TimedOccurrence] {
        schedules.flatMap { schedule in
            schedule.times(after: after, through: through, zone: zone).map { time, expression in
                TimedOccurrence(ruleIndex: schedule.ruleIndex,
                                event: TriggerEvent(.schedule(rule: schedule.rule, expression: expression), time: time))
            }
        }
    }

    func next(after instant: Instant, zone: Zone) -> Instant? {
        schedules.lazy.flatMap(\.specs).compactMap { $0.spec.next(after: instant, zone: zone) }.min()
    }

    /// The first `count` elapses of one rule's `at:` expression after
    /// `instant`; empty for an unknown rule or expression.
    func elapses(rule: String, expression: String, after instant: Instant, count: Int, zone: Zone) -> [Instant] {
        guard let schedule = schedules.first(where: { $0.rule == rule }),
              let spec = schedule.specs.first(where: { $0.expression == expression })?.spec
        else { return [] }
        return spec.elapses(after: instant, zone: zone, count: count)
    }
}

extension ScheduleSource.RuleSchedule {
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
