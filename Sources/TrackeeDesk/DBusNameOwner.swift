extension DBusConnection {
    /// The unique name (such as `:1.42`) that owns the well-known `name` now.
    ///
    /// A watch keeps it so that it takes signals only from the service: a
    /// signal addressed to this connection reaches it whatever its match
    /// rules say, from whoever sent it.
    func uniqueNameOwning(_ name: String) throws -> String {
        let reply = try call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetNameOwner", arguments: [.string(name)])
        guard reply.count == 1, case .string(let owner) = reply[0] else {
            throw DBusFailure("the D-Bus bus answered GetNameOwner for \(name) with \(reply.map(\.signature).joined()).")
        }
        return owner
    }
}
