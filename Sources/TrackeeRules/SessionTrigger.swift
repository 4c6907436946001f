import TrackeeCore

/// `session: locked` or `session: unlocked`: the screen of the user's session locked or unlocked.
public struct SessionTrigger: DeskTrigger, Equatable {
    public var state: SessionState

    public init(_ state: SessionState) { self.state = state }

    public var kindName: String { "session" }
    public var index: TriggerIndex { .key(SessionEdge.indexKey(state)) }

    public func accepts(_ event: TriggerEvent, zone: Zone) -> Bool {
        (event.payload as? SessionEdge)?.state == state
    }

    /// `{"session": "locked"}`; `session locked`.
    public func checkView(ahead: [TriggerEvent]?, enabled: Bool, zone: Zone) -> TriggerCheckView {
        TriggerCheckView(fields: ["session": .text(state.rawValue)], text: "session \(state.rawValue)")
    }
}

extension RuleTrigger where Self == SessionTrigger {
    public static func session(_ state: SessionState) -> SessionTrigger { SessionTrigger(state) }
}

extension TriggerKind {
    static let session = TriggerKind(key: "session", options: [], fields: ["state"]) { fields, reader in
        guard let value = fields["session"], let state: SessionState = reader.word(value, "session state") else { return nil }
        return SessionTrigger(state)
    }
}
