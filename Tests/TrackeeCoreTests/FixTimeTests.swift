import Testing
import TrackeeCore

@Suite("FixTime: milliseconds and the whole second they fall in")
struct FixTimeTests {
    @Test func theWholeSecondIsRoundedDownAlsoBefore1970() {
        #expect(FixTime(milliseconds: 1_795_417_020_999).instant == Instant(seconds: 1_795_417_020))
        #expect(FixTime(milliseconds: 1_795_417_020_999).millisecond == 999)
        #expect(FixTime(milliseconds: -500).instant == Instant(seconds: -1))
        #expect(FixTime(milliseconds: -500).millisecond == 500)
        #expect(FixTime(milliseconds: -1000).instant == Instant(seconds: -1))
        #expect(FixTime(Instant(seconds: 7), millisecond: 250).milliseconds == 7250)
    }

    @Test func iso8601ShowsMillisecondsOnlyWhenThereAreSome() throws {
        let prague = try Zone(identifier: "Europe/Prague")
        #expect(Zone.utc.iso8601(FixTime(milliseconds: 1_795_420_980_000)) == "2026-11-23T08:03:00Z")
        #expect(Zone.utc.iso8601(FixTime(milliseconds: 1_795_420_980_050)) == "2026-11-23T08:03:00.050Z")
        #expect(prague.iso8601(FixTime(milliseconds: 1_795_420_980_350)) == "2026-11-23T09:03:00.350+01:00")
        #expect(FixTime(milliseconds: 1_795_420_980_350).description == "2026-11-23T08:03:00.350Z")
    }
}
