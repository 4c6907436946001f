import Foundation
import Testing
import TrackeeTestSupport

/// A receiver in simulator mode or dead reckoning, end to end through
/// `trackee feed`: its fixes move nobody and are counted under their own
/// reasons, in the text and in `--json`.
@Suite struct FeedReceiverModeTests {
    /// One epoch at 08:0m:00 UTC on 2026-11-23, inside "home", GGA of
    /// `quality` then RMC of `status` and `mode`.
    static func epoch(minute: Int, quality: Int, status: String = "A", mode: String) -> String {
        let clock = "080\(minute)00.00"
        return FeedCommandTests.nmea("GPGGA,\(clock),5000.0000,N,01400.0000,E,\(quality),09,2.0,695.7,M,51.6,M,,") + "\n"
            + FeedCommandTests.nmea("GPRMC,\(clock),\(status),5000.0000,N,01400.0000,E,0.0,0.0,231126,2.5,W,\(mode)") + "\n"
    }

    /// Three minutes as a Garmin in simulator mode writes them (quality 8,
    /// status V, mode S), two dead reckoned, and an RMC alone with mode N.
    static let capture = [
        epoch(minute: 0, quality: 8, status: "V", mode: "S"),
        epoch(minute: 1, quality: 8, status: "V", mode: "S"),
        epoch(minute: 2, quality: 8, status: "V", mode: "S"),
        epoch(minute: 3, quality: 6, mode: "E"),
        epoch(minute: 4, quality: 6, mode: "E"),
        FeedCommandTests.nmea("GPRMC,080500.00,A,5000.0000,N,01400.0000,E,0.0,0.0,231126,2.5,W,N") + "\n",
    ].joined()

    @Test func simulatedAndDeadReckonedFixesAreCountedAndMoveNobody() throws {
        let t = try FeedCommandTests.sandbox()
        try t.write(Self.capture, to: "garmin.nmea")
        let r = try t.run("feed", "--rules", "rules.yaml", "garmin.nmea")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == """
            trackee: garmin.nmea:1: GGA fix quality is 8: the receiver is in simulator mode
            trackee: garmin.nmea:3: GGA fix quality is 8: the receiver is in simulator mode
            trackee: garmin.nmea:5: GGA fix quality is 8: the receiver is in simulator mode
            trackee: garmin.nmea:7: GGA fix quality is 6: the position is dead reckoned, not measured
            trackee: garmin.nmea:9: GGA fix quality is 6: the position is dead reckoned, not measured
            trackee: … and 1 more ignored line

            """)
        #expect(r.lines == [
            "read 11 lines, 0 fixes used, 6 ignored (dead reckoning 2, not a fix 1, simulator 3), 0 transitions, 0 rules fired",
        ])
        #expect(try FeedCommandTests().entries(t) == [])

        let json = try t.run("feed", "--json", "--strict", "--rules", "rules.yaml", "garmin.nmea")
        #expect(json.status == 65)
        #expect(try json.json() == parsedJSON("""
            {"lines": 11, "fixes": 5, "used": 0, "ignored": {"simulator": 3, "dead_reckoning": 2, "not_a_fix": 1},
             "transitions": 0, "fired": 0}
            """))
    }
}
