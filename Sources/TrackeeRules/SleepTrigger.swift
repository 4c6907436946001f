import TrackeeCore

/// `sleep: suspend`, `sleep: resume` or `sleep: shutdown`: the machine is about to suspend or shut down, or is back.
public struct SleepTrigger: DeskTrigger, Equatable {
    public var state: SleepState

    public init(_ state: SleepState) { self.state = state }

    public var kindName: String { "sleep" }
    public var index: TriggerIndex { .key(SleepEdge.indexKey(state)) }

    public func accepts(_ event: TriggerEvent, zone: Zone) -> Bool {
        (event.payload as? SleepEdge)?.state == state
    }

    /// `{"sleep": "suspend"}`; `sleep suspend`.
    public func checkView(ahead: [TriggerEvent]?, enabled: Bool, zone: Zone) -> TriggerCheckView {
        TriggerCheckView(fields: ["sleep": .text(state.rawValue)], text: "sleep \(state.rawValue)")
    }
}

extension RuleTrigger where Self == SleepTrigger {
    public static func sleep(_ state: SleepState) -> SleepTrigger { SleepTrigger(state) }
}

extension TriggerKind {
    static let sleep = TriggerKind(key: "sleep", options: [], fields: ["state"]) { fields, reader in
        guard let value = fields["sleep"], let state: SleepState = reader.word(value, "sleep state") else { return nil }
        return SleepTrigger(state)
    }
}
