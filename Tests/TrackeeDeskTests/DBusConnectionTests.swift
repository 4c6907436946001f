import Foundation
import Testing
import TrackeeDesk

extension DeskBusSuites {
    /// `DBusConnection` against a real private `dbus-daemon` and a
    /// python-dbusmock object on it, one bus per test.
    @Suite
    struct DBusConnectionTests {
        let name = "com.example.Desk"
        let path = "/com/example/Desk"

        /// Runs `body` with a bus, a connection to it, and a mock owning `name`.
        func withMock(_ body: (PrivateBus, DBusConnection) throws -> Void) throws {
            let bus = try PrivateBus()
            defer { bus.stop() }
            let connection = try DBusConnection(address: bus.address)
            try bus.startMock(name: name, path: path, interface: name, on: connection)
            try body(bus, connection)
        }

        func mockCall(_ connection: DBusConnection, _ member: String, _ arguments: [DBusValue]) throws {
            let reply = try connection.call(
                destination: name, path: path, interface: "org.freedesktop.DBus.Mock", member: member, arguments: arguments)
            #expect(reply == [])
        }

        @Test func readsStringAndBoolProperties() throws {
            try withMock { _, connection in
                try mockCall(connection, "AddProperty", [.string(name), .string("Mode"), .variant(.string("focus"))])
                try mockCall(connection, "AddProperty", [.string(name), .string("Locked"), .variant(.bool(true))])
                #expect(try connection.property(destination: name, path: path, interface: name, name: "Mode") == .string("focus"))
                #expect(try connection.property(destination: name, path: path, interface: name, name: "Locked") == .bool(true))
            }
        }

        @Test func aSignalArrivesAsSwiftValues() throws {
            try withMock { _, connection in
                try connection.addMatch("type='signal',sender='\(name)',interface='\(name)'")
                let owner = try connection.call(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                    member: "GetNameOwner", arguments: [.string(name)])
                guard case .string(let sender) = owner.first else {
                    Issue.record("GetNameOwner answered \(owner)")
                    return
                }
                try mockCall(connection, "EmitSignal", [
                    .string(name), .string("Changed"), .string("sbutxv"),
                    .array(elementSignature: "v", [
                        .variant(.string("idle")), .variant(.bool(false)), .variant(.uint32(600)),
                        .variant(.uint64(1_795_420_800_000)), .variant(.int64(-3)),
                        // dbusmock sends each element of `av` as the signature's
                        // type; for `v`, the element's own variant.
                        .variant(.int32(7)),
                    ]),
                ])
                // The bus's own NameAcquired, addressed to this connection, comes first.
                var signal = try connection.nextSignal(timeoutMilliseconds: 5000)
                while let got = signal, got.interface == "org.freedesktop.DBus" {
                    signal = try connection.nextSignal(timeoutMilliseconds: 5000)
                }
                #expect(signal == DBusSignal(
                    sender: sender, path: path, interface: name, member: "Changed",
                    arguments: [.string("idle"), .bool(false), .uint32(600), .uint64(1_795_420_800_000), .int64(-3),
                                .variant(.int32(7))]))
                #expect(try connection.nextSignal(timeoutMilliseconds: 100) == nil)
            }
        }

        /// Runs `body`, which must throw a `DBusFailure`, and returns it.
        func failure(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> DBusFailure? {
            do {
                try body()
                Issue.record("expected a DBusFailure", sourceLocation: sourceLocation)
            } catch let failure as DBusFailure {
                return failure
            } catch {
                Issue.record("expected a DBusFailure, not \(error)", sourceLocation: sourceLocation)
            }
            return nil
        }

        @Test func aMissingPropertyIsAFailureWithThePeersErrorName() throws {
            try withMock { _, connection in
                let failure = failure {
                    _ = try connection.property(destination: name, path: path, interface: name, name: "Nothing")
                }
                #expect(failure?.errorName == "com.example.Desk.UnknownProperty")
                #expect(failure?.sentence == "the D-Bus call org.freedesktop.DBus.Properties.Get on com.example.Desk "
                    + "/com/example/Desk failed: no such property Nothing (com.example.Desk.UnknownProperty).")
            }
        }

        @Test func noBusAtTheAddressIsAFailureNamingIt() throws {
            let bus = try PrivateBus()
            defer { bus.stop() }
            let socket = bus.directory.path + "/nobody"
            let failure = failure { _ = try DBusConnection(address: "unix:path=" + socket) }
            #expect(failure?.errorName == "org.freedesktop.DBus.Error.FileNotFound")
            #expect(failure?.sentence == "could not connect to the D-Bus bus at unix:path=\(socket): Failed to connect to "
                + "socket \(socket): No such file or directory (org.freedesktop.DBus.Error.FileNotFound).")
        }

        @Test func aCallToANameNobodyOwnsFails() throws {
            let bus = try PrivateBus()
            defer { bus.stop() }
            let connection = try DBusConnection(address: bus.address)
            let failure = failure {
                _ = try connection.call(destination: "com.example.Nobody", path: "/", interface: "com.example.Nobody",
                                        member: "Hello")
            }
            #expect(failure?.errorName == "org.freedesktop.DBus.Error.ServiceUnknown")
        }

        @Test func theBusGoingAwayIsAFailureNotAnExit() throws {
            let bus = try PrivateBus()
            defer { bus.stop() }
            let connection = try DBusConnection(address: bus.address)
            bus.stop()
            // The bus's NameAcquired may still be queued; the failure comes after it.
            let failure = failure {
                while try connection.nextSignal(timeoutMilliseconds: 5000) != nil {}
            }
            #expect(failure?.sentence == "the D-Bus bus closed the connection \(connection.uniqueName).")
        }
    }
}
