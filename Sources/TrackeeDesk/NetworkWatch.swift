import TrackeeCore

/// Network connections coming up and going down, from NetworkManager on
/// the system bus.
///
/// NetworkManager lists its active connections in `ActiveConnections`; each
/// is an object with `Id`, `Uuid`, `Type`, `State` and, for Wi-Fi, the
/// access point (`SpecificObject`) whose `Ssid` names the network. A listed
/// connection reaching state 2 (activated) is `.network(.connected …)`;
/// reaching state 4 (deactivated) or leaving the list is
/// `.network(.disconnected …)` with the values it connected with.
/// NetworkManager sends the same change several ways (the standard and its
/// own `PropertiesChanged`, `StateChanged`), and often; each edge is one
/// change.
public struct NetworkWatch: DeskWatch {
    public let name = "NetworkManager"
    public let bus = DeskBus.system
    public let serviceName = "org.freedesktop.NetworkManager"
    static let managerPath = "/org/freedesktop/NetworkManager"
    static let managerInterface = "org.freedesktop.NetworkManager"
    static let activeInterface = "org.freedesktop.NetworkManager.Connection.Active"
    static let properties = "org.freedesktop.DBus.Properties"
    static let activated: UInt32 = 2
    static let deactivated: UInt32 = 4
    /// New connections read per signal: a list of thousands of paths is
    /// not NetworkManager's, and reading each would stall the bus thread.
    static let readsPerSignal = 32

    private var owner: String?
    /// The paths in `ActiveConnections`, activated or not.
    private var listed: Set<String> = []
    /// The activated ones, as reported when they connected.
    private var connected: [String: NetworkChange] = [:]
    private var attached = false

    public init() {}

    public mutating func attach(_ connection: DBusConnection, now: Instant) throws -> [DeskChange] {
        let first = !attached
        owner = nil
        try connection.addMatch(
            "type='signal',sender='\(serviceName)',path='\(Self.managerPath)',member='PropertiesChanged'")
        try connection.addMatch(
            "type='signal',sender='\(serviceName)',path_namespace='\(Self.managerPath)/ActiveConnection'")
        let owner = try connection.uniqueNameOwning(serviceName)
        let list = try connection.property(
            destination: serviceName, path: Self.managerPath, interface: Self.managerInterface, name: "ActiveConnections")
        guard let paths = Self.paths(list) else {
            throw DBusFailure("NetworkManager's ActiveConnections is \(list.signature) instead of ao.")
        }
        let before = connected
        self.owner = owner
        attached = true
        listed = Set(paths)
        connected = [:]
        for path in paths.prefix(Self.readsPerSignal) {
            if let (state, change) = read(path, connection), state == Self.activated { connected[path] = change }
        }
        guard !first else { return [] }
        // After a reconnect NetworkManager may name the same connections
        // with new paths: compare what they are, not where.
        func identity(_ change: NetworkChange) -> String { change.uuid ?? change.connection }
        let known = Set(before.values.map(identity))
        let current = Set(connected.values.map(identity))
        let gone = before.values.filter { !current.contains(identity($0)) }
        let new = connected.values.filter { !known.contains(identity($0)) }
        return gone.sorted(by: Self.byName).map { Self.disconnected($0, now) }
            + new.sorted(by: Self.byName).map { DeskChange(.network($0), time: now) }
    }

    public mutating func take(_ signal: DBusSignal, connection: DBusConnection, now: Instant) -> [DeskChange] {
        guard signal.sender == owner else { return [] }
        if signal.path == Self.managerPath {
            guard let list = Self.changedProperties(signal, of: Self.managerInterface)?["ActiveConnections"],
                  let paths = Self.paths(list)
            else { return [] }
            return listChanged(to: paths, connection, now: now)
        }
        guard listed.contains(signal.path), let state = Self.state(signal) else { return [] }
        return stateChanged(signal.path, to: state, connection, now: now)
    }

    private mutating func listChanged(to paths: [String], _ connection: DBusConnection, now: Instant) -> [DeskChange] {
        var changes: [DeskChange] = []
        let list = Set(paths)
        for path in listed.subtracting(list).sorted() {
            listed.remove(path)
            if let left = connected.removeValue(forKey: path) { changes.append(Self.disconnected(left, now)) }
        }
        for path in paths.filter({ !listed.contains($0) }).prefix(Self.readsPerSignal) {
            listed.insert(path)
            if let (state, change) = read(path, connection), state == Self.activated {
                connected[path] = change
                changes.append(DeskChange(.network(change), time: now))
            }
        }
        return changes
    }

    private mutating func stateChanged(_ path: String, to state: UInt32, _ connection: DBusConnection,
                                       now: Instant) -> [DeskChange] {
        if state == Self.activated, connected[path] == nil, let (_, change) = read(path, connection) {
            connected[path] = change
            return [DeskChange(.network(change), time: now)]
        }
        if state == Self.deactivated, let left = connected.removeValue(forKey: path) {
            return [Self.disconnected(left, now)]
        }
        return []
    }

    /// An active connection's state and what it is; nil when it is not
    /// there or not as NetworkManager describes it.
    private func read(_ path: String, _ connection: DBusConnection) -> (UInt32, NetworkChange)? {
        guard let reply = try? connection.call(
                  destination: serviceName, path: path, interface: Self.properties, member: "GetAll",
                  arguments: [.string(Self.activeInterface)]),
              reply.count == 1, let map = reply[0].propertyMap,
              case .uint32(let state) = map["State"], case .string(let id) = map["Id"]
        else { return nil }
        var change = NetworkChange(state: .connected, connection: id)
        if case .string(let uuid) = map["Uuid"], !uuid.isEmpty { change.uuid = uuid }
        if case .string(let type) = map["Type"], !type.isEmpty { change.connectionType = type }
        if change.connectionType == "802-11-wireless", case .objectPath(let point) = map["SpecificObject"], point != "/",
           case .array("y", let bytes)? = try? connection.property(
               destination: serviceName, path: point, interface: "org.freedesktop.NetworkManager.AccessPoint",
               name: "Ssid") {
            let octets = bytes.compactMap { value -> UInt8? in
                if case .byte(let octet) = value { return octet }
                return nil
            }
            change.ssid = String(decoding: octets, as: UTF8.self)
        }
        return (state, change)
    }

    /// What a `PropertiesChanged` signal changed on `interface`, in either
    /// form NetworkManager sends: the standard one, or its own older one
    /// with the map alone.
    private static func changedProperties(_ signal: DBusSignal, of interface: String) -> [String: DBusValue]? {
        guard signal.member == "PropertiesChanged" else { return nil }
        if signal.interface == properties, signal.arguments.count == 3, signal.arguments[0] == .string(interface) {
            return signal.arguments[1].propertyMap
        }
        if signal.interface == interface, signal.arguments.count == 1 { return signal.arguments[0].propertyMap }
        return nil
    }

    /// The state an active connection's signal gives, from `StateChanged`
    /// or a `PropertiesChanged` of `State`.
    private static func state(_ signal: DBusSignal) -> UInt32? {
        if signal.interface == activeInterface, signal.member == "StateChanged", signal.arguments.count == 2,
           case .uint32(let state) = signal.arguments[0], case .uint32 = signal.arguments[1] {
            return state
        }
        if case .uint32(let state)? = changedProperties(signal, of: activeInterface)?["State"] { return state }
        return nil
    }

    private static func paths(_ value: DBusValue) -> [String]? {
        guard case .array("o", let items) = value else { return nil }
        return items.compactMap { item -> String? in
            if case .objectPath(let path) = item { return path }
            return nil
        }
    }

    private static func disconnected(_ change: NetworkChange, _ now: Instant) -> DeskChange {
        var left = change
        left.state = .disconnected
        return DeskChange(.network(left), time: now)
    }

    private static func byName(_ a: NetworkChange, _ b: NetworkChange) -> Bool {
        (a.connection, a.uuid ?? "") < (b.connection, b.uuid ?? "")
    }
}
