import TrackeeCore

/// `power: battery` or `power: ac`: the machine went on battery or on mains.
public struct PowerTrigger: DeskTrigger, Equatable {
    public var state: PowerState

    public init(_ state: PowerState) { self.state = state }

    public var kindName: String { "power" }
    public var index: TriggerIndex { .key(PowerEdge.indexKey(state)) }

    public func accepts(_ event: TriggerEvent, zone: Zone) -> Bool {
        (event.payload as? PowerEdge)?.state == state
    }

    /// `{"power": "battery"}`; `power battery`.
    public func checkView(ahead: [TriggerEvent]?, enabled: Bool, zone: Zone) -> TriggerCheckView {
        TriggerCheckView(fields: ["power": .text(state.rawValue)], text: "power \(state.rawValue)")
    }
}

extension RuleTrigger where Self == PowerTrigger {
    public static func power(_ state: PowerState) -> PowerTrigger { PowerTrigger(state) }
}

extension TriggerKind {
    static let power = TriggerKind(key: "power", options: [], fields: ["state"]) { fields, reader in
        guard let value = fields["power"], let state: PowerState = reader.word(value, "power state") else { return nil }
        return PowerTrigger(state)
    }
}
