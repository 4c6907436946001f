import Foundation
import Testing
import TrackeeTestSupport

/// A regular file of 4 MB or more is decoded on a second thread
/// (`FeedReadAhead`); the same bytes through a pipe are read line by line
/// on one. Both must say exactly the same: the same transitions in the same
/// order, the same warnings with the same line numbers, the same counts.
@Suite struct FeedReadAheadTests {
    static let rules = """
        places:
          home: {lat: 50.0, lon: 14.0, radius: 100}
        rules:
          - id: arrive
            when: {arrive: home}
            do: [{start: {project: Home}}]
          - id: leave
            when: {leave: home}
            do: [stop]
        """

    /// 36,000 epochs (GGA then RMC) a second apart from 08:00:00 UTC on
    /// 2026-11-23, inside "home" for the second 5,000 of every 10,000 and
    /// 1.1 km north of it otherwise; three broken lines at known places.
    static let capture: String = {
        var lines: [String] = []
        lines.reserveCapacity(60_010)
        for second in 0..<36_000 {
            let clock = two(8 + second / 3600) + two(second / 60 % 60) + two(second % 60) + ".00"
            let latitude = (second / 5000) % 2 == 1 ? "5000.0000" : "5000.6000"
            lines.append(FeedCommandTests.nmea("GNGGA,\(clock),\(latitude),N,01400.0000,E,1,12,1.0,200.0,M,45.0,M,,"))
            lines.append(FeedCommandTests.nmea("GNRMC,\(clock),A,\(latitude),N,01400.0000,E,0.0,0.0,231126,,,A,V"))
            // Lines 10,001, 40,002 and 59,003.
            if second == 4999 { lines.append("$GNGGA,092320.00,5000.0000,N*00") }
            if second == 19_999 { lines.append("not a sentence") }
            if second == 29_499 { lines.append(FeedCommandTests.nmea("GNRMC,,A,5000.0000,N,01400.0000,E,0.0,0.0,231126,,,A,V")) }
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    @Test func aLargeFileSaysWhatTheSameBytesThroughAPipeSay() throws {
        let t = try Sandbox(now: "2026-11-23 12:00")
        try t.write(Self.rules, to: "rules.yaml")
        try t.write(Self.capture, to: "big.nmea")
        #expect(try t.bytes(t.path("big.nmea")).count > 4 << 20)

        for options in [["--dry-run"], ["--dry-run", "--json"]] {
            let file = try t.run(["feed", "--rules", "rules.yaml"] + options + ["big.nmea"])
            let piped = try t.run(["feed", "--rules", "rules.yaml"] + options,
                                  via: ["/bin/sh", "-c", "cat big.nmea | \"$0\" \"$@\""])
            #expect(file.status == 0)
            #expect(file.stdout == piped.stdout)
            // The pipe's warnings name it "stdin".
            #expect(file.stderr == piped.stderr.replacingOccurrences(of: "trackee: stdin:", with: "trackee: big.nmea:"))
            #expect(file.status == piped.status)
        }
        let text = try t.run("feed", "--rules", "rules.yaml", "--dry-run", "big.nmea")
        #expect(text.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("trackee: big.nmea:") } == [
            "trackee: big.nmea:10001: NMEA checksum is 25, the sentence says 00",
            "trackee: big.nmea:40002: the line is of no known format (NMEA, gpsd or OwnTracks JSON, or CSV time,lat,lon)",
            "trackee: big.nmea:59003: the RMC sentence has no time",
        ])
        // Seven crossings, in at 5,000 s, out at 10,000 s and so on, each a
        // transition line and a firing line.
        #expect(text.stdout.components(separatedBy: "\n").filter { $0.contains("arrive") || $0.contains("leave") }.count == 14)
        let json = try t.run("feed", "--rules", "rules.yaml", "--dry-run", "--json", "big.nmea")
        #expect(json.stdout == """
            {"fired":7,"fixes":36000,"ignored":{"checksum":1,"no_time":1,"unreadable":1},"lines":72003,"transitions":7,"used":36000}

            """)
    }
}
