/// What one `org.freedesktop.DBus.Properties.PropertiesChanged` signal
/// says: which interface's properties changed, to what, and which ones
/// changed without their value.
struct PropertiesChange: Equatable {
    var interface: String
    /// Each changed property's value, without its variant.
    var changed: [String: DBusValue]
    var invalidated: [String]

    /// Reads `signal`; nil when it is not a PropertiesChanged signal from
    /// `path`, or its arguments are not `sa{sv}as` (another program's
    /// mistake, ignored rather than trusted).
    init?(_ signal: DBusSignal, path: String) {
        guard signal.path == path, signal.interface == "org.freedesktop.DBus.Properties",
              signal.member == "PropertiesChanged", signal.arguments.count == 3,
              case .string(let interface) = signal.arguments[0],
              case .array("{sv}", let entries) = signal.arguments[1],
              case .array("s", let names) = signal.arguments[2]
        else { return nil }
        var changed: [String: DBusValue] = [:]
        for entry in entries {
            guard case .entry(.string(let name), .variant(let value)) = entry else { return nil }
            changed[name] = value.unwrapped
        }
        var invalidated: [String] = []
        for name in names {
            guard case .string(let name) = name else { return nil }
            invalidated.append(name)
        }
        self.interface = interface
        self.changed = changed
        self.invalidated = invalidated
    }

    /// The match rule that routes this object's PropertiesChanged signals
    /// for `interface` from `sender`.
    static func matchRule(sender: String, path: String, interface: String) -> String {
        "type='signal',sender='\(sender)',path='\(path)',interface='org.freedesktop.DBus.Properties',"
            + "member='PropertiesChanged',arg0='\(interface)'"
    }
}
