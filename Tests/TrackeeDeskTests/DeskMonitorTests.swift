import Foundation
import Testing
import TrackeeCore
import TrackeeDesk

extension DeskBusSuites {
    /// The monitor's runtime against real buses: the start line, services that
    /// come later, the idle source chosen, and the bus going away.
    @Suite(.serialized)
    struct DeskMonitorTests {
        let now = SystemMocks.now

        @Test func theStartLineNamesWhatAttachedAndWhatIsAbsent() async throws {
            try await SystemMocks.run(upower: false) { _, desk in
                #expect(desk.summary.description
                    == "desk: idle from logind, lock and sleep from logind; absent: session bus (no address), "
                    + "NetworkManager (not on the system bus), UPower (not on the system bus)")
            }
        }

        @Test func withoutASessionOnlySleepAttachesAndTheSessionIsWatchedOnceItComes() async throws {
            let mocks = try SystemMocks(withSession: false)
            var environment = mocks.environment
            environment["XDG_SESSION_ID"] = nil
            try await mocks.run(environment: environment) { desk in
                let uid = getuid()
                #expect(desk.summary.description
                    == "desk: sleep from logind, power from UPower; absent: session bus (no address), idle from logind "
                    + "(logind has no session of user \(uid)), lock from logind (logind has no session of user \(uid)), "
                    + "NetworkManager (not on the system bus)")
                try mocks.mock(SystemMocks.login, SystemMocks.manager, "AddSession",
                               [.string("c1"), .string("seat0"), .uint32(uid), .string("desk"), .bool(true)])
                #expect(await desk.logs.wait { $0 == "info: desk: lock from logind" })
                #expect(await desk.logs.wait { $0 == "info: desk: idle from logind" })
                try mocks.session(["LockedHint": .bool(true)])
                #expect(await desk.changes.seen(1) == [Seen(.session(.locked), at: now)])
            }
        }

        @Test func noSystemBusIsOneAbsentBus() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackee-desk-\(UUID().uuidString)")
            let address = "unix:path=\(directory.path)/bus"
            let logs = LogRecorder()
            let monitor = DeskMonitor(environment: ["DBUS_SYSTEM_BUS_ADDRESS": address], idle: [], watches: [
                DeskWatchPlan(reports: "power", bus: .system, serviceName: "org.freedesktop.UPower") { PowerWatch() },
            ], clock: { SystemMocks.now }, log: logs.log)
            defer { monitor.stop() }
            #expect(monitor.start().description == "desk: nothing attached; absent: system bus (could not connect to \(address))")
        }

        @Test func aServiceAbsentAtStartIsAttachedWhenItAppears() async throws {
            try await SystemMocks.run(upower: false) { mocks, desk in
                let upower = try mocks.startUPower()
                #expect(await desk.logs.wait { $0 == "info: desk: UPower appeared on the system bus: power from UPower" })
                try mocks.power(onBattery: true)
                #expect(await desk.changes.seen(1) == [Seen(.power(.battery), at: now)])
                mocks.bus.stop(upower)
                #expect(await desk.logs.wait { $0 == "info: desk: UPower left the system bus" })
            }
        }

        @Test func theMonitorReconnectsWhenTheBusComesBack() async throws {
            try await SystemMocks.run { mocks, desk in
                try mocks.bus.restart()
                #expect(await desk.logs.wait { $0.hasPrefix("warning: desk: lost the system bus (the D-Bus bus closed the connection :1.") && $0.hasSuffix("); reconnecting") })
                let lost = desk.logs.all.count
                try mocks.restart()
                // The monitor may reconnect before UPower is back, then attach it when it appears.
                #expect(await desk.logs.wait(skipping: lost - 1) { $0.contains("power from UPower") })
                try mocks.power(onBattery: true)
                #expect(await desk.changes.seen(1) == [Seen(.power(.battery), at: now)])
                #expect(desk.logs.all.filter { $0.contains("lost the system bus") }.count == 1)
            }
        }

        @Test func theFirstIdleSourceOnItsBusIsChosen() async throws {
            let mocks = try SystemMocks()
            try mocks.bus.startMock(name: "org.freedesktop.ScreenSaver", path: "/org/freedesktop/ScreenSaver",
                                    interface: "org.freedesktop.ScreenSaver", on: mocks.control)
            var environment = mocks.environment
            // One private bus stands for both.
            environment["DBUS_SESSION_BUS_ADDRESS"] = mocks.bus.socketAddress
            let idle = [
                NameWatch.plan("Mutter", "org.gnome.Mutter.IdleMonitor"),
                NameWatch.plan("ScreenSaver", "org.freedesktop.ScreenSaver"),
            ] + DeskWatchPlan.standardIdle(environment: environment, intervalMilliseconds: 1000)
            try await mocks.run(environment: environment, idle: idle) { desk in
                #expect(desk.summary.description == "desk: idle from ScreenSaver, lock and sleep from logind, power from UPower; "
                    + "absent: NetworkManager (not on the system bus)")
            }
        }

        @Test func withNoSessionBusTheLastIdleSourceIsUsedAndTheBusIsNamed() async throws {
            let idle = [NameWatch.plan("Mutter", "org.gnome.Mutter.IdleMonitor")]
                + DeskWatchPlan.standardIdle(environment: [:], intervalMilliseconds: 1000)
            try await SystemMocks.run(idle: idle) { _, desk in
                #expect(desk.summary.description
                    == "desk: idle from logind, lock and sleep from logind, power from UPower; absent: session bus (no address), "
                    + "NetworkManager (not on the system bus)")
            }
        }
    }

    /// A stand-in idle source on the session bus that attaches when its name
    /// has an owner and reports nothing.
    struct NameWatch: DeskWatch {
        let name: String
        let bus = DeskBus.session
        let serviceName: String

        static func plan(_ name: String, _ serviceName: String) -> DeskWatchPlan {
            DeskWatchPlan(reports: "idle", bus: .session, serviceName: serviceName) {
                NameWatch(name: name, serviceName: serviceName)
            }
        }

        mutating func attach(_ connection: DBusConnection, now: Instant) throws -> [DeskChange] {
            _ = try connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                    interface: "org.freedesktop.DBus", member: "GetNameOwner", arguments: [.string(serviceName)])
            return []
        }

        mutating func take(_ signal: DBusSignal, connection: DBusConnection, now: Instant) -> [DeskChange] { [] }
    }
}
