import Testing
import TrackeeCore
import TrackeeDesk

extension DeskBusSuites {
    /// The power supply through UPower's mock, and values of unexpected types
    /// from every watched service, which are ignored.
    @Suite(.serialized)
    struct PowerWatchTests {
        let now = SystemMocks.now

        @Test func unpluggingAndPluggingInAreOneChangeEach() async throws {
            try await SystemMocks.run { mocks, desk in
                for _ in 1...3 { try mocks.power(onBattery: true) }
                for _ in 1...3 { try mocks.power(onBattery: false) }
                #expect(await desk.changes.seen(2) == [Seen(.power(.battery), at: now), Seen(.power(.ac), at: now)])
            }
        }

        @Test func valuesOfUnexpectedTypesAreIgnored() async throws {
            try await SystemMocks.run { mocks, desk in
                try mocks.session(["LockedHint": .string("yes")])
                try mocks.session(["IdleHint": .uint32(1), "IdleSinceHint": .string("now")])
                try mocks.update(SystemMocks.upower, SystemMocks.upowerPath, SystemMocks.upower, ["OnBattery": .int32(1)])
                try mocks.emit(SystemMocks.login, SystemMocks.manager, SystemMocks.managerInterface, "PrepareForSleep", "s",
                               [.string("true")])
                try mocks.emit(SystemMocks.login, SystemMocks.manager, SystemMocks.managerInterface, "PrepareForShutdown",
                               "bb", [.bool(true), .bool(true)])
                try mocks.emit(SystemMocks.login, mocks.session, SystemMocks.sessionInterface, "Lock", "s", [.string("x")])
                // PropertiesChanged without its list of invalidated names, and with a dictionary of the wrong type.
                try mocks.emit(SystemMocks.upower, SystemMocks.upowerPath, "org.freedesktop.DBus.Properties",
                               "PropertiesChanged", "sa{sv}",
                               [.string(SystemMocks.upower),
                                .array(elementSignature: "{sv}", [.entry(key: .string("OnBattery"), value: .variant(.bool(true)))])])
                try mocks.emit(SystemMocks.upower, SystemMocks.upowerPath, "org.freedesktop.DBus.Properties",
                               "PropertiesChanged", "sa{ss}as",
                               [.string(SystemMocks.upower),
                                .array(elementSignature: "{ss}", [.entry(key: .string("OnBattery"), value: .string("true"))]),
                                .array(elementSignature: "s", [])])
                try mocks.power(onBattery: true)
                #expect(await desk.changes.seen(1) == [Seen(.power(.battery), at: now)])
                try mocks.power(onBattery: false)
                #expect(await desk.changes.seen(2) == [Seen(.power(.battery), at: now), Seen(.power(.ac), at: now)])
            }
        }
    }
}
