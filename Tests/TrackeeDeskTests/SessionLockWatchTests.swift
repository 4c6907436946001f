import Testing
import TrackeeCore
import TrackeeDesk

extension DeskBusSuites {
    /// The screen lock through logind's mock: the `Lock`/`Unlock` signals and
    /// `LockedHint` make one change per edge, whichever comes first.
    @Suite(.serialized)
    struct SessionLockWatchTests {
        let now = SystemMocks.now

        @Test func theLockSignalThenItsHintIsOneLockedChange() async throws {
            try await SystemMocks.run { mocks, desk in
                try mocks.sessionSignal("Lock")
                try mocks.session(["LockedHint": .bool(true)])
                try mocks.sessionSignal("Unlock")
                try mocks.session(["LockedHint": .bool(false)])
                // UPower's change comes after all of logind's: nothing of logind's followed it.
                try mocks.power(onBattery: true)
                #expect(await desk.changes.seen(3) == [
                    Seen(.session(.locked), at: now), Seen(.session(.unlocked), at: now), Seen(.power(.battery), at: now),
                ])
            }
        }

        @Test func fiftyRepeatsOfTheHintAreOneChange() async throws {
            try await SystemMocks.run { mocks, desk in
                for _ in 1...50 { try mocks.session(["LockedHint": .bool(true)]) }
                try mocks.sessionSignal("Lock")
                for _ in 1...50 { try mocks.session(["LockedHint": .bool(false)]) }
                try mocks.sessionSignal("Unlock")
                try mocks.power(onBattery: true)
                #expect(await desk.changes.seen(3) == [
                    Seen(.session(.locked), at: now), Seen(.session(.unlocked), at: now), Seen(.power(.battery), at: now),
                ])
            }
        }

        @Test func aSessionLockedAtStartIsAStateNotAChange() async throws {
            let mocks = try SystemMocks()
            try mocks.session(["LockedHint": .bool(true)])
            try await mocks.run { desk in
                try mocks.sessionSignal("Lock")
                try mocks.sessionSignal("Unlock")
                #expect(await desk.changes.seen(1) == [Seen(.session(.unlocked), at: now)])
            }
        }

        @Test func withoutXDGSessionIDTheUsersSessionIsFoundInTheList() async throws {
            let mocks = try SystemMocks()
            var environment = mocks.environment
            environment["XDG_SESSION_ID"] = nil
            try await mocks.run(environment: environment) { desk in
                #expect(desk.summary.description == "desk: idle from logind, lock and sleep from logind, power from UPower; "
                    + "absent: session bus (no address), NetworkManager (not on the system bus)")
                try mocks.session(["LockedHint": .bool(true)])
                #expect(await desk.changes.seen(1) == [Seen(.session(.locked), at: now)])
            }
        }
    }
}
