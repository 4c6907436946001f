import Glibc
import TrackeeCore

/// Suspend, resume and shutdown from logind's `PrepareForSleep` and
/// `PrepareForShutdown`, holding a delay inhibitor in between.
///
/// logind waits for every delay inhibitor to close (up to its
/// `InhibitDelayMaxSec`) before the machine sleeps, so the inhibitor taken
/// here travels with the suspend or shutdown change to the daemon, which
/// releases it once the rules that change fires are committed. A new one is
/// taken after resume, and after a shutdown is cancelled.
public struct SleepWatch: DeskWatch {
    public let name = "logind"
    public let bus = DeskBus.system
    public let serviceName = LoginSession.service
    private var attached = false
    private var sleeping = false
    private var shuttingDown = false
    /// The inhibitor taken and not yet handed out with a change.
    private var held: SleepInhibitor?

    public init() {}

    public mutating func attach(_ connection: DBusConnection, now: Instant) throws -> [DeskChange] {
        try connection.addMatch(
            "type='signal',sender='\(serviceName)',path='\(LoginSession.managerPath)',"
                + "interface='\(LoginSession.manager)'")
        let sleeping = try preparing("PreparingForSleep", connection)
        let shuttingDown = try preparing("PreparingForShutdown", connection)
        // After a reconnect logind may be another process: an old descriptor
        // would hold nothing, so take a fresh one either way.
        held?.release()
        held = nil
        var changes: [DeskChange] = []
        if attached {
            changes += sleepEdge(sleeping, connection, now)
            changes += shutdownEdge(shuttingDown, connection, now)
        } else {
            self.sleeping = sleeping
            self.shuttingDown = shuttingDown
            attached = true
        }
        if !self.sleeping && !self.shuttingDown && held == nil { held = Self.inhibit(connection) }
        return changes
    }

    public mutating func take(_ signal: DBusSignal, connection: DBusConnection, now: Instant) -> [DeskChange] {
        guard attached, signal.path == LoginSession.managerPath, signal.interface == LoginSession.manager,
              signal.arguments.count == 1, case .bool(let starting) = signal.arguments[0]
        else { return [] }
        switch signal.member {
        case "PrepareForSleep": return sleepEdge(starting, connection, now)
        case "PrepareForShutdown": return shutdownEdge(starting, connection, now)
        default: return []
        }
    }

    private mutating func sleepEdge(_ starting: Bool, _ connection: DBusConnection, _ now: Instant) -> [DeskChange] {
        guard starting != sleeping else { return [] }
        sleeping = starting
        if starting { return [handOver(.suspend, now)] }
        if held == nil { held = Self.inhibit(connection) }
        return [DeskChange(.sleep(.resume), time: now)]
    }

    private mutating func shutdownEdge(_ starting: Bool, _ connection: DBusConnection, _ now: Instant) -> [DeskChange] {
        guard starting != shuttingDown else { return [] }
        shuttingDown = starting
        if starting { return [handOver(.shutdown, now)] }
        // A cancelled shutdown is no event; the next one needs an inhibitor again.
        if held == nil { held = Self.inhibit(connection) }
        return []
    }

    private mutating func handOver(_ state: SleepState, _ now: Instant) -> DeskChange {
        defer { held = nil }
        return DeskChange(.sleep(state), time: now, inhibitor: held)
    }

    private func preparing(_ property: String, _ connection: DBusConnection) throws -> Bool {
        let value = try connection.property(
            destination: serviceName, path: LoginSession.managerPath, interface: LoginSession.manager, name: property)
        guard case .bool(let flag) = value else {
            throw DBusFailure("logind's \(property) is \(value.signature), not a boolean.")
        }
        return flag
    }

    /// A new delay inhibitor, or nil when logind refuses one (a policy
    /// that forbids it): the changes still come, without the wait.
    static func inhibit(_ connection: DBusConnection) -> SleepInhibitor? {
        guard let reply = try? connection.call(
            destination: LoginSession.service, path: LoginSession.managerPath, interface: LoginSession.manager,
            member: "Inhibit",
            arguments: [.string("sleep:shutdown"), .string("trackee"),
                        .string("Apply the rules for suspend and shutdown first"), .string("delay")],
            keepingDescriptors: true)
        else { return nil }
        var descriptors = reply.flatMap(Self.descriptors)
        guard reply.count == 1, case .fileDescriptor(let fd) = reply[0] else {
            for fd in descriptors { close(fd) }
            return nil
        }
        descriptors.removeAll { $0 == fd }
        for other in descriptors { close(other) }
        return SleepInhibitor(fd: fd)
    }

    /// Every descriptor in `value`, so that none of an unexpected reply stays open.
    private static func descriptors(_ value: DBusValue) -> [Int32] {
        switch value {
        case .fileDescriptor(let fd): [fd]
        case .variant(let inner): descriptors(inner)
        case .array(_, let items), .structure(let items): items.flatMap(descriptors)
        case .entry(let key, let value): descriptors(key) + descriptors(value)
        default: []
        }
    }
}
