import Testing
import TrackeeCore
import TrackeeDesk

extension DeskBusSuites {
    /// `MutterIdleWatch` against Tests/Fixtures/dbusmock/mutter_idle_monitor.py,
    /// a mock of Mutter's idle monitor, on a private bus: a ten-minute watch.
    @Suite
    struct MutterIdleWatchTests {
        let service = "org.gnome.Mutter.IdleMonitor"
        let path = "/org/gnome/Mutter/IdleMonitor/Core"

        /// Runs `body` with the mock and a connection that drives it, apart
        /// from the watch's own.
        func withMutter(_ body: (PrivateBus, DBusConnection) throws -> Void) throws {
            let bus = try PrivateBus()
            defer { bus.stop() }
            let control = try DBusConnection(address: bus.address)
            try bus.startTemplate("mutter_idle_monitor", name: service, on: control)
            try body(bus, control)
        }

        func setIdletime(_ control: DBusConnection, minutes: Double) throws {
            try callMock(control, service, path, "SetIdletime", [.uint64(UInt64(minutes * 60_000))])
        }

        @Test func idleFromTheMomentIdlenessBeganThenActiveOnTheNextInput() throws {
            try withMutter { bus, control in
                let connection = try DBusConnection(address: bus.address)
                var watch = MutterIdleWatch(intervalMilliseconds: 600_000)
                #expect(try watch.attach(connection, now: morning).map(Reported.init) == [])
                try setIdletime(control, minutes: 5)
                #expect(try feedSignals(&watch, connection, now: morning) == [])
                try setIdletime(control, minutes: 10)
                #expect(try feedSignals(&watch, connection, now: morning) == [Reported(.idle(since: morning - 600), at: morning - 600)])
                try setIdletime(control, minutes: 25)
                #expect(try feedSignals(&watch, connection, now: morning + 900) == [])
                try setIdletime(control, minutes: 0)
                #expect(try feedSignals(&watch, connection, now: morning + 901) == [Reported(.active(since: morning - 600), at: morning + 901)])
                // Away again: the same idle watch fires again, and a new
                // user-active watch brings the return.
                try setIdletime(control, minutes: 10)
                #expect(try feedSignals(&watch, connection, now: morning + 1501) == [Reported(.idle(since: morning + 901), at: morning + 901)])
                try setIdletime(control, minutes: 0.5)
                #expect(try feedSignals(&watch, connection, now: morning + 1600) == [Reported(.active(since: morning + 901), at: morning + 1600)])
                let added = try callMock(control, service, path, "GetMethodCalls", [.string("AddUserActiveWatch")])
                guard case .array(_, let calls) = added.first else {
                    Issue.record("GetMethodCalls answered \(added)")
                    return
                }
                #expect(calls.count == 2)
            }
        }

        @Test func idleAlreadyAtTheFirstAttachIsReportedWithItsStartAndSoIsTheReturn() throws {
            try withMutter { bus, control in
                try setIdletime(control, minutes: 15)
                let connection = try DBusConnection(address: bus.address)
                var watch = MutterIdleWatch(intervalMilliseconds: 600_000)
                #expect(try watch.attach(connection, now: morning).map(Reported.init)
                    == [Reported(.idle(since: morning - 900), at: morning - 900)])
                // Mutter fires a watch added past its interval at once.
                #expect(try feedSignals(&watch, connection, now: morning) == [])
                try setIdletime(control, minutes: 0)
                #expect(try feedSignals(&watch, connection, now: morning + 60) == [Reported(.active(since: morning - 900), at: morning + 60)])
            }
        }

        @Test func aReattachReportsWhatChangedWhileAway() throws {
            try withMutter { bus, control in
                var watch = MutterIdleWatch(intervalMilliseconds: 600_000)
                do {
                    let first = try DBusConnection(address: bus.address)
                    #expect(try watch.attach(first, now: morning).map(Reported.init) == [])
                }
                try setIdletime(control, minutes: 20)
                let second = try DBusConnection(address: bus.address)
                #expect(try watch.attach(second, now: morning + 1200).map(Reported.init)
                    == [Reported(.idle(since: morning), at: morning)])
                #expect(try feedSignals(&watch, second, now: morning + 1200) == [])
                try setIdletime(control, minutes: 1)
                let third = try DBusConnection(address: bus.address)
                #expect(try watch.attach(third, now: morning + 1300).map(Reported.init)
                    == [Reported(.active(since: morning), at: morning + 1300)])
                #expect(try feedSignals(&watch, third, now: morning + 1300) == [])
            }
        }

        @Test func watchesItDidNotAddAndWrongTypesReportNothing() throws {
            try withMutter { bus, control in
                let connection = try DBusConnection(address: bus.address)
                var watch = MutterIdleWatch(intervalMilliseconds: 600_000)
                _ = try watch.attach(connection, now: morning)
                for (signature, value) in [("u", DBusValue.uint32(77)), ("s", .string("1")), ("t", .uint64(1))] {
                    try callMock(control, service, path, "EmitSignal", [
                        .string(service), .string("WatchFired"), .string(signature),
                        .array(elementSignature: "v", [.variant(value)]),
                    ])
                }
                #expect(try feedSignals(&watch, connection, now: morning) == [])
            }
        }
    }
}
