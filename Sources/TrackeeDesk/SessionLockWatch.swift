import TrackeeCore

/// The screen lock of the user's logind session: its `Lock` and `Unlock`
/// signals and its `LockedHint` property.
///
/// Both say the same thing at nearly the same moment (logind asks the
/// locker with `Lock`; the locker sets `LockedHint` once the screen is
/// locked), so whichever arrives first makes the change and the other
/// repeats nothing.
public struct SessionLockWatch: DeskWatch {
    public let name = "logind"
    public let bus = DeskBus.system
    public let serviceName = LoginSession.service
    private let session: LoginSession
    private var path: String?
    private var locked: Bool?

    /// Watches the session `$XDG_SESSION_ID` names, else the user's.
    public init(sessionID: String?, uid: UInt32) {
        session = LoginSession(sessionID: sessionID, uid: uid)
    }

    public mutating func attach(_ connection: DBusConnection, now: Instant) throws -> [DeskChange] {
        let path = try session.path(on: connection)
        try connection.addMatch(
            "type='signal',sender='\(serviceName)',path='\(path)',interface='\(LoginSession.interface)'")
        try connection.addMatch(
            PropertiesChange.matchRule(sender: serviceName, path: path, interface: LoginSession.interface))
        let value = try connection.property(
            destination: serviceName, path: path, interface: LoginSession.interface, name: "LockedHint")
        guard case .bool(let locked) = value else {
            throw DBusFailure("logind's LockedHint of \(path) is \(value.signature), not a boolean.")
        }
        let known = self.locked
        self.path = path
        self.locked = locked
        // The first attach learns the state; a later one reports a change it missed.
        guard let known, known != locked else { return [] }
        return [change(locked, now)]
    }

    public mutating func take(_ signal: DBusSignal, connection: DBusConnection, now: Instant) -> [DeskChange] {
        guard let path, signal.path == path else { return [] }
        let locked: Bool
        if signal.interface == LoginSession.interface, signal.member == "Lock", signal.arguments.isEmpty {
            locked = true
        } else if signal.interface == LoginSession.interface, signal.member == "Unlock", signal.arguments.isEmpty {
            locked = false
        } else if let change = PropertiesChange(signal, path: path), change.interface == LoginSession.interface,
                  case .bool(let hint) = change.changed["LockedHint"] {
            locked = hint
        } else {
            return []
        }
        guard locked != self.locked else { return [] }
        self.locked = locked
        return [change(locked, now)]
    }

    private func change(_ locked: Bool, _ now: Instant) -> DeskChange {
        DeskChange(.session(locked ? .locked : .unlocked), time: now)
    }
}
