/// `power:` events: the machine went on battery or on mains (`ac`).
///
/// Keyed by the edge's own time (when the source saw the change), so a
/// replayed line fires nothing twice.
public struct PowerEdge: DeskEdge {
    public var state: PowerState

    public init(_ state: PowerState) { self.state = state }

    public static func indexKey(_ state: PowerState) -> String { "power:\(state.rawValue)" }

    public static let kindName = "power"
    public var indexKey: String { Self.indexKey(state) }
    public func occurrence(at time: Instant) -> String { "power:\(state.rawValue):\(time.seconds)" }
    public func fields(zone: Zone) -> [String: String] { ["state": state.rawValue] }
    public var summary: String { "power \(state.rawValue)" }
    public var edge: (subject: String, state: String) { ("power", state.rawValue) }

    /// `{"type":"power","state":"…"}`.
    public static func read(_ line: EventFields) throws(EventFields.Failure) -> PowerEdge {
        PowerEdge(try line.word("state"))
    }
}

extension TriggerPayload where Self == PowerEdge {
    public static func power(_ state: PowerState) -> PowerEdge { PowerEdge(state) }
}

extension DeskEvent {
    public static func power(_ state: PowerState) -> DeskEvent { DeskEvent(PowerEdge(state)) }
}

/// Which supply the machine runs on.
public enum PowerState: String, Sendable, Equatable, CaseIterable, Codable {
    case battery, ac
}
