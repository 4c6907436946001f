extension DBusValue {
    /// A property map (`a{sv}`, as `GetAll` and `PropertiesChanged` carry
    /// it) by name, each value out of its variant; nil when this value is
    /// anything else, so a peer's wrong type is refused as a whole.
    var propertyMap: [String: DBusValue]? {
        guard case .array(let element, let entries) = self, element == "{sv}" else { return nil }
        var map: [String: DBusValue] = [:]
        for entry in entries {
            guard case .entry(.string(let name), let value) = entry else { return nil }
            map[name] = value.unwrapped
        }
        return map
    }
}
