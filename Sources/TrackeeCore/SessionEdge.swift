/// `session:` events: the screen of the user's session locked or unlocked.
///
/// Keyed by the edge's own time (when the source saw the change), so a
/// replayed line fires nothing twice.
public struct SessionEdge: DeskEdge {
    public var state: SessionState

    public init(_ state: SessionState) { self.state = state }

    public static func indexKey(_ state: SessionState) -> String { "session:\(state.rawValue)" }

    public static let kindName = "session"
    public var indexKey: String { Self.indexKey(state) }
    public func occurrence(at time: Instant) -> String { "session:\(state.rawValue):\(time.seconds)" }
    public func fields(zone: Zone) -> [String: String] { ["state": state.rawValue] }
    public var summary: String { "session \(state.rawValue)" }
    public var edge: (subject: String, state: String) { ("session", state.rawValue) }

    /// `{"type":"session","state":"…"}`.
    public static func read(_ line: EventFields) throws(EventFields.Failure) -> SessionEdge {
        SessionEdge(try line.word("state"))
    }
}

extension TriggerPayload where Self == SessionEdge {
    public static func session(_ state: SessionState) -> SessionEdge { SessionEdge(state) }
}

extension DeskEvent {
    public static func session(_ state: SessionState) -> DeskEvent { DeskEvent(SessionEdge(state)) }
}

/// The screen lock of the user's session.
public enum SessionState: String, Sendable, Equatable, CaseIterable, Codable {
    case locked, unlocked
}
