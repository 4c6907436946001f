import Testing

@testable import TrackeeCore

/// `ISO8601Writer` (the calendar listing's timestamps) and the one-search
/// path of `Zone.instant(for:)`, held to `Zone`'s plain answers on random
/// instants that jump back and forth across changes of offset.
@Suite struct ISO8601WriterTests {
    /// xorshift64*, so the instants are the same on every run.
    struct Random {
        var state: UInt64
        mutating func next(_ range: ClosedRange<Int64>) -> Int64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            let value = state &* 2_685_821_657_736_338_717
            return range.lowerBound + Int64(value % UInt64(range.upperBound - range.lowerBound + 1))
        }
    }

    static let zones = ["Europe/Prague", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Europe/Amsterdam", "UTC"]

    @Test(arguments: zones)
    func writesWhatZoneWrites(name: String) throws {
        let zone = try Zone(identifier: name)
        var writer = ISO8601Writer(zone: zone)
        var random = Random(state: 0x9E37_79B9_7F4A_7C15)
        var buffer = [UInt8](repeating: 0, count: ISO8601Writer.longest)
        var t: Int64 = -1_200_000_000  // 1931: Amsterdam's +00:19:32 among them
        var written = 0
        for _ in 0..<20_000 {
            // Mostly small steps either way, sometimes a leap of years.
            t += random.next(0...9) == 0 ? random.next(-400_000_000...400_000_000) : random.next(-200_000...400_000)
            t = min(max(t, -1_500_000_000), 4_000_000_000)
            let instant = Instant(seconds: t)
            let result = buffer.withUnsafeMutableBufferPointer { writer.write(instant, to: $0.baseAddress!) }
            #expect(result.fits)
            #expect(String(decoding: buffer[0..<result.count], as: UTF8.self) == zone.iso8601(instant))
            written += 1
        }
        #expect(written == 20_000)
    }

    @Test(arguments: zones)
    func instantForAWallTimeIsItsFirstInstant(name: String) throws {
        let zone = try Zone(identifier: name)
        var random = Random(state: 0xD1B5_4A32_D192_ED03)
        var checked = 0
        for _ in 0..<20_000 {
            let wall = LocalDateTime(secondsSinceEpoch: random.next(-1_500_000_000...4_000_000_000))
            // Wall times in a gap have no instant; their rule has its own tests.
            guard let first = zone.instants(for: wall).first else { continue }
            #expect(zone.instant(for: wall) == first, "\(wall) in \(name)")
            checked += 1
        }
        #expect(checked > 19_000)
    }
}
