import TrackeeCalendar
import TrackeeCore
import TrackeeRules

/// `calendar:` triggers: the start and end edges of calendar occurrences,
/// each rule's offset and `match:` applied. The calendars are read before
/// (``CalendarFiles``); this only expands them over windows.
struct CalendarEdgeRuntime: TimedRuntime {
    let triggers: [RuleTriggered<CalendarTrigger>]
    let calendars: [String: EventCalendar]

    init(_ triggers: [RuleTriggered<CalendarTrigger>], calendars: [String: EventCalendar]) {
        self.triggers = triggers
        self.calendars = calendars
    }

    /// Edges whose time (edge plus offset) lies in `(after, through]`. A
    /// rule with two triggers that accept the same edge at the same offset
    /// gets it once; at different offsets, once for each.
    func occurrences(after: Instant, through: Instant, _ context: TimedContext) -> [TimedOccurrence] {
        var result: [TimedOccurrence] = []
        var seen: Set<FiringKey> = []
        var expanded: [String: [CalendarOccurrence]] = [:]
        for t in triggers {
            guard let calendar = calendars[t.trigger.calendar] else { continue }
            // The offset is counted on the wall clock, so the edge may sit up
            // to a DST change (at most a few hours) either way of the shift.
            let slack: Int64 = t.trigger.offset == 0 ? 0 : 4 * 3600
            let from = after - t.trigger.offset - slack
            let to = through - t.trigger.offset + slack
            let key = "\(t.trigger.calendar)\u{0}\(from.seconds)\u{0}\(to.seconds)"
            let occurrences = expanded[key] ?? calendar.occurrences(from: from, to: to + 1)
            expanded[key] = occurrences
            for o in occurrences where t.trigger.accepts(o) {
                let time = t.trigger.time(of: o, zone: context.zone)
                guard time > after && time <= through else { continue }
                let event = TriggerEvent(
                    .calendar(rule: t.rule, edge: t.trigger.edge, offset: t.trigger.offset, occurrence: o), time: time)
                if seen.insert(event.firingKey(rule: t.rule)).inserted {
                    result.append(TimedOccurrence(ruleIndex: t.ruleIndex, event: event))
                }
            }
        }
        return result
    }

    /// Only a trigger whose calendar was read.
    func only(ruleIndex: Int, trigger: any RuleTrigger) -> (any TimedRuntime)? {
        guard let trigger = trigger as? CalendarTrigger, calendars[trigger.calendar] != nil else { return nil }
        return CalendarEdgeRuntime(
            triggers: triggers.filter { $0.ruleIndex == ruleIndex && $0.trigger == trigger }, calendars: calendars)
    }

    private init(triggers: [RuleTriggered<CalendarTrigger>], calendars: [String: EventCalendar]) {
        self.triggers = triggers
        self.calendars = calendars
    }
}

extension CalendarTrigger: TimedTrigger {
    static func runtime(_ triggers: [RuleTriggered<CalendarTrigger>], _ setup: RuntimeSetup) -> (any TimedRuntime)? {
        CalendarEdgeRuntime(triggers, calendars: setup.calendars)
    }
}
