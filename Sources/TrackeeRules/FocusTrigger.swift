import TrackeeCore

/// `focus: MODE` with `state: on|off` (default on): that focus mode was
/// switched on or off. Modes compare without regard to case.
public struct FocusTrigger: RuleTrigger, Equatable {
    public var mode: String
    public var state: FocusState

    public init(mode: String, state: FocusState = .on) {
        self.mode = mode
        self.state = state
    }

    public var index: TriggerIndex { .key(FocusEdge.indexKey(mode: mode, state: state)) }

    public func accepts(_ event: TriggerEvent, zone: Zone) -> Bool {
        guard let edge = event.payload as? FocusEdge else { return false }
        return edge.state == state && foldFocus(edge.mode) == foldFocus(mode)
    }

    /// `{"focus": MODE, "state": "on"}`; `focus MODE on`.
    public func checkView(ahead: [TriggerEvent]?, enabled: Bool, zone: Zone) -> TriggerCheckView {
        TriggerCheckView(fields: ["focus": .text(mode), "state": .text(state.rawValue)], text: "focus \(mode) \(state.rawValue)")
    }
}

extension TriggerKind {
    static let focus = TriggerKind(key: "focus", options: ["state"], fields: ["mode", "state"]) { fields, reader in
        guard let value = fields["focus"], let mode = reader.name(value, "focus mode") else { return nil }
        guard let stateValue = fields["state"] else { return FocusTrigger(mode: mode, state: .on) }
        return reader.parsed(stateValue, parseFocusState).map { FocusTrigger(mode: mode, state: $0) }
    }
}

private func parseFocusState(_ text: String) throws(InvalidValue) -> FocusState {
    guard let state = FocusState(rawValue: text) else { throw InvalidValue("expected on or off, found \"\(text)\"") }
    return state
}

extension RuleTrigger where Self == FocusTrigger {
    public static func focus(mode: String, state: FocusState) -> FocusTrigger { FocusTrigger(mode: mode, state: state) }
}
