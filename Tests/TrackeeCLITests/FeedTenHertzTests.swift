import Foundation
import Testing
import TrackeeTestSupport

/// A receiver that reports ten fixes a second, end to end through
/// `trackee feed`: every fix newer to the millisecond is used, a repeated
/// or late epoch is a duplicate or out of order, a dwell ends between two
/// whole seconds, and the store keeps the milliseconds across runs.
///
/// The receiver (GGA then RMC, NMEA 4.1, hundredths of a second) starts
/// 1.1 km north of "home" at 08:02:59.05 UTC and is inside from
/// 08:03:00.35; the rule waits two seconds, so the arrive holds at the fix
/// of 08:03:02.35, between the whole seconds 02 and 03.
@Suite struct FeedTenHertzTests {
    static let rules = """
        places:
          home: {lat: 50.0, lon: 14.0, radius: 100}
        rules:
          - id: arrive
            when: {arrive: home, for: 2s}
            do: [{start: {project: Home}}]
        """

    /// One epoch: hundredths of a second after 08:02:59.00 UTC on 2026-11-23.
    static func epoch(_ hundredths: Int) -> String {
        let total = 8 * 360_000 + 2 * 6000 + 59 * 100 + hundredths
        let clock = two(total / 360_000) + two(total / 6000 % 60) + two(total / 100 % 60) + "." + two(total % 100)
        let latitude = hundredths >= 135 ? "5000.0000" : "5000.6000"
        return FeedCommandTests.nmea("GNGGA,\(clock),\(latitude),N,01400.0000,E,1,12,2.0,200.0,M,45.0,M,,") + "\n"
            + FeedCommandTests.nmea("GNRMC,\(clock),A,\(latitude),N,01400.0000,E,0.0,0.0,231126,,,A,V") + "\n"
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// Epochs every tenth of a second from 08:02:59.05 to 08:03:02.25
    /// (33), with 08:02:59.15 sent again after 08:02:59.25 (out of order)
    /// and then 08:02:59.25 again (a duplicate).
    static let firstCapture: String = {
        var epochs = Array(stride(from: 5, through: 325, by: 10))
        epochs.insert(contentsOf: [15, 25], at: 3)
        return epochs.map(epoch).joined()
    }()

    /// 08:03:02.35 to 08:03:02.95: the first of them completes the dwell.
    static let secondCapture = stride(from: 335, through: 395, by: 10).map(epoch).joined()

    @Test func everyNewerFixIsUsedAndTheDwellEndsBetweenWholeSeconds() throws {
        let t = try FeedCommandTests.sandbox(rules: Self.rules)
        try t.write(Self.firstCapture, to: "first.nmea")
        try t.write(Self.secondCapture, to: "second.nmea")

        // 08:03:02.25 is 1.9 s after 08:03:00.35: the dwell is not over,
        // though whole seconds (02 − 00) would call it two, so no rule
        // has seen a transition yet.
        let first = try t.run("feed", "--json", "--rules", "rules.yaml", "first.nmea")
        #expect(first.status == 0, "\(first)")
        #expect(first.stderr == "")
        #expect(try first.json() == parsedJSON("""
            {"lines": 70, "fixes": 35, "used": 33, "ignored": {"duplicate": 1, "out_of_order": 1},
             "transitions": 0, "fired": 0}
            """))
        #expect(try FeedCommandTests().entries(t) == [])

        // The candidate kept in the store began at .35, so the fix of
        // 08:03:02.35 completes it. The transition shows the fix's own time;
        // the rule fires at its whole second.
        let second = try t.run("feed", "--rules", "rules.yaml", "second.nmea")
        #expect(second.status == 0, "\(second)")
        #expect(second.stderr == "")
        #expect(second.lines == [
            "2026-11-23T09:03:00.350+01:00  arrive home, accuracy 10 m",
            #"fired arrive at 2026-11-23T09:03:00+01:00: started Home (created project "Home")"#,
            "read 14 lines, 7 fixes used, 0 ignored, 1 transition, 1 rule fired",
        ])
        #expect(try FeedCommandTests().entries(t) == parsedJSON("""
            [{"id": 1, "project": "Home", "description": "", "tags": [], "billable": false,
              "start": "2026-11-23T09:03:00+01:00", "duration_seconds": 10620, "running": true, "source": "rule:arrive"}]
            """))
        // 2026-11-23T08:03:00Z is 1795420980.
        #expect(try FeedCommandTests().rows(t.storePath, """
            SELECT arrive_dwell, leave_dwell, state = 'inside', since, since_ms, candidate IS NULL, last_fix, last_fix_ms
            FROM place_tracker ORDER BY arrive_dwell
            """) == [
            ["0", "0", "1", "1795420980", "350", "1", "1795420982", "950"],
            ["2", "2", "1", "1795420980", "350", "1", "1795420982", "950"],
        ])

        // Fed again, every fix is one an earlier run took.
        let again = try t.run("feed", "--rules", "rules.yaml", "second.nmea")
        #expect(again.lines == ["read 14 lines, 0 fixes used, 7 ignored (stale 7), 0 transitions, 0 rules fired"])
    }
}
