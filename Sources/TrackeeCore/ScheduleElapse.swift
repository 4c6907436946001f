/// `at:` events: one rule's systemd calendar expression elapsed. Schedules
/// belong to a rule, so only that rule is considered.
public struct ScheduleElapse: TriggerPayload {
    public var ruleID: String
    public var expression: String

    public init(rule: String, expression: String) {
        ruleID = rule
        self.expression = expression
    }

    public var kindName: String { "schedule" }
    public var rule: String? { ruleID }
    public var isTimed: Bool { true }
    /// The elapse instant.
    public func occurrence(at time: Instant) -> String { "at:\(time.seconds)" }
    public func fields(zone: Zone) -> [String: String] { ["at": expression] }
    public var summary: String { "schedule \(expression)" }
    public var upcomingFields: [String: String] { ["expression": expression] }
    public var upcomingText: String { expression }
}

extension TriggerPayload where Self == ScheduleElapse {
    public static func schedule(rule: String, expression: String) -> ScheduleElapse {
        ScheduleElapse(rule: rule, expression: expression)
    }
}
