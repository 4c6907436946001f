import Testing
import TrackeeCore

@testable import TrackeeLocation

/// Long generated feeds, decoded in one go: counts and ends exact. Speed is
/// measured by the benchmark, not here.
@Suite("Feeds: long inputs")
struct BulkFeedTests {
    static let start = Feed.utc(2026, 11, 23, 0, 0, 0)

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    static func four(_ n: Int) -> String { String(repeating: "0", count: 4 - String(n).count) + String(n) }

    @Test func twoHundredThousandNMEALines() {
        var lines: [[UInt8]] = []
        lines.reserveCapacity(200_000)
        for i in 0..<100_000 {
            let time = Self.start + Int64(i)
            let clock = Zone.utc.localDateTime(time)
            let hms = Self.two(clock.hour) + Self.two(clock.minute) + Self.two(clock.second) + ".00"
            let date = Self.two(clock.date.day) + Self.two(clock.date.month) + Self.two(clock.date.year % 100)
            let lat = "50\(Self.two(i % 60)).\(Self.four(i % 10_000))"
            lines.append(Array(Feed.nmea("GPRMC,\(hms),A,\(lat),N,01425.0000,E,0.5,90.0,\(date),,,A").utf8))
            lines.append(Array(Feed.nmea("GPGGA,\(hms),\(lat),N,01425.0000,E,1,10,0.9,245.0,M,45.0,M,,").utf8))
        }
        let items = Feed.decode(lines: lines, .nmea, now: Feed.now + 86_400)
        #expect(items.count == 100_000)
        #expect(items.first == Feed.fix(Self.start, 50, 14 + 25.0 / 60, 4.5))
        #expect(items.last == Feed.fix(Self.start + 99_999, 50 + 399_999.0 / 600_000, 14 + 25.0 / 60, 4.5))
        #expect(items.allSatisfy { if case .fix = $0 { true } else { false } })
    }

    @Test func oneHundredThousandJSONLines() {
        var lines: [[UInt8]] = []
        lines.reserveCapacity(100_000)
        for i in 0..<100_000 {
            let time = Self.start + Int64(i)
            let lat = 50 + Double(i % 1000) / 1e4
            let lon = 14.4 + Double(i % 777) / 1e4
            let line: String
            if i % 10 == 9 {
                line = #"{"class":"SKY","device":"/dev/ttyACM0","satellites":[{"PRN":1,"el":40.0,"used":true}]}"#
            } else if i % 2 == 0 {
                line = #"{"class":"TPV","mode":3,"time":"\#(Zone.utc.iso8601(time))","lat":\#(lat),"lon":\#(lon),"eph":\#(3 + i % 20)}"#
            } else {
                line = #"{"_type":"location","lat":\#(lat),"lon":\#(lon),"tst":\#(time.seconds),"acc":\#(i % 30)}"#
            }
            lines.append(Array(line.utf8))
        }
        let items = Feed.decode(lines: lines, .auto, now: Feed.now + 86_400)
        #expect(items.count == 90_000)
        #expect(items.first == Feed.fix(Self.start, 50, 14.4, 3))
        #expect(items.last == Feed.fix(Self.start + 99_998, 50 + 998 / 1e4, 14.4 + Double(99_998 % 777) / 1e4, Double(3 + 99_998 % 20)))
        #expect(items.allSatisfy { if case .fix = $0 { true } else { false } })
    }
}
