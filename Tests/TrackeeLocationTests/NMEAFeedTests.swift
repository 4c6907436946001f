import Testing
import TrackeeCore

@testable import TrackeeLocation

@Suite("Feeds: NMEA 0183")
struct NMEAFeedTests {
    static let rmc = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A"
    static let gga = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47"

    static func only(_ items: [FeedItem]) -> Fix? {
        guard items.count == 1, case .fix(let fix) = items[0] else { return nil }
        return fix
    }

    @Test func aSentenceWithItsChecksumGivesAFix() throws {
        let fix = try #require(Self.only(Feed.decode(Self.rmc)))
        #expect(fix.time == FixTime(Feed.utc(1994, 3, 23, 12, 35, 19)))
        #expect((fix.latitude * 1e7).rounded() == 481_173_000)  // 48° 7.038′
        #expect((fix.longitude * 1e7).rounded() == 115_166_667)  // 11° 31.000′
        #expect(fix.accuracy == nil)
    }

    @Test func aLowerCaseChecksumIsAsGood() {
        #expect(Feed.decode(Self.rmc.replacingLastTwo("6a")) == Feed.decode(Self.rmc))
    }

    @Test func aWrongOrMissingChecksumIsRefused() {
        #expect(Feed.decode(Self.rmc.replacingLastTwo("6B")) == [
            .ignored(.checksum, message: "NMEA checksum is 6A, the sentence says 6B"),
        ])
        #expect(Feed.decode(String(Self.rmc.dropLast(3))) == [
            .ignored(.checksum, message: "the NMEA sentence has no checksum (*hh at its end)"),
        ])
        #expect(Feed.decode(Self.rmc.replacingLastTwo("ZZ")) == [
            .ignored(.checksum, message: "the NMEA checksum \"ZZ\" is not two hex digits"),
        ])
        // One flipped byte in the middle.
        #expect(Feed.decode(Self.rmc.replacingOccurrences("4807.038", "4807.039")) == [
            .ignored(.checksum, message: "NMEA checksum is 6B, the sentence says 6A"),
        ])
    }

    @Test func everyHemisphereAndTheEdgesOfLongitude() {
        func position(_ lat: String, _ lon: String) -> FeedItem? {
            Feed.decode(Feed.nmea("GNRMC,085703,A,\(lat),\(lon),,,231126,,,A")).first
        }
        let t = Feed.utc(2026, 11, 23, 8, 57, 3)
        #expect(position("4807.500,N", "01115.000,E") == Feed.fix(t, 48.125, 11.25))
        #expect(position("3345.000,S", "15115.000,E") == Feed.fix(t, -33.75, 151.25))
        #expect(position("4045.000,N", "07407.500,W") == Feed.fix(t, 40.75, -74.125))
        #expect(position("0000.000,N", "00000.000,E") == Feed.fix(t, 0, 0))
        #expect(position("9000.000,S", "18000.000,E") == Feed.fix(t, -90, 180))
        #expect(position("6430.000,N", "18000.000,W") == Feed.fix(t, 64.5, -180))
    }

    @Test func impossibleCoordinatesAreRefused() {
        #expect(Feed.decode(Feed.nmea("GPRMC,085703,A,9100.000,N,01115.000,E,,,231126,,")) == [
            .ignored(.impossibleCoordinates, message: "latitude 91 is outside -90…90"),
        ])
        #expect(Feed.decode(Feed.nmea("GPRMC,085703,A,4807.500,N,20000.000,E,,,231126,,")) == [
            .ignored(.impossibleCoordinates, message: "longitude 200 is outside -180…180"),
        ])
        #expect(Feed.decode(Feed.nmea("GPRMC,085703,A,4860.000,N,01115.000,E,,,231126,,")) == [
            .ignored(.unreadable, message: "the RMC latitude field is unreadable"),
        ])
    }

    @Test func emptyFieldsAreNotAFixAndSaySo() {
        #expect(Feed.decode(Feed.nmea("GPRMC,085703,A,,,,,,,231126,,")) == [
            .ignored(.notAFix, message: "the RMC latitude field is empty"),
        ])
        #expect(Feed.decode(Feed.nmea("GPGGA,085703,4807.500,N,,E,1,08,0.9,545.4,M,46.9,M,,")) == [
            .ignored(.notAFix, message: "the GGA longitude field is empty"),
        ])
        #expect(Feed.decode(Feed.nmea("GPRMC,085703,A,4807.500,,01115.000,E,,,231126,,")) == [
            .ignored(.notAFix, message: "the RMC N/S or E/W field is empty"),
        ])
        #expect(Feed.decode(Feed.nmea("GPRMC,,V,,,,,,,,,")) == [
            .ignored(.noTime, message: "the RMC sentence has no time"),
        ])
    }

    @Test func rmcStatusVAndGGAQualityZeroAreNotFixes() {
        #expect(Feed.decode(Feed.nmea("GPRMC,085703,V,,,,,,,231126,,,N")) == [
            .ignored(.notAFix, message: "RMC status is V (no fix)"),
        ])
        #expect(Feed.decode([
            Feed.nmea("GPRMC,085703,A,4807.500,N,01115.000,E,,,231126,,"),
            Feed.nmea("GPGGA,085704,,,,,0,00,99.9,,M,,M,,"),
        ].joined(separator: "\n")) == [
            Feed.fix(Feed.utc(2026, 11, 23, 8, 57, 3), 48.125, 11.25),
            .ignored(.notAFix, message: "GGA fix quality is 0 (no fix)"),
        ])
        // Both in one epoch: one refusal, not two.
        #expect(Feed.decode([
            Feed.nmea("GPGGA,085703,,,,,0,00,99.9,,M,,M,,"),
            Feed.nmea("GPRMC,085703,V,,,,,,,231126,,,N"),
        ].joined(separator: "\n")) == [.ignored(.notAFix, message: "GGA fix quality is 0 (no fix)")])
    }

    @Test func rmcGGAAndGSTOfOneEpochAreOneFixWithTheGSTAccuracy() {
        let lines = [
            Feed.nmea("GNGGA,085703.00,4807.500,N,01115.000,E,1,12,0.9,545.4,M,46.9,M,,"),
            Feed.nmea("GNGSA,A,3,01,02,03,,,,,,,,,,1.5,0.9,1.2"),
            Feed.nmea("GPGSV,3,1,12,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45"),
            Feed.nmea("GNRMC,085703.00,A,4807.500,N,01115.000,E,0.0,0.0,231126,,,A"),
            Feed.nmea("GNVTG,,T,,M,0.0,N,0.0,K,A"),
            Feed.nmea("GNGST,085703.00,2.1,5.0,3.0,12.5,3.0,4.0,6.2"),
            Feed.nmea("PUBX,00,085703.00,4807.500,N"),
            // The next epoch: GGA and RMC, no GST, so HDOP × 5 m.
            Feed.nmea("GNRMC,085704.00,A,4807.750,N,01115.000,E,0.0,0.0,231126,,,A"),
            Feed.nmea("GNGGA,085704.00,4807.750,N,01115.000,E,2,12,1.2,545.4,M,46.9,M,,"),
            // The one after: RMC alone, no accuracy at all.
            Feed.nmea("GARMC,085705.00,A,4808.000,N,01115.000,E,0.0,0.0,231126,,,A"),
        ]
        let t = Feed.utc(2026, 11, 23, 8, 57, 3)
        #expect(Feed.decode(lines.joined(separator: "\n")) == [
            Feed.fix(t, 48.125, 11.25, 5),
            Feed.fix(t + 1, 48 + 7.75 / 60, 11.25, 1.2 * 5),
            Feed.fix(t + 2, 48 + 8.0 / 60, 11.25),
        ])
    }

    @Test func aFixAppearsWhenTheNextEpochBeginsOrAtTheEnd() {
        var decoder = FeedDecoder(format: .nmea, now: Feed.now)
        var items: [FeedItem] = []
        func feed(_ line: String) { Array(line.utf8).withUnsafeBufferPointer { decoder.line($0, number: 1, into: &items) } }
        feed(Feed.nmea("GPRMC,085703,A,4807.500,N,01115.000,E,,,231126,,"))
        feed(Feed.nmea("GPGGA,085703,4807.500,N,01115.000,E,1,08,0.9,545.4,M,46.9,M,,"))
        #expect(items.isEmpty)
        feed(Feed.nmea("GPRMC,085704,A,4807.500,N,01115.000,E,,,231126,,"))
        #expect(items.count == 1)
        decoder.finish(into: &items)
        #expect(items.count == 2)
    }

    @Test func aGGABeforeAnyRMCHasNoDateUnlessItsOwnEpochHasOne() {
        let gga = Feed.nmea("GPGGA,085703,4807.500,N,01115.000,E,1,08,0.9,545.4,M,46.9,M,,")
        #expect(Feed.decode(gga) == [
            .ignored(.noDate, message: "the GGA fix at 08:57:03 UTC came before any RMC gave the date"),
        ])
        let rmc = Feed.nmea("GPRMC,085703,A,4807.500,N,01115.000,E,,,231126,,")
        #expect(Feed.decode(gga + "\n" + rmc) == [Feed.fix(Feed.utc(2026, 11, 23, 8, 57, 3), 48.125, 11.25, 4.5)])
    }

    @Test func aGGAAfterMidnightRollsTheDateOver() {
        let lines = [
            Feed.nmea("GPRMC,235959,A,4807.500,N,01115.000,E,,,231126,,"),
            Feed.nmea("GPGGA,000000,4807.500,N,01115.000,E,1,08,1.0,545.4,M,46.9,M,,"),
            Feed.nmea("GPGGA,000001,4807.500,N,01115.000,E,1,08,1.0,545.4,M,46.9,M,,"),
            // A straggler from before midnight stays on the 23rd.
            Feed.nmea("GPGGA,235958,4807.500,N,01115.000,E,1,08,1.0,545.4,M,46.9,M,,"),
            Feed.nmea("GPRMC,000002,A,4807.500,N,01115.000,E,,,241126,,"),
        ]
        let midnight = Feed.utc(2026, 11, 24, 0, 0, 0)
        #expect(Feed.decode(lines.joined(separator: "\n")) == [
            Feed.fix(midnight - 1, 48.125, 11.25),
            Feed.fix(midnight, 48.125, 11.25, 5),
            Feed.fix(midnight + 1, 48.125, 11.25, 5),
            Feed.fix(midnight - 2, 48.125, 11.25, 5),
            Feed.fix(midnight + 2, 48.125, 11.25),
        ])
    }

    @Test func aTimeMoreThanADayAheadIsFuture() {
        #expect(Feed.decode(Feed.nmea("GPRMC,120001,A,4807.500,N,01115.000,E,,,241126,,")) == [
            .ignored(.future, message: "the time 2026-11-24T12:00:01Z is more than a day after now (2026-11-23T12:00:00Z)"),
        ])
        #expect(Feed.decode(Feed.nmea("GPRMC,120000,A,4807.500,N,01115.000,E,,,241126,,")).count == 1)
    }

    @Test func sentencesTrackeeDoesNotReadGiveNothingEvenWithABadChecksum() {
        let lines = [
            "$GPGSV,3,1,12,01,40,083,46*00",
            "$GPGSA,A,3,01,02*00",
            "$GPVTG,,T,,M,0.0,N*00",
            "$PGRME,15.0,M,45.0,M,25.0,M*00",
        ]
        #expect(Feed.decode(lines.joined(separator: "\n"), .nmea) == [])
        #expect(Feed.decode("$garbage here") == [.ignored(.unreadable, message: "\"$garbage here\" is not an NMEA sentence")])
        #expect(Feed.decode("$GPRM") == [.ignored(.unreadable, message: "\"$GPRM\" is not an NMEA sentence")])
    }
}

extension String {
    func replacingLastTwo(_ with: String) -> String { String(dropLast(2)) + with }

    func replacingOccurrences(_ of: String, _ with: String) -> String {
        split(separator: of, omittingEmptySubsequences: false).joined(separator: with)
    }
}
