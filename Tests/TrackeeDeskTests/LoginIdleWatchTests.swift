import Testing
import TrackeeCore
import TrackeeDesk

extension DeskBusSuites {
    /// Idleness through logind's session `IdleHint` and `IdleSinceHint`.
    @Suite(.serialized)
    struct LoginIdleWatchTests {
        let now = SystemMocks.now
        /// 2026-11-22 12:00:00.25 UTC, as logind gives it: microseconds.
        let since: UInt64 = 1_795_392_000_250_000
        let sinceInstant = Instant(seconds: 1_795_392_000)

        @Test func idleCarriesLogindsSinceAndActiveComesAtArrival() async throws {
            try await SystemMocks.run { mocks, desk in
                try mocks.session(["IdleHint": .bool(true), "IdleSinceHint": .uint64(since)])
                for _ in 1...10 { try mocks.session(["IdleHint": .bool(true), "IdleSinceHint": .uint64(since)]) }
                try mocks.session(["IdleHint": .bool(false), "IdleSinceHint": .uint64(since + 600_000_000)])
                #expect(await desk.changes.seen(2) == [
                    Seen(.idle(since: sinceInstant), at: sinceInstant), Seen(.active(since: sinceInstant), at: now),
                ])
            }
        }

        @Test func anIdleHintWithoutItsSinceAsksForIt() async throws {
            try await SystemMocks.run { mocks, desk in
                // The mock sends only what is updated: first the time, quietly read later.
                try mocks.session(["IdleSinceHint": .uint64(since)])
                try mocks.session(["IdleHint": .bool(true)])
                #expect(await desk.changes.seen(1) == [Seen(.idle(since: sinceInstant), at: sinceInstant)])
            }
        }

        @Test func idlenessUnderWayAtStartIsReportedWithItsOwnSince() async throws {
            let mocks = try SystemMocks()
            try mocks.session(["IdleHint": .bool(true), "IdleSinceHint": .uint64(since)])
            try await mocks.run { desk in
                try mocks.session(["IdleHint": .bool(false)])
                #expect(await desk.changes.seen(2) == [
                    Seen(.idle(since: sinceInstant), at: sinceInstant), Seen(.active(since: sinceInstant), at: now),
                ])
            }
        }
    }
}
