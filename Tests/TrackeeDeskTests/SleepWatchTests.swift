import Testing
import TrackeeCore
import TrackeeDesk

extension DeskBusSuites {
    /// Suspend, resume and shutdown through logind's mock, whose
    /// `ListInhibitors` shows the delay inhibitor while its descriptor is open.
    @Suite(.serialized)
    struct SleepWatchTests {
        let now = SystemMocks.now
        let inhibitor: [DBusValue] = [
            .string("sleep:shutdown"), .string("trackee"), .string("Apply the rules for suspend and shutdown first"),
            .string("delay"),
        ]

        /// Whether logind's list of inhibitors becomes `expected` within 10 s.
        func inhibitors(_ mocks: SystemMocks, become expected: [[DBusValue]]) async -> Bool {
            await until { (try? mocks.inhibitors()) == expected }
        }

        @Test func suspendCarriesTheHeldInhibitorAndReleasingItLetsTheMachineSleep() async throws {
            try await SystemMocks.run { mocks, desk in
                #expect(try mocks.inhibitors() == [inhibitor])
                try mocks.manager("PrepareForSleep", true)
                try mocks.manager("PrepareForSleep", true)
                let changes = await desk.changes.wait(for: 1)
                #expect(changes.map(Seen.init) == [Seen(.sleep(.suspend), at: now, inhibitorHeld: true)])
                #expect(try mocks.inhibitors() == [inhibitor])
                changes.first?.inhibitor?.release()
                #expect(changes.first?.inhibitor?.isHeld == false)
                #expect(await inhibitors(mocks, become: []))
            }
        }

        @Test func resumeIsOneChangeAndTakesANewInhibitor() async throws {
            try await SystemMocks.run { mocks, desk in
                try mocks.manager("PrepareForSleep", true)
                let suspend = await desk.changes.wait(for: 1)
                suspend.first?.inhibitor?.release()
                #expect(await inhibitors(mocks, become: []))
                try mocks.manager("PrepareForSleep", false)
                try mocks.manager("PrepareForSleep", false)
                try mocks.power(onBattery: true)
                #expect(await desk.changes.seen(3) == [
                    Seen(.sleep(.suspend), at: now), Seen(.sleep(.resume), at: now), Seen(.power(.battery), at: now),
                ])
                #expect(try mocks.inhibitors() == [inhibitor])
            }
        }

        @Test func shutdownCarriesTheInhibitorAndACancelledOneTakesANewOneQuietly() async throws {
            try await SystemMocks.run { mocks, desk in
                try mocks.manager("PrepareForShutdown", true)
                let shutdown = await desk.changes.wait(for: 1)
                #expect(shutdown.map(Seen.init) == [Seen(.sleep(.shutdown), at: now, inhibitorHeld: true)])
                shutdown.first?.inhibitor?.release()
                #expect(await inhibitors(mocks, become: []))
                try mocks.manager("PrepareForShutdown", false)
                try mocks.power(onBattery: true)
                #expect(await desk.changes.seen(2) == [Seen(.sleep(.shutdown), at: now), Seen(.power(.battery), at: now)])
                #expect(try mocks.inhibitors() == [inhibitor])
            }
        }

        @Test func stoppingTheMonitorReleasesTheInhibitorItHolds() async throws {
            try await SystemMocks.run { mocks, desk in
                let held = try mocks.inhibitors()
                #expect(held == [inhibitor])
                let clock = ContinuousClock()
                let took = clock.measure { desk.monitor.stop() }
                #expect(took < .milliseconds(600))
                #expect(await inhibitors(mocks, become: []))
                #expect(await until { desk.changes.finished })
            }
        }
    }
}
