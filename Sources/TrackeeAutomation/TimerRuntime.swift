import TrackeeCore
import TrackeeRules
import TrackeeStore

/// `timer:` triggers at run time. `running_for` edges are timed: each
/// entry that has run the stated length is one occurrence, found in the
/// store (read-only), so they go through the same window, catch-up and
/// watermark as schedules. `started` and `stopped` come from applied
/// intents.
struct TimerRuntime: TimedRuntime {
    let triggers: [RuleTriggered<TimerTrigger>]

    /// An edge at `start + length` in `(after, through]`, for every entry
    /// that started in `(after - length, through - length]` and was still
    /// running then.
    func occurrences(after: Instant, through: Instant, _ context: TimedContext) -> [TimedOccurrence] {
        var result: [TimedOccurrence] = []
        var read: [Int64: [Entry]] = [:]
        for t in triggers {
            guard case .runningFor(let length) = t.trigger.edge else { continue }
            let entries = read[length] ?? ((try? context.state.entries(startedAfter: after - length, through: through - length)) ?? [])
            read[length] = entries
            for entry in entries where t.trigger.accepts(entry) {
                let edge = entry.start + length
                guard entry.end.map({ $0 >= edge }) ?? true else { continue }
                var then = entry
                then.end = nil
                result.append(TimedOccurrence(
                    ruleIndex: t.ruleIndex,
                    event: TriggerEvent(.timer(.runningFor(rule: t.rule, seconds: length), entry: then), time: edge)))
            }
        }
        return result
    }

    func only(ruleIndex: Int, trigger: any RuleTrigger) -> (any TimedRuntime)? {
        guard let trigger = trigger as? TimerTrigger, case .runningFor = trigger.edge else { return nil }
        return TimerRuntime(triggers: triggers.filter { $0.ruleIndex == ruleIndex && $0.trigger == trigger })
    }
}

extension TimerTrigger: TimedTrigger, IntentTrigger {
    static func runtime(_ triggers: [RuleTriggered<TimerTrigger>], _ setup: RuntimeSetup) -> (any TimedRuntime)? {
        let timed = triggers.filter { if case .runningFor = $0.trigger.edge { true } else { false } }
        return timed.isEmpty ? nil : TimerRuntime(triggers: timed)
    }

    /// A start is `started`; a stop `stopped`; a switch both, the saved
    /// entry first. A cancel discards the entry: nothing stopped.
    static func events(_ applied: LoggedIntent) -> [TriggerEvent] {
        let result = applied.result
        func started(_ entry: Entry?) -> [TriggerEvent] {
            guard let entry else { return [] }
            var then = entry
            then.end = nil
            return [TriggerEvent(.timer(.started, entry: then), time: entry.start)]
        }
        func stopped(_ entry: Entry?) -> [TriggerEvent] {
            guard let entry, let end = entry.end else { return [] }
            return [TriggerEvent(.timer(.stopped, entry: entry), time: end)]
        }
        switch result.outcome {
        case .started: return started(result.entry)
        case .switched: return stopped(result.previous) + started(result.entry)
        case .stopped: return stopped(result.entry)
        case .cancelled, .unchanged: return []
        }
    }
}
