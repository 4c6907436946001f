import TrackeeCore

/// Idleness as logind knows it: the session's `IdleHint` and
/// `IdleSinceHint`, which the desktop (or `systemd-logind`'s own
/// `IdleAction` timer) keeps up to date.
///
/// The last choice of the three idle watches, for desktops without Mutter
/// or a ScreenSaver service. `IdleSinceHint` is logind's own time of the
/// edge (microseconds since the epoch), so an idleness found already under
/// way at start is reported with it: its firing key is the same on every
/// restart, and nothing fires twice.
public struct LoginIdleWatch: DeskWatch {
    public let name = "logind"
    public let bus = DeskBus.system
    public let serviceName = LoginSession.service
    private let session: LoginSession
    private var path: String?
    private var idle: Bool?
    /// When the known idleness began, by logind's hint.
    private var since: Instant?

    public init(sessionID: String?, uid: UInt32) {
        session = LoginSession(sessionID: sessionID, uid: uid)
    }

    public mutating func attach(_ connection: DBusConnection, now: Instant) throws -> [DeskChange] {
        let path = try session.path(on: connection)
        try connection.addMatch(
            PropertiesChange.matchRule(sender: serviceName, path: path, interface: LoginSession.interface))
        let hint = try connection.property(
            destination: serviceName, path: path, interface: LoginSession.interface, name: "IdleHint")
        guard case .bool(let idle) = hint else {
            throw DBusFailure("logind's IdleHint of \(path) is \(hint.signature), not a boolean.")
        }
        self.path = path
        return edge(idle, since: idle ? readSince(connection, now: now) : nil, now: now)
    }

    public mutating func take(_ signal: DBusSignal, connection: DBusConnection, now: Instant) -> [DeskChange] {
        guard let path, let change = PropertiesChange(signal, path: path), change.interface == LoginSession.interface,
              case .bool(let idle) = change.changed["IdleHint"]
        else { return [] }
        guard idle else { return edge(false, since: nil, now: now) }
        // logind sends both hints together; a peer that sends only IdleHint is asked for the other.
        let since: Instant =
            if case .uint64(let microseconds) = change.changed["IdleSinceHint"] {
                Self.instant(microseconds, now: now)
            } else {
                readSince(connection, now: now)
            }
        return edge(true, since: since, now: now)
    }

    private mutating func edge(_ idle: Bool, since: Instant?, now: Instant) -> [DeskChange] {
        let known = self.idle
        guard idle != known else { return [] }
        self.idle = idle
        if idle, let since {
            self.since = since
            return [DeskChange(.idle(since: since), time: since)]
        }
        let began = self.since
        self.since = nil
        // Active at the first attach is a state, not an edge.
        guard known != nil else { return [] }
        return [DeskChange(.active(since: began), time: now)]
    }

    private func readSince(_ connection: DBusConnection, now: Instant) -> Instant {
        guard let path,
              case .uint64(let microseconds)? = try? connection.property(
                  destination: serviceName, path: path, interface: LoginSession.interface, name: "IdleSinceHint")
        else { return now }
        return Self.instant(microseconds, now: now)
    }

    /// logind's microseconds since the epoch; 0 (not known) is `now`.
    static func instant(_ microseconds: UInt64, now: Instant) -> Instant {
        microseconds == 0 ? now : Instant(seconds: Int64(microseconds / 1_000_000))
    }
}
