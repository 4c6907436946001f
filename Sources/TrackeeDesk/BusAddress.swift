extension DeskBus {
    /// Where this bus listens, as libdbus's own clients find it: the
    /// session bus from `DBUS_SESSION_BUS_ADDRESS`, else the socket systemd
    /// puts in `$XDG_RUNTIME_DIR`; the system bus from
    /// `DBUS_SYSTEM_BUS_ADDRESS`, else its well-known socket. Nil when the
    /// environment names no session bus.
    public func address(in environment: [String: String]) -> String? {
        func value(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        }
        switch self {
        case .session:
            if let address = value("DBUS_SESSION_BUS_ADDRESS") { return address }
            return value("XDG_RUNTIME_DIR").map { "unix:path=\($0)/bus" }
        case .system:
            return value("DBUS_SYSTEM_BUS_ADDRESS") ?? "unix:path=/run/dbus/system_bus_socket"
        }
    }
}
