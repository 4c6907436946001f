import TrackeeCore
import TrackeeRules

/// The rules as a page shows them beside what they did: each rule with
/// its trigger kinds, and the next timed firings as `rules next` lists
/// them. Plain values, so a caller outside the daemon's actor can keep it.
public struct RulesOutlook: Sendable, Equatable {
    public struct RuleLine: Sendable, Equatable {
        public var id: String
        public var name: String?
        public var enabled: Bool
        /// Its triggers as `rules check` writes them, a timed one with its
        /// next occurrence (`at Mon..Fri 09:00: 2026-11-30T09:00:00+01:00`).
        public var triggers: [String]

        public init(id: String, name: String?, enabled: Bool, triggers: [String]) {
            self.id = id
            self.name = name
            self.enabled = enabled
            self.triggers = triggers
        }
    }

    public struct Firing: Sendable, Equatable {
        public var time: Instant
        public var rule: String
        /// What `rules next` says of it after the time and the rule.
        public var text: String

        public init(time: Instant, rule: String, text: String) {
            self.time = time
            self.rule = rule
            self.text = text
        }
    }

    public var rules: [RuleLine]
    public var next: [Firing]
    /// The kinds of the enabled rules' triggers that fire when the machine
    /// changes, which no look-ahead lists (``Automation/untimedKinds``).
    public var untimedKinds: [String]

    public init(rules: [RuleLine] = [], next: [Firing] = [], untimedKinds: [String] = []) {
        self.rules = rules
        self.next = next
        self.untimedKinds = untimedKinds
    }
}

extension Automation {
    /// The rules and the first `count` timed firings after `instant`.
    public func outlook(after instant: Instant, count: Int, zone: Zone, state: TrackerState = .empty) -> RulesOutlook {
        let rules = ruleSet.rules.map { rule in
            RulesOutlook.RuleLine(
                id: rule.id, name: rule.name, enabled: rule.enabled,
                triggers: rule.triggers.map { trigger in
                    let ahead = upcoming(of: trigger, rule: rule, after: instant, count: 1, zone: zone, state: state)
                    return trigger.checkView(ahead: ahead, enabled: rule.enabled, zone: zone).text
                })
        }
        let next = upcoming(after: instant, count: count, zone: zone, state: state).map {
            RulesOutlook.Firing(time: $0.time, rule: $0.rule ?? "", text: $0.payload.upcomingText)
        }
        return RulesOutlook(rules: rules, next: next, untimedKinds: untimedKinds)
    }
}
