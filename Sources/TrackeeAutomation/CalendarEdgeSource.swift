import TrackeeCalendar
import TrackeeCore
import TrackeeRules

/// `calendar:` triggers: the start and end edges of calendar occurrences,
/// each rule's offset and `match:` applied. The calendars are read before
/// (``CalendarFiles``); this only expands them over windows.
struct CalendarEdgeSource: TimedSource {
    struct RuleTrigger: Sendable {
        var ruleIndex: Int
        var rule: String
        var trigger: CalendarTrigger
    }

    let triggers: [RuleTrigger]
    let calendars: [String: EventCalendar]

    init(_ rules: [Rule], calendars: [String: EventCalendar]) {
        triggers = rules.enumerated().flatMap { index, rule in
            rule.enabled ? rule.triggers.compactMap { trigger -> RuleTrigger? in
                guard case .calendar(let t) = trigger else { return nil }
                return RuleTrigger(ruleIndex: index, rule: rule.id, trigger: t)
            } : []
        }
        self.calendars = calendars
    }

    /// Edges whose time (edge plus offset) lies in `(after, through]`. A
    /// rule with two triggers that accept the same edge at the same offset
    /// gets it once; at different offsets, once for each.
    func occurrences(after: Instant, through: Instant, zone: Zone) -> [TimedOccurrence] {
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
                let time = t.trigger.time(of: o, zone: zone)
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

    /// Looks ahead a day, then a week, a month and a year, keeping only the
    /// earliest edge of each look.
    func next(after instant: Instant, zone: Zone) -> Instant? {
        guard !triggers.isEmpty else { return nil }
        var looked = instant
        for span: Int64 in [86_400, 7 * 86_400, 31 * 86_400, 366 * 86_400] {
            let through = instant + span
            var earliest: Instant?
            var expanded: [String: [CalendarOccurrence]] = [:]
            for t in triggers {
                guard let calendar = calendars[t.trigger.calendar] else { continue }
                let slack: Int64 = t.trigger.offset == 0 ? 0 : 4 * 3600
                let key = "\(t.trigger.calendar)\u{0}\(t.trigger.offset)"
                let occurrences = expanded[key] ?? calendar.occurrences(
                    from: looked - t.trigger.offset - slack, to: through - t.trigger.offset + slack + 1, sorted: false)
                expanded[key] = occurrences
                for o in occurrences where t.trigger.accepts(o) {
                    let time = t.trigger.time(of: o, zone: zone)
                    if time > instant && time <= through && time < (earliest ?? .init(seconds: .max)) { earliest = time }
                }
            }
            if let earliest { return earliest }
            looked = through
        }
        return nil
    }
}
