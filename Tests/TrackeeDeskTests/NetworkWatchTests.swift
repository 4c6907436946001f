import Testing
import TrackeeCore
import TrackeeDesk

extension DeskBusSuites {
    /// `NetworkWatch` against Debian's python-dbusmock `networkmanager`
    /// template on a private bus: a Wi-Fi device and two networks.
    @Suite
    struct NetworkWatchTests {
        static let service = "org.freedesktop.NetworkManager"
        static let manager = "/org/freedesktop/NetworkManager"
        static let active = "org.freedesktop.NetworkManager.Connection.Active"

        /// The mock with device `wlan0`, access points for "ACME-Office" and
        /// "Home", and a saved connection to each.
        struct Desk {
            let bus: PrivateBus
            let control: DBusConnection
            let device: String
            let office: (connection: String, point: String)
            let home: (connection: String, point: String)

            init(_ bus: PrivateBus) throws {
                self.bus = bus
                control = try DBusConnection(address: bus.address)
                try bus.startTemplate("networkmanager", name: service, on: control)
                device = try Self.text(callMock(control, service, manager, "AddWiFiDevice",
                                            [.string("wlan0"), .string("wlan0"), .int32(30)]))
                office = try Self.network(control, device, "office", "ACME-Office", "00:11:22:33:44:55")
                home = try Self.network(control, device, "home", "Home", "00:11:22:33:44:66")
            }

            static func text(_ reply: [DBusValue]) throws -> String {
                guard reply.count == 1, case .string(let text) = reply[0] else {
                    throw PrivateBus.Failure(description: "the mock answered \(reply)")
                }
                return text
            }

            static func network(_ control: DBusConnection, _ device: String, _ name: String, _ ssid: String,
                                _ hardware: String) throws -> (connection: String, point: String) {
                let point = try text(callMock(control, service, manager, "AddAccessPoint", [
                    .string(device), .string(name), .string(ssid), .string(hardware), .uint32(2), .uint32(2425),
                    .uint32(54000), .byte(82), .uint32(0x100),  // WPA-PSK
                ]))
                let connection = try text(callMock(control, service, manager, "AddWiFiConnection", [
                    .string(device), .string(name), .string(ssid), .string("wpa-psk"),
                ]))
                return (connection, point)
            }

            /// Activates a saved connection as `/…/ActiveConnection/<name>`.
            func activate(_ network: (connection: String, point: String), as name: String) throws -> String {
                try Self.text(callMock(control, service, manager, "AddActiveConnection", [
                    .array(elementSignature: "s", [.string(device)]), .string(network.connection), .string(network.point),
                    .string(name), .uint32(2),
                ]))
            }

            func deactivate(_ path: String) throws {
                try callMock(control, service, manager, "RemoveActiveConnection", [.string(device), .string(path)])
            }

            func setState(_ path: String, _ state: UInt32) throws {
                try callMock(control, service, manager, "SetProperty", [
                    .string(path), .string(active), .string("State"), .variant(.uint32(state)),
                ])
            }

            /// What the watch should report for an active connection, read
            /// from the mock (its UUID is random).
            func change(_ state: NetworkChange.State, _ path: String, ssid: String) throws -> DeskEvent {
                let uuid = try control.property(destination: service, path: path, interface: active, name: "Uuid")
                guard case .string(let uuid) = uuid else { throw PrivateBus.Failure(description: "Uuid is \(uuid)") }
                return .network(NetworkChange(
                    state: state, connection: ssid, ssid: ssid, connectionType: "802-11-wireless", uuid: uuid))
            }
        }

        func withDesk(_ body: (Desk) throws -> Void) throws {
            let bus = try PrivateBus()
            defer { bus.stop() }
            try body(try Desk(bus))
        }

        @Test func switchingWiFiNetworksIsConnectedDisconnectedConnectedOnceEach() throws {
            try withDesk { desk in
                let connection = try DBusConnection(address: desk.bus.address)
                var watch = NetworkWatch()
                #expect(try watch.attach(connection, now: morning).map(Reported.init) == [])
                // The watch reads a new active connection when it hears of
                // it, as it would read NetworkManager: each step is taken in.
                let office = try desk.activate(desk.office, as: "1")
                let connectedOffice = try desk.change(.connected, office, ssid: "ACME-Office")
                let disconnectedOffice = try desk.change(.disconnected, office, ssid: "ACME-Office")
                var seen = try feedSignals(&watch, connection, now: morning)
                try desk.deactivate(office)
                seen += try feedSignals(&watch, connection, now: morning + 1)
                let home = try desk.activate(desk.home, as: "2")
                seen += try feedSignals(&watch, connection, now: morning + 2)
                #expect(seen == [
                    Reported(connectedOffice, at: morning), Reported(disconnectedOffice, at: morning + 1),
                    Reported(try desk.change(.connected, home, ssid: "Home"), at: morning + 2),
                ])
            }
        }

        @Test func theActiveConnectionsStateMakesTheEdgesToo() throws {
            try withDesk { desk in
                let connection = try DBusConnection(address: desk.bus.address)
                var watch = NetworkWatch()
                let home = try desk.activate(desk.home, as: "7")
                // Found at the first attach: the state, not an edge.
                #expect(try watch.attach(connection, now: morning).map(Reported.init) == [])
                try desk.setState(home, 3)
                try desk.setState(home, 4)
                try desk.setState(home, 4)
                #expect(try feedSignals(&watch, connection, now: morning + 5)
                    == [Reported(try desk.change(.disconnected, home, ssid: "Home"), at: morning + 5)])
                try desk.setState(home, 1)
                try desk.setState(home, 2)
                try desk.setState(home, 2)
                #expect(try feedSignals(&watch, connection, now: morning + 9)
                    == [Reported(try desk.change(.connected, home, ssid: "Home"), at: morning + 9)])
            }
        }

        @Test func aReattachReportsTheSwitchThatHappenedWhileAway() throws {
            try withDesk { desk in
                var watch = NetworkWatch()
                let office = try desk.activate(desk.office, as: "1")
                let disconnectedOffice = try desk.change(.disconnected, office, ssid: "ACME-Office")
                do {
                    let first = try DBusConnection(address: desk.bus.address)
                    #expect(try watch.attach(first, now: morning).map(Reported.init) == [])
                }
                try desk.deactivate(office)
                let home = try desk.activate(desk.home, as: "2")
                let second = try DBusConnection(address: desk.bus.address)
                #expect(try watch.attach(second, now: morning + 60).map(Reported.init) == [
                    Reported(disconnectedOffice, at: morning + 60),
                    Reported(try desk.change(.connected, home, ssid: "Home"), at: morning + 60),
                ])
                #expect(try feedSignals(&watch, second, now: morning + 60) == [])
            }
        }

        @Test func aFloodRepeatingTheActiveConnectionsIsNoChange() throws {
            try withDesk { desk in
                let connection = try DBusConnection(address: desk.bus.address)
                var watch = NetworkWatch()
                _ = try watch.attach(connection, now: morning)
                let office = try desk.activate(desk.office, as: "1")
                #expect(try feedSignals(&watch, connection, now: morning)
                    == [Reported(try desk.change(.connected, office, ssid: "ACME-Office"), at: morning)])
                // Each sends both forms of PropertiesChanged: 200 signals.
                for _ in 0..<100 {
                    try callMock(desk.control, Self.service, Self.manager, "SetProperty", [
                        .string(Self.manager), .string(Self.service), .string("ActiveConnections"),
                        .variant(.array(elementSignature: "o", [.objectPath(office)])),
                    ])
                }
                #expect(try feedSignals(&watch, connection, now: morning + 1) == [])
            }
        }

        @Test func stateChangedAloneMakesTheEdges() throws {
            try withDesk { desk in
                let connection = try DBusConnection(address: desk.bus.address)
                var watch = NetworkWatch()
                let home = try desk.activate(desk.home, as: "3")
                _ = try watch.attach(connection, now: morning)
                func stateChanged(_ state: UInt32, reason: UInt32) throws {
                    try callMock(desk.control, Self.service, Self.manager, "EmitSignalDetailed", [
                        .string(Self.active), .string("StateChanged"), .string("uu"),
                        .array(elementSignature: "v", [.variant(.uint32(state)), .variant(.uint32(reason))]),
                        .array(elementSignature: "{sv}", [.entry(key: .string("path"), value: .variant(.objectPath(home)))]),
                    ])
                }
                try stateChanged(4, reason: 2)
                try stateChanged(4, reason: 2)
                try stateChanged(2, reason: 0)
                #expect(try feedSignals(&watch, connection, now: morning + 3) == [
                    Reported(try desk.change(.disconnected, home, ssid: "Home"), at: morning + 3),
                    Reported(try desk.change(.connected, home, ssid: "Home"), at: morning + 3),
                ])
            }
        }
    }
}
