/// One automation: when a trigger fires and the conditions hold, run the
/// actions in order.
///
///     - id: office-hours
///       name: Office hours
///       when: {at: "Mon..Fri 09:00"}
///       if: {focus: none}
///       do:
///         - start: {project: Office, tags: [auto]}
public struct Rule: Sendable, Equatable {
    /// Letters, digits, `-`, `_` and `.`; unique across all loaded files.
    /// Firing keys and the `rule:<id>` intent source are built from it.
    public var id: String
    public var name: String?
    /// Disabled rules load and validate but never fire.
    public var enabled: Bool
    /// Any one of these fires the rule.
    public var triggers: [any RuleTrigger]
    /// All of these must hold at the event's time.
    public var conditions: [Condition]
    /// Run in order; never empty.
    public var actions: [RuleAction]
    /// After a firing the rule stays quiet this long.
    public var cooldown: Duration?
    /// What the scheduler does with an `at:` occurrence it missed.
    public var catchup: Catchup
    /// How late a missed occurrence may still be caught up.
    public var maxLate: Duration

    public init(
        id: String, name: String? = nil, enabled: Bool = true, triggers: [any RuleTrigger], conditions: [Condition] = [],
        actions: [RuleAction], cooldown: Duration? = nil, catchup: Catchup = .once, maxLate: Duration = .seconds(600)
    ) {
        self.id = id
        self.name = name
        self.enabled = enabled
        self.triggers = triggers
        self.conditions = conditions
        self.actions = actions
        self.cooldown = cooldown
        self.catchup = catchup
        self.maxLate = maxLate
    }

    public static func == (a: Rule, b: Rule) -> Bool {
        a.id == b.id && a.name == b.name && a.enabled == b.enabled
            && a.triggers.count == b.triggers.count && zip(a.triggers, b.triggers).allSatisfy { $0.isEqual(to: $1) }
            && a.conditions == b.conditions && a.actions == b.actions && a.cooldown == b.cooldown
            && a.catchup == b.catchup && a.maxLate == b.maxLate
    }
}

/// Whether a schedule occurrence missed while trackee was not running is
/// fired late (`once`, at most once however many were missed) or dropped.
public enum Catchup: String, Sendable, Equatable, CaseIterable {
    case skip, once
}
