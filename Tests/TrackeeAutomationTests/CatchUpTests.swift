import Testing
import TrackeeCore
@testable import TrackeeAutomation

@Suite struct CatchUpTests {
    let nine = Instant(seconds: 1_795_165_200)
    func t(_ minutes: Int64) -> Instant { nine + minutes * 60 }

    @Test func onTimeOccurrencesAllFire() {
        let r = CatchUp().sort([t(1), t(0)], now: t(1) + 30)
        #expect(r.fire == [t(0), t(1)])
        #expect(r.skip.isEmpty)
    }

    @Test func onceFiresOnlyTheLatestMissedOccurrence() {
        // Noticed at 09:09: 09:00..09:07 were missed, 09:08 is on time.
        let r = CatchUp(policy: .once, maxLate: 600).sort((0...8).map(t), now: t(9))
        #expect(r.fire == [t(7), t(8)])
        #expect(r.skip.map(\.0) == (0...6).map(t))
        #expect(r.skip.allSatisfy { $0.1 == .superseded })
    }

    @Test func skipFiresNoMissedOccurrence() {
        let r = CatchUp(policy: .skip, maxLate: 600).sort([t(0), t(5), t(9)], now: t(9) + 10)
        #expect(r.fire == [t(9)])
        #expect(r.skip.map(\.0) == [t(0), t(5)])
        #expect(r.skip.map(\.1) == [.missed, .missed])
    }

    @Test func beyondMaxLateNothingFires() {
        // Resumed from suspend two hours after 09:00.
        let r = CatchUp().sort([t(0)], now: t(120))
        #expect(r.fire == [])
        #expect(r.skip.map(\.1) == [.tooLate])
        // With a longer limit the same occurrence catches up once.
        #expect(CatchUp(policy: .once, maxLate: 3 * 3600).sort([t(0)], now: t(120)).fire == [t(0)])
    }

    @Test func aMaxLateShorterThanTheGraceWins() {
        let r = CatchUp(policy: .once, maxLate: 20).sort([t(0)], now: t(0) + 45)
        #expect(r.fire == [])
        #expect(r.skip.map(\.1) == [.tooLate])
    }
}
