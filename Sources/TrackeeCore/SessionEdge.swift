/// `session:` events: the screen of the user's session locked or unlocked.
///
/// Keyed by the edge's own time (when the source saw the change), so a
/// replayed line fires nothing twice.
public struct SessionEdge: TriggerPayload {
    public var state: SessionState

    public init(_ state: SessionState) { self.state = state }

    public static func indexKey(_ state: SessionState) -> String { "session:\(state.rawValue)" }

    public var kindName: String { "session" }
    public var indexKey: String { Self.indexKey(state) }
    public func occurrence(at time: Instant) -> String { "session:\(state.rawValue):\(time.seconds)" }
    public func fields(zone: Zone) -> [String: String] { ["state": state.rawValue] }
    public var summary: String { "session \(state.rawValue)" }
}

extension TriggerPayload where Self == SessionEdge {
    public static func session(_ state: SessionState) -> SessionEdge { SessionEdge(state) }
}
