import Testing

import TrackeeCore

@Suite("formatDuration")
struct DurationFormatTests {
    /// seconds, clock, clockSeconds, decimal, human — worked out by hand.
    @Test(arguments: [
        (0, "0:00", "00:00:00", "0.00", "0m"),
        (59, "0:00", "00:00:59", "0.02", "<1m"),
        (60, "0:01", "00:01:00", "0.02", "1m"),
        (3599, "0:59", "00:59:59", "1.00", "59m"),
        (3600, "1:00", "01:00:00", "1.00", "1h 00m"),
        (3661, "1:01", "01:01:01", "1.02", "1h 01m"),
        (90_000, "25:00", "25:00:00", "25.00", "25h 00m"),
        (360_000, "100:00", "100:00:00", "100.00", "100h 00m"),
    ] as [(Int64, String, String, String, String)])
    func everyStyle(_ seconds: Int64, _ clock: String, _ clockSeconds: String, _ decimal: String, _ human: String) {
        #expect(formatDuration(seconds, .clock) == clock)
        #expect(formatDuration(seconds, .clockSeconds) == clockSeconds)
        #expect(formatDuration(seconds, .decimal) == decimal)
        #expect(formatDuration(seconds, .human) == human)
    }

    @Test func decimalRoundsHalfUpOnTheHundredth() {
        // 18 s is exactly 0.005 h; 17 s is just under.
        #expect(formatDuration(17, .decimal) == "0.00")
        #expect(formatDuration(18, .decimal) == "0.01")
        // 1:05 is 1.0833… h; 1:05:09 is 1.0858… h.
        #expect(formatDuration(3900, .decimal) == "1.08")
        #expect(formatDuration(3909, .decimal) == "1.09")
        // 7 h 59 m 42 s is 7.995 h exactly: rounds up into the next hour.
        #expect(formatDuration(28_782, .decimal) == "8.00")
        #expect(formatDuration(28_781, .decimal) == "7.99")
    }

    @Test func largeTotalsStayExact() {
        // 1,000,000 hours and one second.
        #expect(formatDuration(3_600_000_001, .decimal) == "1000000.00")
        #expect(formatDuration(3_600_000_001, .clockSeconds) == "1000000:00:01")
        #expect(formatDuration(.max, .decimal) == "2562047788015215.50")
    }

    @Test func negativeIsZero() {
        for style in DurationStyle.allCases {
            #expect(formatDuration(-5, style) == formatDuration(0, style))
        }
        #expect(formatDuration(.min, .clock) == "0:00")
    }

    @Test func styleNames() {
        #expect(DurationStyle.allCases.map(\.rawValue) == ["clock", "clockSeconds", "decimal", "human"])
    }
}
