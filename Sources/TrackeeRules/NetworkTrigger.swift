import TrackeeCore

/// `network: connected`, `network: disconnected`, or a mapping that names
/// the network: `network: {ssid: "ACME-Office"}` or `network: {connection:
/// "ACME VPN", on: disconnected}` (`on` defaults to connected).
///
/// An SSID compares as written (Wi-Fi names are bytes); a connection name
/// without regard to case, as NetworkManager's tools let users type it.
public struct NetworkTrigger: DeskTrigger, Equatable {
    public var state: NetworkChange.State
    public var ssid: String?
    public var connection: String?

    public init(_ state: NetworkChange.State = .connected, ssid: String? = nil, connection: String? = nil) {
        self.state = state
        self.ssid = ssid
        self.connection = connection
    }

    public var kindName: String { "network" }
    public var index: TriggerIndex { .key(NetworkEdge.indexKey(state)) }

    public func accepts(_ event: TriggerEvent, zone: Zone) -> Bool {
        guard let change = (event.payload as? NetworkEdge)?.change, change.state == state else { return false }
        if let ssid, change.ssid != ssid { return false }
        if let connection, change.connection.lowercased() != connection.lowercased() { return false }
        return true
    }

    /// `{"network": "connected", "ssid": "ACME-Office"}`;
    /// `network connected (ssid ACME-Office)`.
    public func checkView(ahead: [TriggerEvent]?, enabled: Bool, zone: Zone) -> TriggerCheckView {
        var fields: [String: ViewValue] = ["network": .text(state.rawValue)]
        var matchers: [String] = []
        for (key, value) in [("ssid", ssid), ("connection", connection)] {
            guard let value else { continue }
            fields[key] = .text(value)
            matchers.append("\(key) \(value)")
        }
        let text = "network \(state.rawValue)" + (matchers.isEmpty ? "" : " (\(matchers.joined(separator: ", ")))")
        return TriggerCheckView(fields: fields, text: text)
    }
}

extension RuleTrigger where Self == NetworkTrigger {
    public static func network(_ state: NetworkChange.State = .connected, ssid: String? = nil, connection: String? = nil)
        -> NetworkTrigger
    {
        NetworkTrigger(state, ssid: ssid, connection: connection)
    }
}

extension TriggerKind {
    static let network = TriggerKind(
        key: "network", options: [], fields: ["state", "connection", "ssid", "connection_type", "uuid"]
    ) { fields, reader in
        guard let value = fields["network"] else { return nil }
        guard case .mapping = value.node else {
            return reader.word(value, "network state").map { NetworkTrigger($0) }
        }
        guard let keys = reader.fields(value, known: ["ssid", "connection", "on"]) else { return nil }
        var trigger = NetworkTrigger()
        var ok = true
        if let on = keys["on"] {
            if let state: NetworkChange.State = reader.word(on, "network state") { trigger.state = state } else { ok = false }
        }
        for (key, path) in [("ssid", \NetworkTrigger.ssid), ("connection", \.connection)] {
            guard let name = keys[key] else { continue }
            if let text = reader.name(name, key) { trigger[keyPath: path] = text } else { ok = false }
        }
        if keys["ssid"] == nil && keys["connection"] == nil {
            reader.fail("name the network with ssid: or connection:, or write network: connected for any", at: value)
            return nil
        }
        return ok ? trigger : nil
    }
}
