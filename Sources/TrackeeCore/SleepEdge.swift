/// `sleep:` events: the machine about to suspend or shut down, or back from suspend.
///
/// Keyed by the edge's own time (when the source saw the change), so a
/// replayed line fires nothing twice.
public struct SleepEdge: DeskEdge {
    public var state: SleepState

    public init(_ state: SleepState) { self.state = state }

    public static func indexKey(_ state: SleepState) -> String { "sleep:\(state.rawValue)" }

    public static let kindName = "sleep"
    public var indexKey: String { Self.indexKey(state) }
    public func occurrence(at time: Instant) -> String { "sleep:\(state.rawValue):\(time.seconds)" }
    public func fields(zone: Zone) -> [String: String] { ["state": state.rawValue] }
    public var summary: String { "sleep \(state.rawValue)" }
    public var edge: (subject: String, state: String) { ("sleep", state.rawValue) }

    /// `{"type":"sleep","state":"…"}`.
    public static func read(_ line: EventFields) throws(EventFields.Failure) -> SleepEdge {
        SleepEdge(try line.word("state"))
    }
}

extension TriggerPayload where Self == SleepEdge {
    public static func sleep(_ state: SleepState) -> SleepEdge { SleepEdge(state) }
}

extension DeskEvent {
    public static func sleep(_ state: SleepState) -> DeskEvent { DeskEvent(SleepEdge(state)) }
}

/// The machine about to sleep or shut down, or back from sleep.
public enum SleepState: String, Sendable, Equatable, CaseIterable, Codable {
    case suspend, resume, shutdown
}
