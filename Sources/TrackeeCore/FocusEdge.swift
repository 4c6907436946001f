/// `focus:` events: a focus mode was switched on or off. Every rule with a
/// matching `focus:` trigger is considered.
public struct FocusEdge: TriggerPayload {
    public var mode: String
    public var state: FocusState
    /// Numbers focus changes in the store, so each change fires a rule once.
    public var sequence: Int64

    public init(mode: String, state: FocusState, sequence: Int64) {
        self.mode = mode
        self.state = state
        self.sequence = sequence
    }

    /// Focus modes compare without regard to case.
    public static func indexKey(mode: String, state: FocusState) -> String {
        "focus:\(state.rawValue):\(mode.lowercased())"
    }

    public var kindName: String { "focus" }
    public var indexKey: String { Self.indexKey(mode: mode, state: state) }
    public func occurrence(at time: Instant) -> String { "focus:\(sequence)" }
    public func fields(zone: Zone) -> [String: String] { ["mode": mode, "state": state.rawValue] }
    public var summary: String { "focus \(mode) \(state.rawValue)" }
}

extension TriggerPayload where Self == FocusEdge {
    public static func focus(mode: String, state: FocusState, sequence: Int64) -> FocusEdge {
        FocusEdge(mode: mode, state: state, sequence: sequence)
    }
}
