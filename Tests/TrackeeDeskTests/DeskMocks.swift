import Foundation
import TrackeeCore
import TrackeeDesk

/// python-dbusmock's logind and UPower templates on a private bus that
/// stands for the system bus, the user's session added to logind, and a
/// connection that drives them through `org.freedesktop.DBus.Mock`.
final class SystemMocks {
    static let login = "org.freedesktop.login1"
    static let manager = "/org/freedesktop/login1"
    static let managerInterface = "org.freedesktop.login1.Manager"
    static let sessionInterface = "org.freedesktop.login1.Session"
    static let upower = "org.freedesktop.UPower"
    static let upowerPath = "/org/freedesktop/UPower"
    /// What the clock of the monitors under test says: every change whose
    /// source gives no time of its own is stamped with it.
    static let now = Instant(seconds: 1_795_500_000)

    let bus: PrivateBus
    private(set) var control: DBusConnection
    /// The session's object path.
    let session = "/org/freedesktop/login1/session/c1"

    /// Starts the bus, then logind (with session `c1` of this user unless
    /// `withSession` is false) and UPower unless left out.
    init(logind: Bool = true, withSession: Bool = true, upower: Bool = true) throws {
        bus = try PrivateBus()
        do {
            control = try DBusConnection(address: bus.socketAddress)
            try start(logind: logind, withSession: withSession, upower: upower)
        } catch {
            bus.stop()
            throw error
        }
    }

    /// What the monitor's environment says: this bus is the system bus,
    /// there is no session bus, and the session is `c1`.
    var environment: [String: String] {
        ["DBUS_SYSTEM_BUS_ADDRESS": bus.socketAddress, "XDG_SESSION_ID": "c1"]
    }

    /// A monitor with the standard watches on these mocks, its clock fixed at ``now``.
    func monitor(environment: [String: String]? = nil, idle: [DeskWatchPlan]? = nil, log: @escaping DeskLog) -> DeskMonitor {
        let environment = environment ?? self.environment
        return DeskMonitor(
            environment: environment,
            idle: idle ?? DeskWatchPlan.standardIdle(environment: environment, intervalMilliseconds: 1000),
            watches: DeskWatchPlan.standard(environment: environment), clock: { Self.now }, log: log)
    }

    func start(logind: Bool = true, withSession: Bool = true, upower: Bool = true) throws {
        if logind {
            try bus.startTemplate("logind", name: Self.login, on: control)
            if withSession {
                let path = try mock(Self.login, Self.manager, "AddSession",
                                    [.string("c1"), .string("seat0"), .uint32(getuid()), .string("desk"), .bool(true)])
                guard path == [.string(session)] else { throw PrivateBus.Failure(description: "AddSession gave \(path)") }
            }
        }
        if upower { try startUPower() }
    }

    @discardableResult
    func startUPower() throws -> Process {
        try bus.startTemplate("upower", name: Self.upower, on: control)
    }

    /// Kills the bus and every mock, starts a new bus on the same socket,
    /// and the mocks again on it.
    func restart() throws {
        try bus.restart()
        control = try DBusConnection(address: bus.socketAddress)
        try start()
    }

    func stop() { bus.stop() }

    @discardableResult
    func mock(_ destination: String, _ path: String, _ member: String, _ arguments: [DBusValue]) throws -> [DBusValue] {
        try control.call(destination: destination, path: path, interface: "org.freedesktop.DBus.Mock", member: member,
                         arguments: arguments)
    }

    /// Sets properties of `path` and has the mock send PropertiesChanged.
    func update(_ destination: String, _ path: String, _ interface: String, _ properties: [String: DBusValue]) throws {
        let entries = properties.keys.sorted().map { DBusValue.entry(key: .string($0), value: .variant(properties[$0]!)) }
        try mock(destination, path, "UpdateProperties", [.string(interface), .array(elementSignature: "{sv}", entries)])
    }

    func session(_ properties: [String: DBusValue]) throws {
        try update(Self.login, session, Self.sessionInterface, properties)
    }

    func power(onBattery: Bool) throws {
        try update(Self.upower, Self.upowerPath, Self.upower, ["OnBattery": .bool(onBattery)])
    }

    /// Has `destination` send a signal from `path` with `arguments` of `signature`.
    func emit(_ destination: String, _ path: String, _ interface: String, _ member: String, _ signature: String,
              _ arguments: [DBusValue]) throws {
        try mock(destination, path, "EmitSignal", [
            .string(interface), .string(member), .string(signature),
            .array(elementSignature: "v", arguments.map { .variant($0) }),
        ])
    }

    func sessionSignal(_ member: String) throws {
        try emit(Self.login, session, Self.sessionInterface, member, "", [])
    }

    func manager(_ member: String, _ flag: Bool) throws {
        try emit(Self.login, Self.manager, Self.managerInterface, member, "b", [.bool(flag)])
    }

    /// logind's inhibitors as `(what, who, why, mode)`.
    func inhibitors() throws -> [[DBusValue]] {
        let reply = try control.call(destination: Self.login, path: Self.manager, interface: Self.managerInterface,
                                     member: "ListInhibitors")
        guard reply.count == 1, case .array(_, let rows) = reply[0] else { return [] }
        return rows.map { row in
            guard case .structure(let fields) = row else { return [row] }
            return Array(fields.prefix(4))
        }
    }
}

/// A started desk monitor, what it said at start, and what it reports.
struct RunningDesk {
    let monitor: DeskMonitor
    let summary: DeskSummary
    let changes: ChangeRecorder
    let logs: LogRecorder
}

extension SystemMocks {
    /// Starts a monitor on these mocks, runs `body`, then stops the
    /// monitor and the mocks whatever `body` did.
    func run(environment: [String: String]? = nil, idle: [DeskWatchPlan]? = nil,
             _ body: (RunningDesk) async throws -> Void) async throws {
        defer { stop() }
        let logs = LogRecorder()
        let monitor = monitor(environment: environment, idle: idle, log: logs.log)
        defer { monitor.stop() }
        let changes = ChangeRecorder(monitor.changes)
        let summary = monitor.start()
        try await body(RunningDesk(monitor: monitor, summary: summary, changes: changes, logs: logs))
    }

    /// Starts the mocks and runs `body` on a monitor on them.
    static func run(logind: Bool = true, withSession: Bool = true, upower: Bool = true,
                    environment: [String: String]? = nil, idle: [DeskWatchPlan]? = nil,
                    _ body: (SystemMocks, RunningDesk) async throws -> Void) async throws {
        let mocks = try SystemMocks(logind: logind, withSession: withSession, upower: upower)
        try await mocks.run(environment: environment, idle: idle) { try await body(mocks, $0) }
    }
}
