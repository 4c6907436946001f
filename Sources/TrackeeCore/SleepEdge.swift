/// `sleep:` events: the machine about to suspend or shut down, or back from suspend.
///
/// Keyed by the edge's own time (when the source saw the change), so a
/// replayed line fires nothing twice.
public struct SleepEdge: TriggerPayload {
    public var state: SleepState

    public init(_ state: SleepState) { self.state = state }

    public static func indexKey(_ state: SleepState) -> String { "sleep:\(state.rawValue)" }

    public var kindName: String { "sleep" }
    public var indexKey: String { Self.indexKey(state) }
    public func occurrence(at time: Instant) -> String { "sleep:\(state.rawValue):\(time.seconds)" }
    public func fields(zone: Zone) -> [String: String] { ["state": state.rawValue] }
    public var summary: String { "sleep \(state.rawValue)" }
}

extension TriggerPayload where Self == SleepEdge {
    public static func sleep(_ state: SleepState) -> SleepEdge { SleepEdge(state) }
}
