/// `network:` events: a network connection came up or went down.
///
/// Keyed by the connection (its UUID when known, else its name) and the
/// edge's own time, so a replayed line fires nothing twice.
public struct NetworkEdge: TriggerPayload {
    public var change: NetworkChange

    public init(_ change: NetworkChange) { self.change = change }

    public static func indexKey(_ state: NetworkChange.State) -> String { "network:\(state.rawValue)" }

    public var kindName: String { "network" }
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
}

extension TriggerPayload where Self == NetworkEdge {
    public static func network(_ change: NetworkChange) -> NetworkEdge { NetworkEdge(change) }
}
