import TrackeeCore

/// BlueZ's object model on the system bus (its `doc/` pages), as a watch of
/// a Bluetooth LE device reads it: `GetManagedObjects`' answer, a device by
/// its address, and its GATT characteristics by UUID. No bus here: each
/// function takes what BlueZ sent and gives values, or nil for what is
/// malformed.
enum BlueZ {
    static let service = "org.bluez"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let deviceInterface = "org.bluez.Device1"
    static let batteryInterface = "org.bluez.Battery1"
    static let serviceInterface = "org.bluez.GattService1"
    static let characteristicInterface = "org.bluez.GattCharacteristic1"

    /// `GetManagedObjects`' answer: each object's interfaces and their properties.
    typealias Objects = [String: [String: [String: DBusValue]]]

    /// Reads `a{oa{sa{sv}}}`; nil when it is anything else. An object whose
    /// interfaces are malformed is left out.
    static func objects(_ value: DBusValue) -> Objects? {
        guard case .array("{oa{sa{sv}}}", let entries) = value else { return nil }
        var objects: Objects = [:]
        for case .entry(.objectPath(let path), let value) in entries {
            objects[path] = interfaces(value)
        }
        return objects
    }

    /// Reads `a{sa{sv}}` (an object's interfaces, as InterfacesAdded carries them).
    static func interfaces(_ value: DBusValue) -> [String: [String: DBusValue]]? {
        guard case .array("{sa{sv}}", let entries) = value else { return nil }
        var interfaces: [String: [String: DBusValue]] = [:]
        for entry in entries {
            guard case .entry(.string(let name), let map) = entry, let properties = map.propertyMap else { return nil }
            interfaces[name] = properties
        }
        return interfaces
    }

    /// The bytes of an `ay`.
    static func bytes(_ value: DBusValue) -> [UInt8]? {
        guard case .array("y", let items) = value else { return nil }
        return items.compactMap { item -> UInt8? in
            if case .byte(let byte) = item { return byte }
            return nil
        }
    }

    /// The device whose `Address` is `address` (upper case), the first by
    /// path if two adapters know it.
    static func device(_ address: String, in objects: Objects) -> (path: String, connected: Bool, resolved: Bool)? {
        let found = objects.compactMap { path, interfaces -> (String, [String: DBusValue])? in
            guard let device = interfaces[deviceInterface], case .string(let known) = device["Address"],
                  known.uppercased() == address else { return nil }
            return (path, device)
        }
        guard let (path, device) = found.min(by: { $0.0 < $1.0 }) else { return nil }
        return (path, device["Connected"] == .bool(true), device["ServicesResolved"] == .bool(true))
    }

    /// The paths of the characteristics of the device at `path` whose
    /// services' UUIDs are among `services` (lower case), by UUID (lower
    /// case); the first by path when two have the same UUID.
    static func characteristics(of path: String, services wanted: Set<String>, in objects: Objects) -> [String: String] {
        let services = Set(objects.compactMap { service, interfaces -> String? in
            guard service.hasPrefix(path + "/"), case .string(let uuid) = interfaces[serviceInterface]?["UUID"],
                  wanted.contains(uuid.lowercased()) else { return nil }
            return service
        })
        var paths: [String: String] = [:]
        for (characteristic, interfaces) in objects.sorted(by: { $0.key < $1.key }) {
            guard let properties = interfaces[characteristicInterface],
                  case .objectPath(let service) = properties["Service"], services.contains(service),
                  case .string(let uuid) = properties["UUID"], paths[uuid.lowercased()] == nil else { continue }
            paths[uuid.lowercased()] = characteristic
        }
        return paths
    }
}
