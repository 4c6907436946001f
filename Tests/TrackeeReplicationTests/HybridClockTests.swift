import Testing
import TrackeeCore
import TrackeeTestSupport

/// The hybrid logical clock, as properties over seeded random runs: stamps
/// never go backwards on a device, a received change is always followed,
/// every device orders all stamps the same way, and a stamp more than a
/// day ahead is refused without touching the clock.
@Suite struct HybridClockTests {
    static let nine: Int64 = 1_795_165_200_000

    @Test func stampsFollowTheWallClockAndCountWithinAMillisecond() throws {
        var clock = HybridClock(device: "laptop")
        #expect(try clock.stamp(physical: Self.nine) == HybridStamp(wall: Self.nine, counter: 0, device: "laptop"))
        #expect(try clock.stamp(physical: Self.nine) == HybridStamp(wall: Self.nine, counter: 1, device: "laptop"))
        // The wall clock jumps back an hour: the stamps still go forward.
        #expect(try clock.stamp(physical: Self.nine - 3_600_000) == HybridStamp(wall: Self.nine, counter: 2, device: "laptop"))
        #expect(try clock.stamp(physical: Self.nine + 5) == HybridStamp(wall: Self.nine + 5, counter: 0, device: "laptop"))
    }

    @Test func aDeviceBehindStampsAfterWhatItReceived() throws {
        var desktop = HybridClock(device: "desktop")
        // The laptop's clock is right; the desktop's is three hours slow.
        let fromLaptop = HybridStamp(wall: Self.nine, counter: 4, device: "laptop")
        try desktop.receive(fromLaptop, physical: Self.nine - 3 * 3_600_000)
        let next = try desktop.stamp(physical: Self.nine - 3 * 3_600_000 + 1)
        #expect(next == HybridStamp(wall: Self.nine, counter: 6, device: "desktop"))
        #expect(next > fromLaptop)
    }

    @Test func aStampMoreThanADayAheadIsRefusedAndChangesNothing() throws {
        var clock = HybridClock(device: "laptop")
        _ = try clock.stamp(physical: Self.nine)
        let before = clock.last
        let ahead = HybridStamp(wall: Self.nine + HybridClock.maximumLead + 1, counter: 0, device: "phone")
        #expect(throws: HybridClock.Refusal.tooFarAhead(ahead, localWall: Self.nine)) {
            try clock.receive(ahead, physical: Self.nine)
        }
        #expect(clock.last == before)
        #expect("\(HybridClock.Refusal.tooFarAhead(ahead, localWall: Self.nine))"
                == "a change from phone is stamped 24.0 hours ahead of this device's clock (more than a day); "
                    + "check the clock of phone or of this device")
        // Exactly a day ahead is still taken.
        try clock.receive(HybridStamp(wall: Self.nine + HybridClock.maximumLead, counter: 0, device: "phone"), physical: Self.nine)
        #expect(clock.last == HybridStamp(wall: Self.nine + HybridClock.maximumLead, counter: 1, device: "laptop"))
    }

    @Test func theTextSortsAsTheStampsDoAndReadsBack() throws {
        let stamp = HybridStamp(wall: Self.nine, counter: 3, device: "laptop")
        #expect("\(stamp)" == "0001795165200000-00003-laptop")
        #expect(HybridStamp("\(stamp)") == stamp)
        for bad in ["", "1795165200000-00003-laptop", "0001795165200000-3-laptop", "0001795165200000-00003-my laptop",
                    "000179516520000x-00003-laptop"] {
            #expect(HybridStamp(bad) == nil, "\(bad)")
        }
        var random = SeededGenerator(seed: 21)
        let devices = ["laptop", "desktop", "phone", "a", "laptop2"]
        let stamps = (0..<500).map { _ in
            HybridStamp(wall: Self.nine + Int64(random.int(-2...2)),
                        counter: Int32(random.int(0...3)),
                        device: random.pick(devices))
        }
        #expect(stamps.sorted().map(\.description) == stamps.map(\.description).sorted())
    }

    /// Three devices with clocks off by up to three hours (and jumping
    /// back now and then) make changes and pass them around at random: on
    /// each device every stamp is after the ones before it and after
    /// everything it received, and no two changes share a stamp.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func stampsStayOrderedAcrossDevicesWithSkewedClocks(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let skews: [Int64] = [0, -3 * 3_600_000, 2 * 3_600_000 + 17]
        var clocks = ["laptop", "desktop", "phone"].map { HybridClock(device: $0) }
        var made: [[HybridStamp]] = [[], [], []]
        var inbox: [[HybridStamp]] = [[], [], []]
        var now = Self.nine
        for round in 0..<2_000 {
            now += Int64(random.int(0...3))
            let i = random.int(0...2)
            var physical = now + skews[i]
            if random.int(0...49) == 0 { physical -= 60_000 }
            if let remote = inbox[i].popLast() {
                let before = clocks[i].last
                try clocks[i].receive(remote, physical: physical)
                #expect(clocks[i].last > before, "seed \(seed) round \(round)")
                #expect(clocks[i].last > remote, "seed \(seed) round \(round)")
            }
            let stamp = try clocks[i].stamp(physical: physical)
            if let previous = made[i].last { #expect(stamp > previous, "seed \(seed) round \(round)") }
            made[i].append(stamp)
            inbox[(i + 1 + random.int(0...1)) % 3].append(stamp)
        }
        let all = made.flatMap { $0 }
        #expect(Set(all).count == all.count, "seed \(seed)")
        // A clock three hours fast pulls the others ahead, but never past
        // its own clock: no stamp is later than the fastest physical clock.
        #expect(all.map(\.wall).max()! <= now + skews.max()!, "seed \(seed)")
    }
}
