import TrackeeCore

/// Idleness from GNOME Mutter's idle monitor (`org.gnome.Mutter.IdleMonitor`
/// on the session bus), through watches rather than polling.
///
/// An idle watch at the interval fires when the user has been idle that
/// long; the watch then reports `.idle(since: now - interval)` and adds a
/// user-active watch, which Mutter fires once, on the next activity:
/// `.active(since:)` then, at its arrival. Mutter sends `WatchFired` to the
/// connection that added the watch, so only the monitor's owner is heard.
public struct MutterIdleWatch: DeskWatch {
    public let name = "Mutter"
    public let bus = DeskBus.session
    public let serviceName = "org.gnome.Mutter.IdleMonitor"
    static let path = "/org/gnome/Mutter/IdleMonitor/Core"
    static let interface = "org.gnome.Mutter.IdleMonitor"

    /// How long without input counts as idle, in milliseconds (above 0).
    public let intervalMilliseconds: UInt64
    private var owner: String?
    private var idleWatch: UInt32?
    private var activeWatch: UInt32?
    /// When the idleness began, while the user is idle.
    private var idleSince: Instant?
    private var attached = false

    public init(intervalMilliseconds: UInt64) {
        self.intervalMilliseconds = max(intervalMilliseconds, 1)
    }

    private var intervalSeconds: Int64 { Int64(intervalMilliseconds / 1000) }

    public mutating func attach(_ connection: DBusConnection, now: Instant) throws -> [DeskChange] {
        let first = !attached
        // Watches belong to the connection that added them; a new
        // connection or a new Mutter starts with none.
        owner = nil
        idleWatch = nil
        activeWatch = nil
        try connection.addMatch(
            "type='signal',sender='\(serviceName)',path='\(Self.path)',interface='\(Self.interface)',member='WatchFired'")
        let owner = try connection.uniqueNameOwning(serviceName)
        idleWatch = try Self.watchID(connection.call(
            destination: serviceName, path: Self.path, interface: Self.interface, member: "AddIdleWatch",
            arguments: [.uint64(intervalMilliseconds)]), from: "AddIdleWatch")
        let idletime = try connection.call(
            destination: serviceName, path: Self.path, interface: Self.interface, member: "GetIdletime")
        guard idletime.count == 1, case .uint64(let milliseconds) = idletime[0] else {
            throw DBusFailure("Mutter's GetIdletime answered \(idletime.map(\.signature).joined()) instead of t.")
        }
        self.owner = owner
        attached = true
        let wasIdle = idleSince
        if milliseconds >= intervalMilliseconds {
            addActiveWatch(connection)
            if wasIdle != nil { return [] }
            let since = now - Int64(milliseconds / 1000)
            idleSince = since
            // Idleness under way at start is reported with its own start, as
            // logind's is: a daemon restarted while the user is away still
            // fires the idle rules, and their keys hold the since (which
            // Mutter's idle time gives to the second, so a restart may
            // compute it one second apart; the stop it fires again then
            // finds nothing running).
            return [DeskChange(.idle(since: since), time: since)]
        }
        idleSince = nil
        guard let wasIdle, !first else { return [] }
        return [DeskChange(.active(since: wasIdle), time: now)]
    }

    public mutating func take(_ signal: DBusSignal, connection: DBusConnection, now: Instant) -> [DeskChange] {
        guard signal.member == "WatchFired", signal.interface == Self.interface, signal.path == Self.path,
              signal.sender == owner, signal.arguments.count == 1, case .uint32(let id) = signal.arguments[0]
        else { return [] }
        if id == idleWatch {
            // Mutter fires the idle watch again each time idleness reaches
            // the interval; after the first, it repeats what is known.
            if activeWatch == nil { addActiveWatch(connection) }
            guard idleSince == nil else { return [] }
            let since = now - intervalSeconds
            idleSince = since
            return [DeskChange(.idle(since: since), time: since)]
        }
        if id == activeWatch {
            activeWatch = nil  // Mutter removes a user-active watch once it fired.
            guard let since = idleSince else { return [] }
            idleSince = nil
            return [DeskChange(.active(since: since), time: now)]
        }
        return []
    }

    /// Asks to hear of the next activity; without it, the return is only
    /// seen at the next attach.
    private mutating func addActiveWatch(_ connection: DBusConnection) {
        activeWatch = try? Self.watchID(connection.call(
            destination: serviceName, path: Self.path, interface: Self.interface, member: "AddUserActiveWatch"),
            from: "AddUserActiveWatch")
    }

    private static func watchID(_ reply: [DBusValue], from method: String) throws -> UInt32 {
        guard reply.count == 1, case .uint32(let id) = reply[0] else {
            throw DBusFailure("Mutter's \(method) answered \(reply.map(\.signature).joined()) instead of u.")
        }
        return id
    }
}
