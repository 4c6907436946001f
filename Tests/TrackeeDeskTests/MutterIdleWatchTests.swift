import Testing
import TrackeeCore
import TrackeeDesk

/// `MutterIdleWatch` against Tests/Fixtures/dbusmock/mutter_idle_monitor.py,
/// a mock of Mutter's idle monitor, on a private bus: a ten-minute watch.
@Suite(.enabled(if: PrivateBus.unavailable == nil, "needs dbus-daemon and python3-dbusmock"))
struct MutterIdleWatchTests {
    let service = "org.gnome.Mutter.IdleMonitor"
    let path = "/org/gnome/Mutter/IdleMonitor/Core"

    /// Runs `body` with the mock and a connection that drives it, apart
    /// from the watch's own.
    func withMutter(_ body: (PrivateBus, DBusConnection) throws -> Void) throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let control = try DBusConnection(address: bus.address)
        try bus.startTemplate("mutter_idle_monitor", owning: service, on: control)
        try body(bus, control)
    }

    func setIdletime(_ control: DBusConnection, minutes: Double) throws {
        try mock(control, service, path, "SetIdletime", [.uint64(UInt64(minutes * 60_000))])
    }

    @Test func idleFromTheMomentIdlenessBeganThenActiveOnTheNextInput() throws {
        try withMutter { bus, control in
            let connection = try DBusConnection(address: bus.address)
            var watch = MutterIdleWatch(intervalMilliseconds: 600_000)
            #expect(try watch.attach(connection, now: eight).map(Seen.init) == [])
            try setIdletime(control, minutes: 5)
            #expect(try drain(&watch, connection, now: eight) == [])
            try setIdletime(control, minutes: 10)
            #expect(try drain(&watch, connection, now: eight) == [Seen(.idle(since: eight - 600), at: eight - 600)])
            try setIdletime(control, minutes: 25)
            #expect(try drain(&watch, connection, now: eight + 900) == [])
            try setIdletime(control, minutes: 0)
            #expect(try drain(&watch, connection, now: eight + 901) == [Seen(.active(since: eight - 600), at: eight + 901)])
            // Away again: the same idle watch fires again, and a new
            // user-active watch brings the return.
            try setIdletime(control, minutes: 10)
            #expect(try drain(&watch, connection, now: eight + 1501) == [Seen(.idle(since: eight + 901), at: eight + 901)])
            try setIdletime(control, minutes: 0.5)
            #expect(try drain(&watch, connection, now: eight + 1600) == [Seen(.active(since: eight + 901), at: eight + 1600)])
            let added = try mock(control, service, path, "GetMethodCalls", [.string("AddUserActiveWatch")])
            guard case .array(_, let calls) = added.first else {
                Issue.record("GetMethodCalls answered \(added)")
                return
            }
            #expect(calls.count == 2)
        }
    }

    @Test func idleAlreadyAtTheFirstAttachIsNotAnEdgeButTheReturnIs() throws {
        try withMutter { bus, control in
            try setIdletime(control, minutes: 15)
            let connection = try DBusConnection(address: bus.address)
            var watch = MutterIdleWatch(intervalMilliseconds: 600_000)
            #expect(try watch.attach(connection, now: eight).map(Seen.init) == [])
            // Mutter fires a watch added past its interval at once.
            #expect(try drain(&watch, connection, now: eight) == [])
            try setIdletime(control, minutes: 0)
            #expect(try drain(&watch, connection, now: eight + 60) == [Seen(.active(since: eight - 900), at: eight + 60)])
        }
    }

    @Test func aReattachReportsWhatChangedWhileAway() throws {
        try withMutter { bus, control in
            var watch = MutterIdleWatch(intervalMilliseconds: 600_000)
            do {
                let first = try DBusConnection(address: bus.address)
                #expect(try watch.attach(first, now: eight).map(Seen.init) == [])
            }
            try setIdletime(control, minutes: 20)
            let second = try DBusConnection(address: bus.address)
            #expect(try watch.attach(second, now: eight + 1200).map(Seen.init)
                == [Seen(.idle(since: eight), at: eight)])
            #expect(try drain(&watch, second, now: eight + 1200) == [])
            try setIdletime(control, minutes: 1)
            let third = try DBusConnection(address: bus.address)
            #expect(try watch.attach(third, now: eight + 1300).map(Seen.init)
                == [Seen(.active(since: eight), at: eight + 1300)])
            #expect(try drain(&watch, third, now: eight + 1300) == [])
        }
    }

    @Test func watchesItDidNotAddAndWrongTypesReportNothing() throws {
        try withMutter { bus, control in
            let connection = try DBusConnection(address: bus.address)
            var watch = MutterIdleWatch(intervalMilliseconds: 600_000)
            _ = try watch.attach(connection, now: eight)
            for (signature, value) in [("u", DBusValue.uint32(77)), ("s", .string("1")), ("t", .uint64(1))] {
                try mock(control, service, path, "EmitSignal", [
                    .string(service), .string("WatchFired"), .string(signature),
                    .array(elementSignature: "v", [.variant(value)]),
                ])
            }
            #expect(try drain(&watch, connection, now: eight) == [])
        }
    }
}
