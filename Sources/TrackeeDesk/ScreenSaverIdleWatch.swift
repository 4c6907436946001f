import TrackeeCore

/// Idleness from `org.freedesktop.ScreenSaver` on the session bus, as KDE,
/// Xfce and others serve it: the screen saver coming on means the user has
/// been idle for the session's idle time.
///
/// `ActiveChanged(true)` reports `.idle(since: now - GetSessionIdleTime)`,
/// or since now where that method fails, as it does on some desktops;
/// `ActiveChanged(false)` reports `.active(since:)` at its arrival. Repeated
/// signals with the same value report nothing.
public struct ScreenSaverIdleWatch: DeskWatch {
    public let name = "ScreenSaver"
    public let bus = DeskBus.session
    public let serviceName = "org.freedesktop.ScreenSaver"
    static let interface = "org.freedesktop.ScreenSaver"
    /// KDE serves the interface on both.
    static let paths: Set<String> = ["/org/freedesktop/ScreenSaver", "/ScreenSaver"]

    private var owner: String?
    /// When the idleness began, while the screen saver is on.
    private var idleSince: Instant?
    private var attached = false

    public init() {}

    public mutating func attach(_ connection: DBusConnection, now: Instant) throws -> [DeskChange] {
        let first = !attached
        owner = nil
        try connection.addMatch(
            "type='signal',sender='\(serviceName)',interface='\(Self.interface)',member='ActiveChanged'")
        let owner = try connection.uniqueNameOwning(serviceName)
        let reply = try connection.call(
            destination: serviceName, path: "/org/freedesktop/ScreenSaver", interface: Self.interface,
            member: "GetActive")
        guard reply.count == 1, case .bool(let active) = reply[0] else {
            throw DBusFailure("the screen saver's GetActive answered \(reply.map(\.signature).joined()) instead of b.")
        }
        self.owner = owner
        attached = true
        // A state found at start is not an edge, except idleness under
        // way (as for Mutter and logind: its start is known); after a
        // reconnect, a change meanwhile is.
        let changes = change(to: active, connection, now: now)
        return first && !active ? [] : changes
    }

    public mutating func take(_ signal: DBusSignal, connection: DBusConnection, now: Instant) -> [DeskChange] {
        guard signal.member == "ActiveChanged", signal.interface == Self.interface, Self.paths.contains(signal.path),
              signal.sender == owner, signal.arguments.count == 1, case .bool(let active) = signal.arguments[0]
        else { return [] }
        return change(to: active, connection, now: now)
    }

    private mutating func change(to active: Bool, _ connection: DBusConnection, now: Instant) -> [DeskChange] {
        switch (active, idleSince) {
        case (true, nil):
            let since = now - idleSeconds(connection)
            idleSince = since
            return [DeskChange(.idle(since: since), time: since)]
        case (false, let since?):
            idleSince = nil
            return [DeskChange(.active(since: since), time: now)]
        default:
            return []
        }
    }

    /// The session's idle time in seconds; 0 where the desktop does not
    /// answer it.
    private func idleSeconds(_ connection: DBusConnection) -> Int64 {
        let reply = try? connection.call(
            destination: serviceName, path: "/org/freedesktop/ScreenSaver", interface: Self.interface,
            member: "GetSessionIdleTime")
        guard let reply, reply.count == 1, case .uint32(let seconds) = reply[0] else { return 0 }
        return Int64(seconds)
    }
}
