/// `network:` events: a network connection came up or went down.
///
/// Keyed by the connection (its UUID when known, else its name) and the
/// edge's own time, so a replayed line fires nothing twice.
public struct NetworkEdge: DeskEdge {
    public var change: NetworkChange

    public init(_ change: NetworkChange) { self.change = change }

    public static func indexKey(_ state: NetworkChange.State) -> String { "network:\(state.rawValue)" }

    public static let kindName = "network"
    public var indexKey: String { Self.indexKey(change.state) }

    public func occurrence(at time: Instant) -> String {
        "network:\(change.state.rawValue):\(keyPart(change.uuid ?? change.connection)):\(time.seconds)"
    }

    public func fields(zone: Zone) -> [String: String] {
        [
            "state": change.state.rawValue, "connection": change.connection, "ssid": change.ssid ?? "",
            "connection_type": change.connectionType ?? "", "uuid": change.uuid ?? "",
        ]
    }

    /// `network ACME-Office connected`: the Wi-Fi name when there is one.
    public var summary: String { "network \(change.ssid ?? change.connection) \(change.state.rawValue)" }

    /// A connection by its UUID, else its name.
    public var edge: (subject: String, state: String) {
        ("network:" + (change.uuid ?? change.connection), change.state.rawValue)
    }

    /// `{"type":"network","state":"connected","connection":"ACME","ssid":"ACME-Office",
    /// "connection_type":"802-11-wireless","uuid":"…"}`.
    public static func read(_ line: EventFields) throws(EventFields.Failure) -> NetworkEdge {
        guard let connection = try line.text("connection") else {
            throw EventFields.Failure("\"connection\" is missing or blank")
        }
        return NetworkEdge(NetworkChange(state: try line.word("state"), connection: connection, ssid: try line.text("ssid"),
                                         connectionType: try line.text("connection_type"), uuid: try line.text("uuid")))
    }
}

extension TriggerPayload where Self == NetworkEdge {
    public static func network(_ change: NetworkChange) -> NetworkEdge { NetworkEdge(change) }
}

extension DeskEvent {
    public static func network(_ change: NetworkChange) -> DeskEvent { DeskEvent(NetworkEdge(change)) }
}

/// A network connection that came up or went down.
public struct NetworkChange: Sendable, Equatable, Codable {
    public enum State: String, Sendable, Equatable, CaseIterable, Codable {
        case connected, disconnected
    }

    public var state: State
    /// The connection's name (NetworkManager's `Id`, such as "ACME VPN").
    public var connection: String
    /// The Wi-Fi network's SSID; nil for other connections.
    public var ssid: String?
    /// NetworkManager's connection type: `802-11-wireless`, `802-3-ethernet`,
    /// `vpn`, `wireguard`; nil when unknown.
    public var connectionType: String?
    /// The connection's UUID, when the source gives one: it tells two
    /// connections with the same name apart.
    public var uuid: String?

    public init(state: State, connection: String, ssid: String? = nil, connectionType: String? = nil, uuid: String? = nil) {
        self.state = state
        self.connection = connection
        self.ssid = ssid
        self.connectionType = connectionType
        self.uuid = uuid
    }
}
