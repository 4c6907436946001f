import Testing
import TrackeeCore

@testable import TrackeeLocation

/// What a receiver says about its own fix: the NMEA mode indicator (RMC
/// since NMEA 2.3, one letter per satellite system in GNS), the GGA fix
/// quality and gpsd's TPV status. Simulated and dead-reckoned positions
/// move nobody; a mode of N is no fix.
@Suite("Feeds: receiver modes")
struct ReceiverModeTests {
    let t = Feed.utc(2026, 11, 23, 8, 57, 3)

    /// An RMC at 08:57:03.25 with `mode` (and NMEA 4.1's navigational status after it).
    static func rmc(mode: String, status: String = "A") -> String {
        Feed.nmea("GNRMC,085703.25,\(status),4807.500,N,01115.000,E,0.0,0.0,231126,,,\(mode),V")
    }

    static func gga(quality: String) -> String {
        Feed.nmea("GNGGA,085703.25,4807.500,N,01115.000,E,\(quality),08,0.9,545.4,M,46.9,M,,")
    }

    static func gns(mode: String) -> String {
        Feed.nmea("GNGNS,085703.25,4807.500,N,01115.000,E,\(mode),14,1.3,250.8,50.0,,,V")
    }

    static let simulator = FeedItem.ignored(.simulator, message: "the RMC mode indicator says S: the receiver is in simulator mode")

    @Test(arguments: ["A", "D", "P", "R", "F", "M"])
    func everyRMCModeOfAMeasuredFixIsTaken(mode: String) {
        #expect(Feed.decode(Self.rmc(mode: mode)) == [Feed.fix(t, ms: 250, 48.125, 11.25)])
    }

    @Test func rmcModeSIsASimulatorEvenWithStatusV() {
        #expect(Feed.decode(Self.rmc(mode: "S")) == [Self.simulator])
        // As Garmin receivers in simulator mode write it.
        #expect(Feed.decode(Self.rmc(mode: "S", status: "V")) == [Self.simulator])
    }

    @Test func rmcModeEIsDeadReckoning() {
        #expect(Feed.decode(Self.rmc(mode: "E")) == [
            .ignored(.deadReckoning, message: "the RMC mode indicator says E: the position is dead reckoned, not measured"),
        ])
    }

    @Test func rmcModeNIsNotAFixButStatusVSaysSoFirst() {
        #expect(Feed.decode(Self.rmc(mode: "N")) == [
            .ignored(.notAFix, message: "the RMC mode indicator says N (not valid)"),
        ])
        #expect(Feed.decode(Self.rmc(mode: "N", status: "V")) == [.ignored(.notAFix, message: "RMC status is V (no fix)")])
    }

    @Test func anRMCWithoutAModeIndicatorIsTakenAsBefore() {
        #expect(Feed.decode(Feed.nmea("GPRMC,085703.25,A,4807.500,N,01115.000,E,,,231126,,")) == [Feed.fix(t, ms: 250, 48.125, 11.25)])
    }

    @Test func ggaQualityEightIsASimulatorAndSixDeadReckoning() {
        let rmc = Self.rmc(mode: "A")
        #expect(Feed.decode(Self.gga(quality: "8") + "\n" + rmc) == [
            .ignored(.simulator, message: "GGA fix quality is 8: the receiver is in simulator mode"),
        ])
        #expect(Feed.decode(Self.gga(quality: "6") + "\n" + rmc) == [
            .ignored(.deadReckoning, message: "GGA fix quality is 6: the position is dead reckoned, not measured"),
        ])
        // Qualities 1–5 and 7 are fixes, with the GGA's HDOP.
        for quality in ["1", "2", "3", "4", "5", "7"] {
            #expect(Feed.decode(Self.gga(quality: quality) + "\n" + rmc) == [Feed.fix(t, ms: 250, 48.125, 11.25, 4.5)], "quality \(quality)")
        }
    }

    @Test func aSimulatorOutranksDeadReckoningWhicheverSentenceComesFirst() {
        let both = [Self.gga(quality: "6"), Self.rmc(mode: "S")]
        #expect(Feed.decode(both.joined(separator: "\n")) == [Self.simulator])
        #expect(Feed.decode(both.reversed().joined(separator: "\n")) == [Self.simulator])
    }

    @Test func gnsGivesAFixWhenAnySystemMeasuredOne() {
        let rmc = Self.rmc(mode: "A")
        // HDOP 1.3: accuracy 6.5 m.
        #expect(Feed.decode(Self.gns(mode: "AANN") + "\n" + rmc) == [Feed.fix(t, ms: 250, 48.125, 11.25, 6.5)])
        #expect(Feed.decode(Self.gns(mode: "NDE") + "\n" + rmc) == [Feed.fix(t, ms: 250, 48.125, 11.25, 6.5)])
    }

    @Test func gnsWithAnySIsASimulatorOnlyEIsDeadReckoningAllNIsNoFix() {
        let rmc = Self.rmc(mode: "A")
        #expect(Feed.decode(Self.gns(mode: "ASN") + "\n" + rmc) == [
            .ignored(.simulator, message: "the GNS mode indicator says S: the receiver is in simulator mode"),
        ])
        #expect(Feed.decode(Self.gns(mode: "ENN") + "\n" + rmc) == [
            .ignored(.deadReckoning, message: "the GNS mode indicator says E: the position is dead reckoned, not measured"),
        ])
        // A GNS without a fix leaves the RMC's position to be used.
        #expect(Feed.decode(Self.gns(mode: "NNNN") + "\n" + rmc) == [Feed.fix(t, ms: 250, 48.125, 11.25)])
        #expect(Feed.decode(Feed.nmea("GNGNS,085703.25,,,,,NNNN,00,,,0.0,,0000")) == [
            .ignored(.notAFix, message: "the GNS mode indicator says N (not valid)"),
        ])
    }

    @Test func aGNSFixBeforeAnyRMCHasNoDate() {
        #expect(Feed.decode(Self.gns(mode: "AA")) == [
            .ignored(.noDate, message: "the GNS fix at 08:57:03 UTC came before any RMC gave the date"),
        ])
    }

    @Test func gpsdStatusEightIsASimulatorAndFiveDeadReckoning() {
        func tpv(_ status: Int) -> String {
            #"{"class":"TPV","mode":3,"status":\#(status),"time":"2026-11-23T08:57:03.250Z","lat":48.125,"lon":11.25}"#
        }
        #expect(Feed.decode(tpv(8)) == [.ignored(.simulator, message: "gpsd TPV status is 8: the receiver is in simulator mode")])
        #expect(Feed.decode(tpv(5)) == [
            .ignored(.deadReckoning, message: "gpsd TPV status is 5: the position is dead reckoned, not measured"),
        ])
        // GNSS with dead reckoning (6) is measured.
        #expect(Feed.decode(tpv(6)) == [Feed.fix(t, ms: 250, 48.125, 11.25)])
    }
}
