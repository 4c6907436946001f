import Testing
import TrackeeCore
import TrackeeDesk

extension DeskBusSuites {
    /// `ScreenSaverIdleWatch` against Tests/Fixtures/dbusmock/screensaver.py
    /// on a private bus.
    @Suite
    struct ScreenSaverIdleWatchTests {
        let service = "org.freedesktop.ScreenSaver"
        let path = "/org/freedesktop/ScreenSaver"

        func withScreenSaver(_ body: (PrivateBus, DBusConnection) throws -> Void) throws {
            let bus = try PrivateBus()
            defer { bus.stop() }
            let control = try DBusConnection(address: bus.address)
            try bus.startTemplate("screensaver", name: service, on: control)
            try body(bus, control)
        }

        func set(_ control: DBusConnection, active: Bool) throws {
            try callMock(control, service, path, "SetActive", [.bool(active)])
        }

        func set(_ control: DBusConnection, idleSeconds: Int32) throws {
            try callMock(control, service, path, "SetSessionIdleTime", [.int32(idleSeconds)])
        }

        @Test func oneChangePerEdgeIdleSinceTheSessionsIdleTime() throws {
            try withScreenSaver { bus, control in
                let connection = try DBusConnection(address: bus.address)
                var watch = ScreenSaverIdleWatch()
                #expect(try watch.attach(connection, now: morning).map(Reported.init) == [])
                try set(control, idleSeconds: 300)
                try set(control, active: true)
                try set(control, active: true)
                #expect(try feedSignals(&watch, connection, now: morning) == [Reported(.idle(since: morning - 300), at: morning - 300)])
                try set(control, active: false)
                try set(control, active: false)
                #expect(try feedSignals(&watch, connection, now: morning + 50) == [Reported(.active(since: morning - 300), at: morning + 50)])
            }
        }

        @Test func withoutTheSessionsIdleTimeIdlenessBeginsAtTheSignal() throws {
            try withScreenSaver { bus, control in
                let connection = try DBusConnection(address: bus.address)
                var watch = ScreenSaverIdleWatch()
                _ = try watch.attach(connection, now: morning)
                try set(control, idleSeconds: -1)
                try set(control, active: true)
                #expect(try feedSignals(&watch, connection, now: morning) == [Reported(.idle(since: morning), at: morning)])
            }
        }

        @Test func onAtTheFirstAttachIsIdlenessFromItsStartAndAReattachReportsChanges() throws {
            try withScreenSaver { bus, control in
                try set(control, idleSeconds: 120)
                try set(control, active: true)
                var watch = ScreenSaverIdleWatch()
                let first = try DBusConnection(address: bus.address)
                #expect(try watch.attach(first, now: morning).map(Reported.init)
                    == [Reported(.idle(since: morning - 120), at: morning - 120)])
                try set(control, active: false)
                let second = try DBusConnection(address: bus.address)
                #expect(try watch.attach(second, now: morning + 10).map(Reported.init)
                    == [Reported(.active(since: morning - 120), at: morning + 10)])
                #expect(try feedSignals(&watch, second, now: morning + 10) == [])
            }
        }

        @Test func activeChangedWithWrongTypesReportsNothing() throws {
            try withScreenSaver { bus, control in
                let connection = try DBusConnection(address: bus.address)
                var watch = ScreenSaverIdleWatch()
                _ = try watch.attach(connection, now: morning)
                for (signature, values) in [("i", [DBusValue.int32(1)]), ("s", [.string("true")]), ("", []),
                                            ("bb", [.bool(true), .bool(true)])] {
                    try callMock(control, service, path, "EmitSignal", [
                        .string(service), .string("ActiveChanged"), .string(signature),
                        .array(elementSignature: "v", values.map(DBusValue.variant)),
                    ])
                }
                #expect(try feedSignals(&watch, connection, now: morning) == [])
            }
        }
    }
}
