import Foundation
import TrackeeDesk

/// A desk made of python-dbusmock mocks on one private bus that stands for
/// both the session and the system bus, as `trackee run` meets it in the
/// end-to-end tests: logind (session `c1` of this user), UPower,
/// NetworkManager (a Wi-Fi device and two saved networks) and Mutter's
/// idle monitor, each left out on request.
///
/// The mocks start at once and are waited for together: each is a python
/// process that takes a while to load on a busy machine.
final class MockedDesk {
    struct Mocks: OptionSet {
        let rawValue: Int
        static let logind = Mocks(rawValue: 1)
        static let upower = Mocks(rawValue: 2)
        static let networkManager = Mocks(rawValue: 4)
        static let mutter = Mocks(rawValue: 8)
        static let all: Mocks = [.logind, .upower, .networkManager, .mutter]
    }

    static let login = SystemMocks.login
    static let session = "/org/freedesktop/login1/session/c1"
    static let networkManager = DeskBusSuites.NetworkWatchTests.service
    static let networkManagerPath = DeskBusSuites.NetworkWatchTests.manager
    static let mutter = "org.gnome.Mutter.IdleMonitor"
    static let mutterPath = "/org/gnome/Mutter/IdleMonitor/Core"

    let bus: PrivateBus
    private(set) var control: DBusConnection
    /// The logind template and its parameters, again after a restart.
    private let logindTemplate: String
    private let logindParameters: String
    /// The Wi-Fi device and the saved networks "ACME-Office" and "Home",
    /// once NetworkManager's mock runs.
    private(set) var wifi: (device: String, office: (connection: String, point: String),
                            home: (connection: String, point: String))?

    /// Starts the bus and `mocks`; logind is `logindTemplate` (one of
    /// Tests/Fixtures/dbusmock, or the stock one) with `logindParameters`
    /// (JSON), also after a restart.
    init(_ mocks: Mocks = .all, logindTemplate: String = "logind", logindParameters: String = "{}") throws {
        self.logindTemplate = logindTemplate
        self.logindParameters = logindParameters
        bus = try PrivateBus()
        do {
            control = try DBusConnection(address: bus.socketAddress)
            try start(mocks)
        } catch {
            bus.stop()
            throw error
        }
    }

    /// What `trackee run` is told: this bus is both buses, the session is `c1`.
    var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": bus.socketAddress, "DBUS_SYSTEM_BUS_ADDRESS": bus.socketAddress,
         "XDG_SESSION_ID": "c1"]
    }

    func start(_ mocks: Mocks) throws {
        var wanted: [(name: String, process: Process)] = []
        func launch(_ template: String, parameters: String = "{}", owning name: String) throws {
            wanted.append((name, try bus.launchTemplate(template, parameters: parameters)))
        }
        if mocks.contains(.logind) {
            try launch(logindTemplate, parameters: logindParameters, owning: Self.login)
        }
        if mocks.contains(.upower) {
            try launch("upower", owning: SystemMocks.upower)
        }
        if mocks.contains(.networkManager) {
            try launch("networkmanager", owning: Self.networkManager)
        }
        if mocks.contains(.mutter) {
            try launch("mutter_idle_monitor", owning: Self.mutter)
        }
        let deadline = Date().addingTimeInterval(20)
        for (name, process) in wanted { try bus.waitForOwner(name, of: process, on: control, until: deadline) }
        if mocks.contains(.logind) {
            let path = try mock(Self.login, SystemMocks.manager, "AddSession",
                                [.string("c1"), .string("seat0"), .uint32(getuid()), .string("desk"), .bool(true)])
            guard path == [.string(Self.session)] else { throw PrivateBus.Failure(description: "AddSession gave \(path)") }
        }
        if mocks.contains(.networkManager) { try addWiFi() }
    }

    /// Kills the bus and every mock, as a restart of the bus would, and
    /// starts a new bus on the same socket with `mocks` on it.
    func restart(_ mocks: Mocks) throws {
        try bus.restart()
        control = try DBusConnection(address: bus.socketAddress)
        wifi = nil
        try start(mocks)
    }

    func stop() { bus.stop() }

    @discardableResult
    func mock(_ destination: String, _ path: String, _ member: String, _ arguments: [DBusValue] = []) throws
        -> [DBusValue]
    {
        try control.call(destination: destination, path: path, interface: "org.freedesktop.DBus.Mock", member: member,
                         arguments: arguments)
    }

    // MARK: - logind

    /// Calls a method of the session, as a desktop does (`Lock` sends the
    /// `Lock` signal, `SetLockedHint` the property change).
    func session(_ member: String, _ arguments: [DBusValue] = []) throws {
        _ = try control.call(destination: Self.login, path: Self.session, interface: SystemMocks.sessionInterface,
                         member: member, arguments: arguments)
    }

    /// Sets properties of the session and has logind's mock say so.
    func sessionProperties(_ properties: [String: DBusValue]) throws {
        let entries = properties.keys.sorted().map { DBusValue.entry(key: .string($0), value: .variant(properties[$0]!)) }
        try mock(Self.login, Self.session, "UpdateProperties",
                 [.string(SystemMocks.sessionInterface), .array(elementSignature: "{sv}", entries)])
    }

    /// Has logind_ordered.py log the store's running entries, then send
    /// `member` (`PrepareForSleep` or `PrepareForShutdown`) with `starting`.
    func prepare(_ member: String, _ starting: Bool) throws {
        try mock(Self.login, SystemMocks.manager, member, [.bool(starting)])
    }

    // MARK: - UPower

    func power(onBattery: Bool) throws {
        try mock(SystemMocks.upower, SystemMocks.upowerPath, "UpdateProperties", [
            .string(SystemMocks.upower),
            .array(elementSignature: "{sv}", [.entry(key: .string("OnBattery"), value: .variant(.bool(onBattery)))]),
        ])
    }

    // MARK: - Mutter

    /// Moves Mutter's idle time (milliseconds), firing the watches it reaches.
    func idletime(_ milliseconds: UInt64) throws {
        try mock(Self.mutter, Self.mutterPath, "SetIdletime", [.uint64(milliseconds)])
    }

    // MARK: - NetworkManager

    private func addWiFi() throws {
        let service = Self.networkManager
        let manager = Self.networkManagerPath
        let device = try DeskBusSuites.NetworkWatchTests.Desk.text(
            mock(service, manager, "AddWiFiDevice", [.string("wlan0"), .string("wlan0"), .int32(30)]))
        wifi = (device, try DeskBusSuites.NetworkWatchTests.Desk.network(control, device, "office", "ACME-Office", "00:11:22:33:44:55"),
                try DeskBusSuites.NetworkWatchTests.Desk.network(control, device, "home", "Home", "00:11:22:33:44:66"))
    }

    /// Connects to "ACME-Office" (or "Home"), as active connection `name`;
    /// returns its path.
    func connect(office: Bool, as name: String) throws -> String {
        guard let wifi else { throw PrivateBus.Failure(description: "NetworkManager's mock is not running") }
        let network = office ? wifi.office : wifi.home
        return try DeskBusSuites.NetworkWatchTests.Desk.text(mock(Self.networkManager, Self.networkManagerPath, "AddActiveConnection", [
            .array(elementSignature: "s", [.string(wifi.device)]), .string(network.connection), .string(network.point),
            .string(name), .uint32(2),
        ]))
    }

    func disconnect(_ path: String) throws {
        guard let wifi else { throw PrivateBus.Failure(description: "NetworkManager's mock is not running") }
        try mock(Self.networkManager, Self.networkManagerPath, "RemoveActiveConnection",
                 [.string(wifi.device), .string(path)])
    }
}
