import TrackeeCore

/// Which bus a watch listens on.
public enum DeskBus: String, Sendable, CaseIterable {
    case session, system
}

/// One desk watch on one D-Bus bus (logind's session, NetworkManager,
/// UPower, Mutter's idle monitor): the match rules it needs, the state it
/// reads when it (re)connects, and how a signal changes that state.
///
/// A watch keeps the last state it knew, so it reports edges, not signals:
/// a flood of signals repeating one state is one change or none. It is not
/// `Sendable`: the bus monitor's thread owns it with its connection.
public protocol DeskWatch {
    /// What `trackee run`'s start line calls it: "logind", "NetworkManager".
    var name: String { get }
    var bus: DeskBus { get }
    /// The well-known bus name of the service it watches, such as
    /// `org.freedesktop.login1`: when its owner changes, the watch attaches
    /// again.
    var serviceName: String { get }
    /// Adds its match rules and reads the current state. The first attach
    /// reports nothing (a state found at start is not an edge), except an
    /// idleness under way whose watch gives its start (logind's
    /// `IdleSinceHint`); a later one (after a reconnect) reports what
    /// changed meanwhile, at `now`. Throws when the service is not on the
    /// bus, or is not ready (the monitor tries again with a backoff).
    mutating func attach(_ connection: DBusConnection, now: Instant) throws -> [DeskChange]
    /// The changes one signal makes; none when it repeats the known state,
    /// is not this watch's, or carries values of unexpected types (it never
    /// traps on what another program sent).
    mutating func take(_ signal: DBusSignal, connection: DBusConnection, now: Instant) -> [DeskChange]
    /// When the watch is to be woken without a signal, on the clock `now`
    /// is read from: a retry of its own (connecting a device again). Nil:
    /// only signals wake it, as most watches.
    var wakeAt: Instant? { get }
    /// The changes the watch makes once `wakeAt` has come.
    mutating func wake(_ connection: DBusConnection, now: Instant) -> [DeskChange]
}

extension DeskWatch {
    public var wakeAt: Instant? { nil }
    public mutating func wake(_ connection: DBusConnection, now: Instant) -> [DeskChange] { [] }
}
