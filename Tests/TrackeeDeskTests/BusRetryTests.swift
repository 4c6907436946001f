import Testing
import TrackeeDesk

extension DeskBusSuites {
    /// A bus's thread on a private dbus-daemon and a desk clock the test
    /// moves: the exact times it tries a watch again and reconnects.
    @Suite(.serialized)
    struct BusRetryTests {
        /// Early's service is there but not ready from the start; Late's
        /// comes at 1 s, not ready either: each is tried again on a backoff
        /// of its own until it attaches.
        @Test func eachWatchThatIsNotReadyIsTriedAgainOnItsOwnBackoff() async throws {
            let bus = try PrivateBus()
            defer { bus.stop() }
            let control = try DBusConnection(address: bus.socketAddress)
            let clock = ManualDeskClock()
            let early = AttachTries(on: clock)
            let late = AttachTries(on: clock)
            let logs = LogRecorder()
            let monitor = DeskMonitor(environment: ["DBUS_SESSION_BUS_ADDRESS": bus.socketAddress], idle: [], watches: [
                // The bus owns its own name: the service is always there.
                FlakyWatch.plan("Early", reports: "lock", serviceName: "org.freedesktop.DBus", failures: 4, tries: early),
                // Absent at the first try, which counts as one of its failures.
                FlakyWatch.plan("Late", reports: "power", serviceName: "org.trackee.Late", failures: 4, tries: late),
            ], clock: { SystemMocks.now }, monotonic: clock, log: logs.log)
            defer { monitor.stop() }
            #expect(monitor.start().description
                == "desk: nothing attached; absent: lock from Early (Early is not ready), Late (not on the session bus)")
            try await advance(clock, through: [250, 750])
            #expect(await clock.nextWait() == .until(.milliseconds(1750)))
            clock.advance(to: .seconds(1))
            #expect(try control.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "RequestName", arguments: [.string("org.trackee.Late"), .uint32(0)]) == [.uint32(1)])
            #expect(await until { late.all.count == 2 })
            try await advance(clock, through: [1250, 1750, 2750, 3750])
            #expect(await clock.nextWait() == .forever)
            #expect(early.all == [0, 250, 750, 1750, 3750].map { .milliseconds($0) })
            #expect(late.all == [0, 1000, 1250, 1750, 2750].map { .milliseconds($0) })
            #expect(logs.all == [
                "info: desk: Late appeared on the session bus: nothing attached; absent: power from Late (Late is not ready)",
                "info: desk: power from Late",
                "info: desk: lock from Early",
            ])
        }

        /// The bus is away at first, then lost twice: a nanosecond short of
        /// a minute after it came, the reconnect backoff goes on (2 s);
        /// a minute after, it starts again from a quarter of a second.
        @Test func aConnectionThatLastedAMinuteStartsTheReconnectBackoffAgain() async throws {
            let bus = try PrivateBus()
            defer { bus.stop() }
            bus.halt()
            let clock = ManualDeskClock()
            let tries = AttachTries(on: clock)
            let logs = LogRecorder()
            let monitor = DeskMonitor(environment: ["DBUS_SESSION_BUS_ADDRESS": bus.socketAddress], idle: [], watches: [
                FlakyWatch.plan("Steady", reports: "idle", serviceName: "org.freedesktop.DBus", failures: 0, tries: tries),
            ], clock: { SystemMocks.now }, monotonic: clock, log: logs.log)
            defer { monitor.stop() }
            #expect(monitor.start().description
                == "desk: nothing attached; absent: session bus (could not connect to \(bus.socketAddress))")
            /// The bus comes back and the thread reaches it at `instant`.
            func comeBack(at instant: Duration) async throws {
                try bus.resume()
                let connections = tries.all.count
                clock.advance(to: instant)
                #expect(await until { tries.all.count == connections + 1 })
            }
            func losses() -> Int { logs.all.filter { $0.hasPrefix("warning: desk: lost the session bus") }.count }
            /// The bus goes away at `instant`: what the thread waits for then.
            func lose(at instant: Duration) async -> ManualDeskClock.Wait? {
                #expect(await clock.nextWait() == .forever)
                let before = losses()
                clock.advance(to: instant)
                bus.halt()
                #expect(await until { losses() == before + 1 })
                return await clock.nextWait()
            }
            try await advance(clock, through: [250, 750])
            #expect(await clock.nextWait() == .until(.milliseconds(1750)))
            try await comeBack(at: .milliseconds(1750))
            #expect(await lose(at: .nanoseconds(61_749_999_999)) == .until(.nanoseconds(63_749_999_999)))
            try await comeBack(at: .nanoseconds(63_749_999_999))
            #expect(await lose(at: .nanoseconds(123_749_999_999)) == .until(.nanoseconds(123_999_999_999)))
            #expect(tries.all == [.milliseconds(1750), .nanoseconds(63_749_999_999)])
            #expect(logs.all.filter { $0.hasPrefix("info: ") } == [
                "info: desk: connected to the session bus: idle from Steady",
                "info: desk: connected to the session bus again: idle from Steady",
            ])
        }

        /// Waits for the thread to wait for each of `deadlines`
        /// (milliseconds) in turn, and moves the clock to it.
        private func advance(_ clock: ManualDeskClock, through deadlines: [Int]) async throws {
            for deadline in deadlines {
                let wait = try #require(await clock.nextWait())
                #expect(wait == .until(.milliseconds(deadline)))
                clock.advance(to: .milliseconds(deadline))
            }
        }
    }
}
