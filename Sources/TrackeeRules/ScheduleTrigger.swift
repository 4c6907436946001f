import TrackeeCore

/// `at: EXPR`: a systemd calendar expression elapsed.
public struct ScheduleTrigger: RuleTrigger, Equatable {
    public var expression: String

    public init(expression: String) {
        self.expression = expression
    }

    public var index: TriggerIndex { .ruleOwned }

    public func accepts(_ event: TriggerEvent, zone: Zone) -> Bool {
        (event.payload as? ScheduleElapse)?.expression == expression
    }

    /// `{"at": EXPR, "next": [...]}`; `at EXPR: TIME, …`.
    public func checkView(ahead: [TriggerEvent]?, enabled: Bool, zone: Zone) -> TriggerCheckView {
        let next = (ahead ?? []).map { zone.iso8601($0.time) }
        return TriggerCheckView(
            fields: ["at": .text(expression), "next": .list(next.map(ViewValue.text))],
            text: "at \(expression): " + TriggerCheckView.shown(next, enabled: enabled, none: "never fires again"))
    }
}

extension TriggerKind {
    static let schedule = TriggerKind(key: "at", options: [], fields: ["at"]) { fields, reader in
        guard let value = fields["at"] else { return nil }
        return reader.parsed(value) { (text: String) throws(InvalidValue) in
            if let problem = reader.validateSchedule(text) { throw InvalidValue(problem) }
            return ScheduleTrigger(expression: text)
        }
    }
}

extension RuleTrigger where Self == ScheduleTrigger {
    public static func schedule(expression: String) -> ScheduleTrigger { ScheduleTrigger(expression: expression) }
}
