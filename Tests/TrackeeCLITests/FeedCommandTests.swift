import Foundation
import GRDB
import Glibc
import Testing
import TrackeeTestSupport

/// Location end to end, against the built binary: `trackee feed` on every
/// format, its counts, warnings and exit statuses, replays and a feed
/// killed half way; `--dry-run`; `trackee places`; `simulate --feed`; fix
/// lines on `trackee run`'s stdin; and the `place:` condition.
///
/// Every sandbox is in Europe/Prague (UTC+1 in November). The walk goes
/// into the place "home" at 08:03 UTC (09:03 local) and out of it at 08:10
/// UTC (09:10 local); the rules wait two minutes either way.
@Suite struct FeedCommandTests {
    static let rules = rules(dwell: "2m")

    /// Home, and rules that start "Home" on arriving and stop on leaving,
    /// each after `dwell`.
    static func rules(dwell: String) -> String {
        """
        places:
          home: {lat: 50.0, lon: 14.0, radius: 100}
        rules:
          - id: arrive
            when: {arrive: home, for: \(dwell)}
            do: [{start: {project: Home}}]
          - id: leave
            when: {leave: home, for: \(dwell)}
            do: [{stop: }]
        """
    }

    /// A sandbox at noon on Monday 2026-11-23 with `rules` in rules.yaml.
    static func sandbox(rules: String = rules, now: String = "2026-11-23 12:00") throws -> Sandbox {
        let t = try Sandbox(now: now)
        try t.write(rules, to: "rules.yaml")
        return t
    }

    // MARK: The walk

    /// One fix: a UTC time of day on 2026-11-23, in or far out of "home".
    struct Point {
        var time: String
        var inside: Bool
        /// 1.1 km north of the place when outside.
        var latitude: Double { inside ? 50.0 : 50.01 }
        var epoch: Int { Self.epoch(time) }

        /// Seconds since 1970 of `HH:MM` or `HH:MM:SS` UTC on 2026-11-23.
        static func epoch(_ time: String) -> Int {
            let parts = time.split(separator: ":").map { Int($0)! }
            // 2026-11-23T00:00:00Z.
            return 1_795_392_000 + parts[0] * 3600 + parts[1] * 60 + (parts.count > 2 ? parts[2] : 0)
        }

        var iso: String { time.count == 5 ? "2026-11-23T\(time):00Z" : "2026-11-23T\(time)Z" }
    }

    /// Three minutes out, four in, four out again, a fix a minute.
    static let walk: [Point] = [
        Point(time: "08:00", inside: false), Point(time: "08:01", inside: false), Point(time: "08:02", inside: false),
        Point(time: "08:03", inside: true), Point(time: "08:04", inside: true), Point(time: "08:05", inside: true),
        Point(time: "08:06", inside: true),
        Point(time: "08:10", inside: false), Point(time: "08:11", inside: false), Point(time: "08:12", inside: false),
        Point(time: "08:13", inside: false),
    ]

    /// `$BODY*hh` with the right checksum.
    static func nmea(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0), ^)
        let digits = Array("0123456789ABCDEF")
        return "$\(body)*\(digits[Int(sum >> 4)])\(digits[Int(sum & 15)])"
    }

    /// The walk as each source writes it, every fix 10 m accurate.
    enum Recording: String, CaseIterable, CustomStringConvertible {
        case csv, nmea, gpsd, owntracks, mosquitto, gpx

        var description: String { rawValue }

        /// What `--format` names it.
        var format: String { self == .mosquitto ? "owntracks" : rawValue }

        func text(_ points: [Point]) -> String {
            switch self {
            case .csv:
                return "time,lat,lon,accuracy\n" + points.map { "\($0.iso),\($0.latitude),14.0,10\n" }.joined()
            case .nmea:
                // A satellites sentence (not read), then per epoch an RMC for
                // the date and a GGA whose HDOP 2.0 makes 10 m.
                return FeedCommandTests.nmea("GPGSV,1,1,01,05,40,083,46") + "\n" + points.map { p in
                    let clock = p.time.replacingOccurrences(of: ":", with: "") + "00.00"
                    let lat = p.inside ? "5000.0000" : "5000.6000"
                    return FeedCommandTests.nmea("GPRMC,\(clock),A,\(lat),N,01400.0000,E,0.0,0.0,231126,,,A") + "\n"
                        + FeedCommandTests.nmea("GPGGA,\(clock),\(lat),N,01400.0000,E,1,08,2.0,200.0,M,45.0,M,,") + "\n"
                }.joined()
            case .gpsd:
                return #"{"class":"VERSION","release":"3.25","rev":"3.25","proto_major":3,"proto_minor":15}"# + "\n"
                    + points.map { p in
                        #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"\#(p.iso)","lat":\#(p.latitude),"lon":14.0,"eph":10.0}"#
                            + "\n"
                    }.joined()
                    + #"{"class":"SKY","device":"/dev/ttyACM0","satellites":[]}"# + "\n"
            case .owntracks:
                return #"{"_type":"lwt","tst":1795420000}"# + "\n" + points.map { p in
                    #"{"_type":"location","lat":\#(p.latitude),"lon":14.0,"tst":\#(p.epoch),"acc":10,"tid":"an"}"# + "\n"
                }.joined()
            case .mosquitto:
                return #"owntracks/ann/phone/lwt {"_type":"lwt","tst":1795420000}"# + "\n" + points.map { p in
                    #"owntracks/ann/phone {"_type":"location","lat":\#(p.latitude),"lon":14.0,"tst":\#(p.epoch),"acc":10}"# + "\n"
                }.joined()
            case .gpx:
                return """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
                    <trk><trkseg>

                    """
                    + points.map { #"<trkpt lat="\#($0.latitude)" lon="14.0"><time>\#($0.iso)</time><hdop>2</hdop></trkpt>"# + "\n" }.joined()
                    + "</trkseg></trk>\n</gpx>\n"
            }
        }

        /// The lines of the whole walk's file.
        var lines: Int {
            switch self {
            case .csv, .owntracks, .mosquitto: 12
            case .nmea: 23
            case .gpsd: 13
            case .gpx: 16
            }
        }
    }

    /// What feeding the whole walk prints.
    static func walkOutput(lines: Int) -> [String] {
        [
            "2026-11-23T09:03:00+01:00  arrive home, accuracy 10 m",
            #"fired arrive at 2026-11-23T09:03:00+01:00: started Home (created project "Home")"#,
            "2026-11-23T09:10:00+01:00  leave home, accuracy 10 m",
            "fired leave at 2026-11-23T09:10:00+01:00: stopped Home",
            "read \(lines) lines, 11 fixes used, 0 ignored, 2 transitions, 2 rules fired",
        ]
    }

    /// The one entry the walk makes: from the first fix inside to the
    /// first fix outside, not from when the two minutes were up.
    static let walkEntry = """
        [{"id": 1, "project": "Home", "description": "", "tags": [], "billable": false,
          "start": "2026-11-23T09:03:00+01:00", "end": "2026-11-23T09:10:00+01:00", "duration_seconds": 420,
          "running": false, "source": "rule:arrive"}]
        """

    func entries(_ t: Sandbox) throws -> JSONValue { try t.loggedEntries(at: t.now) }

    /// `trackee places --rules rules.yaml`, checked to succeed.
    func places(_ t: Sandbox, json: Bool = false) throws -> TrackeeRun {
        let r = try t.run(["places", "--rules", "rules.yaml"] + (json ? ["--json"] : []))
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        return r
    }

    /// Arrive for 2m and leave for 5m share one view of the place: a
    /// three-minute visit starts the timer, and five minutes out stops it
    /// at the first fix outside.
    @Test func aShortVisitWithALongerLeaveDwellIsStoppedToo() throws {
        let rules = Self.rules(dwell: "2m").replacingOccurrences(of: "{leave: home, for: 2m}", with: "{leave: home, for: 5m}")
        let t = try Self.sandbox(rules: rules)
        let walk = Self.walk + ["08:14", "08:15", "08:16"].map { Point(time: $0, inside: false) }
        try t.write(Recording.csv.text(walk), to: "walk.csv")
        let r = try t.run("feed", "--rules", "rules.yaml", "walk.csv")
        #expect(r.status == 0, "\(r)")
        #expect(r.lines == [
            "2026-11-23T09:03:00+01:00  arrive home, accuracy 10 m",
            #"fired arrive at 2026-11-23T09:03:00+01:00: started Home (created project "Home")"#,
            "2026-11-23T09:10:00+01:00  leave home, accuracy 10 m",
            "fired leave at 2026-11-23T09:10:00+01:00: stopped Home",
            "read 15 lines, 14 fixes used, 0 ignored, 2 transitions, 2 rules fired",
        ])
        #expect(try entries(t) == parsedJSON(Self.walkEntry))
        // One tracker for the pair, besides the place's plain state.
        #expect(try rows(t.storePath, "SELECT place, arrive_dwell, leave_dwell, state FROM place_tracker ORDER BY 2")
                == [[#""home""#, "0", "0", #""outside""#], [#""home""#, "120", "300", #""outside""#]])
    }

    // MARK: Formats

    @Test(arguments: Recording.allCases)
    func eachFormatArrivesAtTheFirstFixInsideAndLeavesAtTheFirstFixOutside(_ recording: Recording) throws {
        let t = try Self.sandbox()
        let file = "walk.\(recording)"
        try t.write(recording.text(Self.walk), to: file)
        let r = try t.run("feed", "--rules", "rules.yaml", file)
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        #expect(r.lines == Self.walkOutput(lines: recording.lines))
        #expect(try entries(t) == parsedJSON(Self.walkEntry))

        // Named with --format instead of told apart line by line: the same.
        let named = try Self.sandbox()
        try named.write(recording.text(Self.walk), to: file)
        let n = try named.run("feed", "--rules", "rules.yaml", "--format", recording.format, file)
        #expect(n.status == 0, "\(n)")
        #expect(n.stderr == "")
        #expect(n.lines == Self.walkOutput(lines: recording.lines))
        #expect(try entries(named) == parsedJSON(Self.walkEntry))
    }

    @Test func standardInputIsReadWhenNoFileIsGiven() throws {
        let t = try Self.sandbox()
        let input = Pipe()
        let feed = try t.launch(["feed", "--rules", "rules.yaml"], input: input)
        defer { feed.stop() }
        input.fileHandleForWriting.write(Data(Recording.gpsd.text(Self.walk).utf8))
        try input.fileHandleForWriting.close()
        let r = try feed.wait()
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        #expect(r.lines == Self.walkOutput(lines: 13))
        #expect(try entries(t) == parsedJSON(Self.walkEntry))
    }

    @Test func ownTracksTransitionsFireOnlyTheRulesThatAskForThem() throws {
        let t = try Self.sandbox(rules: """
            places:
              home: {lat: 50.0, lon: 14.0, radius: 100}
            rules:
              - id: phone-arrive
                when: {arrive: home, source: owntracks}
                do: [{start: {project: Home}}]
              - id: phone-leave
                when: {leave: home, source: owntracks}
                do: [{stop: }]
            """)
        // The phone enters home at 08:03 and leaves at 08:10; its "gym"
        // region is no place of the rules; its own fixes move trackee's
        // geofence, which no rule here waits for.
        let e = Point.epoch
        try t.write("""
            {"_type":"location","lat":50.01,"lon":14.0,"tst":\(e("08:00")),"acc":10}
            {"_type":"transition","event":"enter","desc":"home","lat":50.0,"lon":14.0,"tst":\(e("08:03")),"acc":12,"wtst":1795000000}
            {"_type":"transition","event":"leave","desc":"gym","lat":50.0,"lon":14.0,"tst":\(e("08:04")),"acc":12,"wtst":1795000000}
            {"_type":"location","lat":50.0,"lon":14.0,"tst":\(e("08:05")),"acc":10}
            {"_type":"transition","event":"leave","desc":"home","lat":50.01,"lon":14.0,"tst":\(e("08:10")),"acc":20,"wtst":1795000000}

            """, to: "phone.json")
        let r = try t.run("feed", "--rules", "rules.yaml", "phone.json")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        #expect(r.lines == [
            "2026-11-23T09:03:00+01:00  arrive home (OwnTracks), accuracy 12 m",
            #"fired phone-arrive at 2026-11-23T09:03:00+01:00: started Home (created project "Home")"#,
            // The arrive of trackee's geofence at 09:05 is no transition:
            // no rule waits for it.
            "2026-11-23T09:10:00+01:00  leave home (OwnTracks), accuracy 20 m",
            "fired phone-leave at 2026-11-23T09:10:00+01:00: stopped Home",
            "read 5 lines, 4 fixes used, 1 ignored (unused 1), 2 transitions, 2 rules fired",
        ])
        #expect(try entries(t) == parsedJSON("""
            [{"id": 1, "project": "Home", "description": "", "tags": [], "billable": false,
              "start": "2026-11-23T09:03:00+01:00", "end": "2026-11-23T09:10:00+01:00", "duration_seconds": 420,
              "running": false, "source": "rule:phone-arrive"}]
            """))
    }

    // MARK: JSON

    @Test func jsonPrintsOneSummaryObjectInsteadOfTheText() throws {
        let t = try Self.sandbox()
        try t.write(Recording.csv.text(Self.walk), to: "walk.csv")
        let r = try t.run("feed", "--json", "--rules", "rules.yaml", "walk.csv")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        #expect(r.lines.count == 1)
        #expect(try r.json() == parsedJSON("""
            {"lines": 12, "fixes": 11, "used": 11, "ignored": {}, "transitions": 2, "fired": 2}
            """))
        #expect(try entries(t) == parsedJSON(Self.walkEntry))
    }

    // MARK: Replays

    @Test func feedingTheSameFileTwiceFiresNothingNew() throws {
        let t = try Self.sandbox()
        try t.write(Recording.gpx.text(Self.walk), to: "walk.gpx")
        #expect(try t.run("feed", "--rules", "rules.yaml", "walk.gpx").lines == Self.walkOutput(lines: 16))
        let again = try t.run("feed", "--rules", "rules.yaml", "walk.gpx")
        #expect(again.status == 0, "\(again)")
        #expect(again.stderr == "")
        // Every fix, the last one too, was taken by the first feed.
        #expect(again.lines == ["read 16 lines, 0 fixes used, 11 ignored (stale 11), 0 transitions, 0 rules fired"])
        #expect(try entries(t) == parsedJSON(Self.walkEntry))
    }

    /// The first recording ends inside at 08:06; the second starts at 08:05
    /// and walks out at 08:10.
    static let firstHalf = Array(walk[0...6])
    static let secondHalf = Array(walk[5...])

    @Test func twoOverlappingRecordingsFireEachTransitionOnce() throws {
        let t = try Self.sandbox()
        try t.write(Recording.csv.text(Self.firstHalf), to: "first.csv")
        try t.write(Recording.csv.text(Self.secondHalf), to: "second.csv")
        let first = try t.run("feed", "--rules", "rules.yaml", "first.csv")
        #expect(first.status == 0, "\(first)")
        #expect(first.lines == [
            "2026-11-23T09:03:00+01:00  arrive home, accuracy 10 m",
            #"fired arrive at 2026-11-23T09:03:00+01:00: started Home (created project "Home")"#,
            "read 8 lines, 7 fixes used, 0 ignored, 1 transition, 1 rule fired",
        ])
        let second = try t.run("feed", "--rules", "rules.yaml", "second.csv")
        #expect(second.status == 0, "\(second)")
        #expect(second.stderr == "")
        #expect(second.lines == [
            "2026-11-23T09:10:00+01:00  leave home, accuracy 10 m",
            "fired leave at 2026-11-23T09:10:00+01:00: stopped Home",
            "read 7 lines, 4 fixes used, 2 ignored (stale 2), 1 transition, 1 rule fired",
        ])
        #expect(try entries(t) == parsedJSON(Self.walkEntry))

        // Both in one feed: the overlap is a repeat and a step back in time.
        let both = try Self.sandbox()
        try both.write(Recording.csv.text(Self.firstHalf), to: "first.csv")
        try both.write(Recording.csv.text(Self.secondHalf), to: "second.csv")
        let r = try both.run("feed", "--rules", "rules.yaml", "first.csv", "second.csv")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        #expect(r.lines.last == "read 15 lines, 11 fixes used, 2 ignored (duplicate 1, out of order 1), 2 transitions, 2 rules fired")
        #expect(try entries(both) == parsedJSON(Self.walkEntry))
    }

    @Test func aDwellUnderWayWhenAFeedEndsCompletesInTheNext() throws {
        let t = try Self.sandbox()
        // Inside from 08:03; the first file ends at 08:04, a minute in.
        try t.write(Recording.csv.text(Array(Self.walk[0...4])), to: "until-0804.csv")
        try t.write(Recording.csv.text(Array(Self.walk[5...])), to: "from-0805.csv")
        let first = try t.run("feed", "--rules", "rules.yaml", "until-0804.csv")
        // The dwell is under way: no rule has seen an arrive yet.
        #expect(first.lines == ["read 6 lines, 5 fixes used, 0 ignored, 0 transitions, 0 rules fired"])
        #expect(try entries(t) == [])
        // The arrive is shown when the dwell completes, with the rule it fires.
        let rest = try t.run("feed", "--rules", "rules.yaml", "from-0805.csv")
        #expect(rest.status == 0, "\(rest)")
        #expect(rest.lines == [
            "2026-11-23T09:03:00+01:00  arrive home, accuracy 10 m",
            #"fired arrive at 2026-11-23T09:03:00+01:00: started Home (created project "Home")"#,
            "2026-11-23T09:10:00+01:00  leave home, accuracy 10 m",
            "fired leave at 2026-11-23T09:10:00+01:00: stopped Home",
            "read 7 lines, 6 fixes used, 0 ignored, 2 transitions, 2 rules fired",
        ])
        #expect(try entries(t) == parsedJSON(Self.walkEntry))
    }

    // MARK: Exactly once across SIGKILL

    /// Rows of a store, read with SQLite directly, each row's columns as text.
    func rows(_ path: String, _ sql: String) throws -> [[String]] {
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.readonly = true
        return try DatabaseQueue(path: path, configuration: config).read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                (0..<row.count).map { (row[$0] as DatabaseValue).description }
            }
        }
    }

    /// Firings recorded so far; 0 before the store exists.
    func firings(_ t: Sandbox) -> Int {
        guard FileManager.default.fileExists(atPath: t.storePath) else { return 0 }
        return (try? rows(t.storePath, "SELECT count(*) FROM rule_firing"))?.first.flatMap { Int($0[0]) } ?? 0
    }

    /// Waits up to `seconds` for `condition`, checking every 10 ms.
    func eventually(_ seconds: Double = 60, _ condition: () -> Bool) -> Bool {
        eventuallyHolding(within: seconds, every: .milliseconds(10), condition)
    }

    /// What a store holds that feeding decides: entries, firings and place states.
    func outcome(_ path: String) throws -> [[String]] {
        try rows(path, #"""
            SELECT e.id, p.name, e.start, e."end", e.source FROM entry e LEFT JOIN project p ON p.id = e.project_id ORDER BY e.id
            """#)
            + rows(path, "SELECT key, occurred FROM rule_firing ORDER BY key")
            + rows(path, "SELECT place, arrive_dwell, leave_dwell, state, since, candidate, candidate_time FROM place_tracker ORDER BY place, arrive_dwell, leave_dwell")
    }

    /// A feed killed three times part way, and then given the whole file,
    /// leaves the store exactly as one clean feed does: every transition
    /// fired once, none lost between a place's new state and its firing.
    @Test func aFeedKilledPartWayAndRunAgainFiresEveryTransitionOnce() throws {
        let rules = Self.rules(dwell: "1m")
        // 20,000 fixes ten seconds apart from 2026-11-01T00:00:00Z, in
        // runs of 25 out and 25 in: 400 arrives and 399 leaves.
        let text = "time,lat,lon,accuracy\n" + (0..<20_000).map { i in
            "\(1_793_491_200 + i * 10),\(i / 25 % 2 == 1 ? "50.0" : "50.01"),14.0,10\n"
        }.joined()

        let clean = try Self.sandbox(rules: rules)
        try clean.write(text, to: "long.csv")
        let once = try clean.run("feed", "--rules", "rules.yaml", "long.csv")
        #expect(once.status == 0, "\(once.stderr)")
        #expect(once.lines.last == "read 20001 lines, 20000 fixes used, 0 ignored, 799 transitions, 799 rules fired")
        let expected = try outcome(clean.storePath)
        // Entries, firings, and the trackers for no dwell and for 1m.
        #expect(expected.count == 400 + 799 + 2)

        let t = try Self.sandbox(rules: rules)
        try t.write(text, to: "long.csv")
        var killedAt: [Int] = []
        for target in [1, 250, 500] {
            let feed = try t.launch(["feed", "--rules", "rules.yaml", "long.csv"])
            defer { feed.stop() }
            #expect(eventually { firings(t) >= target || !feed.process.isRunning })
            feed.signal(SIGKILL)
            let r = try feed.wait()
            // Killed, not finished.
            #expect(r.status == SIGKILL)
            #expect(feed.process.terminationReason == .uncaughtSignal)
            killedAt.append(firings(t))
        }
        // Each kill came part way: after a firing, before the last.
        #expect(killedAt.allSatisfy { $0 >= 1 && $0 < 799 }, "\(killedAt)")

        let rest = try t.run("feed", "--rules", "rules.yaml", "long.csv")
        #expect(rest.status == 0, "\(rest.stderr)")
        #expect(rest.stderr == "")
        // The fixes taken before the last kill are stale; what fires now is
        // what had not fired.
        let summary = try #require(rest.lines.last)
        let numbers = summary.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        #expect(summary.hasPrefix("read 20001 lines, "))
        #expect(summary.hasSuffix(" rules fired"))
        #expect(numbers.count == 6)
        if numbers.count == 6 {
            #expect(numbers[1] + numbers[2] == 20_000)
            #expect(numbers[2] == numbers[3])
            #expect(numbers[5] == 799 - killedAt.last!)
        }
        #expect(try outcome(t.storePath) == expected)
    }

    // MARK: Input that is not a fix

    /// Good fixes of the walk with bad lines between them.
    static let damaged: [UInt8] = Array("""
        2026-11-23T08:00:00Z,50.01,14.0,10
        hello world
        2026-11-23T08:01:00Z,91,14.0,10
        2026-11-23T08:02:00Z,50.0,200,10
        2026-11-23T08:03:00Z,50.0,14.0,10
        {"class":"TPV","mode":3,"time":"2026-11-23T08:04:00Z","lat":50.0,
        2027-01-01T00:00:00Z,50.0,14.0,10
        \(nmea("GPRMC,080430.00,A,5000.0000,N,01400.0000,E,0.0,0.0,231126,,,A").dropLast(2))00
        2026-11-23T08:05:00Z,50.0,14.0,10
        2026-11-23T08:06:00Z,50.0,14.0,10

        """.utf8) + [0x00, 0x01, 0xFF, 0xFE, 0x62, 0x69, 0x6E, 0x07, 0x0A] + Array("""
        2026-11-23T08:10:00Z,50.01,14.0,10
        2026-11-23T08:12:00Z,50.01,14.0,10

        """.utf8)

    static let damagedWarnings = """
        trackee: damaged.txt:2: the line is of no known format (NMEA, gpsd or OwnTracks JSON, or CSV time,lat,lon)
        trackee: damaged.txt:3: latitude 91 is outside -90…90
        trackee: damaged.txt:4: longitude 200 is outside -180…180
        trackee: damaged.txt:6: the JSON object is truncated: the line ends before it closes
        trackee: damaged.txt:7: the time 2027-01-01T00:00:00Z is more than a day after now (2026-11-23T11:00:00Z)
        trackee: … and 2 more ignored lines

        """

    static let damagedSummary =
        "read 13 lines, 6 fixes used, 7 ignored (checksum 1, future 1, impossible coordinates 2, unreadable 3), 2 transitions, 2 rules fired"

    @Test func unusableLinesAreCountedByReasonWarnedFiveAtATimeAndSkipped() throws {
        let t = try Self.sandbox()
        try t.write(bytes: Self.damaged, to: "damaged.txt")
        let r = try t.run("feed", "--rules", "rules.yaml", "damaged.txt")
        #expect(r.status == 0)
        #expect(r.stderr == Self.damagedWarnings)
        #expect(r.lines == [
            "2026-11-23T09:03:00+01:00  arrive home, accuracy 10 m",
            #"fired arrive at 2026-11-23T09:03:00+01:00: started Home (created project "Home")"#,
            "2026-11-23T09:10:00+01:00  leave home, accuracy 10 m",
            "fired leave at 2026-11-23T09:10:00+01:00: stopped Home",
            Self.damagedSummary,
        ])
        #expect(try entries(t) == parsedJSON(Self.walkEntry))

        let json = try Self.sandbox()
        try json.write(bytes: Self.damaged, to: "damaged.txt")
        let j = try json.run("feed", "--json", "--rules", "rules.yaml", "damaged.txt")
        #expect(j.status == 0)
        #expect(j.stderr == Self.damagedWarnings)
        #expect(try j.json() == parsedJSON("""
            {"lines": 13, "fixes": 7, "used": 6, "transitions": 2, "fired": 2,
             "ignored": {"checksum": 1, "future": 1, "impossible_coordinates": 2, "unreadable": 3}}
            """))
    }

    @Test func strictFeedsEverythingAndThenExitsWith65() throws {
        let t = try Self.sandbox()
        try t.write(bytes: Self.damaged, to: "damaged.txt")
        let r = try t.run("feed", "--strict", "--rules", "rules.yaml", "damaged.txt")
        #expect(r.status == 65)
        #expect(r.stderr == Self.damagedWarnings + "trackee: 7 rejected lines (--strict)\n")
        #expect(r.lines.last == Self.damagedSummary)
        #expect(try entries(t) == parsedJSON(Self.walkEntry))

        // Fixes ignored only for being seen before are not the input's fault.
        try t.write(Recording.csv.text(Self.walk), to: "walk.csv")
        let stale = try t.run("feed", "--strict", "--rules", "rules.yaml", "walk.csv")
        #expect(stale.status == 0, "\(stale)")
        #expect(stale.stderr == "")

        let one = try Self.sandbox()
        try one.write("2026-11-23T08:00:00Z,50.01,14.0,10\n2026-11-23T08:01:00Z,50.01,14.0\n2026-11-23T08:02:00Z,50.01\n", to: "short.csv")
        let single = try one.run("feed", "--strict", "--rules", "rules.yaml", "short.csv")
        #expect(single.status == 65)
        #expect(single.stderr == """
            trackee: short.csv:3: a CSV line needs time,lat,lon[,accuracy], and this one has 2 fields
            trackee: 1 rejected line (--strict)

            """)
        #expect(single.lines == ["read 3 lines, 2 fixes used, 1 ignored (unreadable 1), 0 transitions, 0 rules fired"])
    }

    @Test func nmeaSentencesWithABadChecksumOrNoFixAreReportedAtTheirLine() throws {
        let t = try Self.sandbox()
        let good = { (clock: String, lat: String) in
            Self.nmea("GPRMC,\(clock),A,\(lat),N,01400.0000,E,0.0,0.0,231126,,,A")
        }
        var text = [
            // A GGA before any RMC has no date.
            Self.nmea("GPGGA,075900.00,5000.6000,N,01400.0000,E,1,08,2.0,200.0,M,45.0,M,,"),
            good("080000.00", "5000.6000"),
            good("080100.00", "5000.6000").dropLast(2) + "00",
            String(good("080130.00", "5000.6000").dropLast(3)),
            Self.nmea("GPRMC,080200.00,V,,,,,,,231126,,,N"),
            good("080300.00", "5000.0000"),
        ].map { Array(($0 + "\n").utf8) }.joined().map { $0 }
        // Binary bytes: a PNG header, three lines of it.
        text += [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x0A]
        text += Array((good("080500.00", "5000.0000") + "\n").utf8)
        try t.write(bytes: text, to: "receiver.nmea")
        let r = try t.run("feed", "--rules", "rules.yaml", "receiver.nmea")
        #expect(r.status == 0)
        #expect(r.stderr == """
            trackee: receiver.nmea:1: the GGA fix at 07:59:00 UTC came before any RMC gave the date
            trackee: receiver.nmea:3: NMEA checksum is 54, the sentence says 00
            trackee: receiver.nmea:4: the NMEA sentence has no checksum (*hh at its end)
            trackee: receiver.nmea:5: RMC status is V (no fix)
            trackee: receiver.nmea:7: the line is of no known format (NMEA, gpsd or OwnTracks JSON, or CSV time,lat,lon)
            trackee: … and 2 more ignored lines

            """)
        #expect(r.lines == [
            "2026-11-23T09:03:00+01:00  arrive home",
            #"fired arrive at 2026-11-23T09:03:00+01:00: started Home (created project "Home")"#,
            "read 10 lines, 3 fixes used, 7 ignored (checksum 2, no date 1, not a fix 1, unreadable 3), 1 transition, 1 rule fired",
        ])
        #expect(try entries(t) == parsedJSON("""
            [{"id": 1, "project": "Home", "description": "", "tags": [], "billable": false,
              "start": "2026-11-23T09:03:00+01:00", "duration_seconds": 10620, "running": true, "source": "rule:arrive"}]
            """))
    }

    /// A CSV file read as GPX is not GPX at line 1, where the reading went
    /// wrong, not at the line after its end.
    @Test func aFileThatIsNotGPXIsBlamedOnItsFirstLine() throws {
        let t = try Self.sandbox()
        try t.write("""
            time,lat,lon
            2026-11-23T08:00:00Z,50.0,14.0
            2026-11-23T08:01:00Z,50.0,14.0
            2026-11-23T08:02:00Z,50.0,14.0
            2026-11-23T08:03:00Z,50.0,14.0
            """ + "\n", to: "walk.csv")
        let r = try t.run("feed", "--rules", "rules.yaml", "--format", "gpx", "walk.csv")
        #expect(r.status == 0)
        #expect(r.stderr == "trackee: walk.csv:1: the input is not a GPX document: it has no <gpx> element\n")
        #expect(r.lines == ["read 5 lines, 0 fixes used, 1 ignored (unreadable 1), 0 transitions, 0 rules fired"])
    }

    /// A file named on the command line that cannot be read is EX_NOINPUT
    /// (66) with its path, before anything is read or written.
    @Test func anInputFileThatCannotBeReadIsExitStatus66() throws {
        let t = try Self.sandbox()
        let missing = try t.run("feed", "--rules", "rules.yaml", "nowhere.csv")
        #expect(missing.status == 66)
        #expect(missing.stdout == "")
        #expect(missing.stderr == failure("nowhere.csv: cannot read it (No such file or directory)"))
        try FileManager.default.createDirectory(atPath: t.path("folder"), withIntermediateDirectories: false)
        let folder = try t.run("feed", "--rules", "rules.yaml", "folder")
        #expect(folder.status == 66)
        #expect(folder.stderr == failure("folder: cannot read it (it is a directory)"))
        let simulate = try t.run("simulate", "--rules", "rules.yaml", "--from", "2026-11-23 00:00", "--to", "2026-11-23 12:00",
                                 "--feed", "nowhere.csv")
        #expect(simulate.status == 66)
        #expect(simulate.stderr == failure("--feed: cannot read nowhere.csv"))
        #expect(t.listing(t.path("store")) == [])
    }

    @Test func gpxProblemsAreReportedAtTheLineOfTheirPoint() throws {
        let t = try Self.sandbox()
        try t.write("""
            <?xml version="1.0"?>
            <gpx version="1.1">
            <trk><trkseg>
            <trkpt lat="50.01" lon="14.0"><time>2026-11-23T08:00:00Z</time><hdop>2</hdop></trkpt>
            <trkpt lat="91" lon="14.0"><time>2026-11-23T08:01:00Z</time></trkpt>
            <trkpt lat="50.0" lon="14.0"><time>2026-11-23T08:03:00Z</time><hdop>2</hdop></trkpt>
            <trkpt lat="50.0" lon="14.0">
              <time>yesterday</time>
            </trkpt>
            <trkpt lat="50.0" lon="14.0"><hdop>2</hdop></trkpt>
            <trkpt lat="50.0" lon="200"><time>2026-11-23T08:04:00Z</time></trkpt>
            <trkpt lat="50.0" lon="14.0"><time>2026-11-23T08:05:00Z</time><hdop>2</hdop></trkpt>
            <trkpt lat="50.0" lon="14.0"><time>2026-11-23T08:06:00Z</time><hdop>2</hdop></trkpt>
            <trkpt lat="50.0" lon="14.0"><time>2026-11-23T08:07:00Z</time><hd
            """ + "\n", to: "cut.gpx")
        let r = try t.run("feed", "--rules", "rules.yaml", "cut.gpx")
        #expect(r.status == 0)
        #expect(r.stderr == """
            trackee: cut.gpx:5: latitude 91 is outside -90…90
            trackee: cut.gpx:7: the <trkpt> time "yesterday" is not an ISO 8601 time
            trackee: cut.gpx:10: a <trkpt> has no <time>
            trackee: cut.gpx:11: longitude 200 is outside -180…180
            trackee: cut.gpx:14: the GPX document is truncated: it ends inside a <trkpt>, whose point is lost

            """)
        #expect(r.lines == [
            "2026-11-23T09:03:00+01:00  arrive home, accuracy 10 m",
            #"fired arrive at 2026-11-23T09:03:00+01:00: started Home (created project "Home")"#,
            "read 14 lines, 4 fixes used, 5 ignored (impossible coordinates 2, no time 2, unreadable 1), 1 transition, 1 rule fired",
        ])
        let strict = try t.run("feed", "--strict", "--rules", "rules.yaml", "cut.gpx")
        #expect(strict.status == 65)
        #expect(strict.stderr.hasSuffix("trackee: 5 rejected lines (--strict)\n"))
        #expect(strict.lines == ["read 14 lines, 0 fixes used, 9 ignored (impossible coordinates 2, no time 2, stale 4, unreadable 1), 0 transitions, 0 rules fired"])
    }

    @Test func aRuleWaitingForAnUnknownPlaceIsAPositionedErrorAndNothingIsStored() throws {
        let t = try Self.sandbox(rules: """
            places:
              home: {lat: 50.0, lon: 14.0, radius: 100}
            rules:
              - id: arrive
                when: {arrive: hmoe, for: 2m}
                do: [{start: {project: Home}}]
            """)
        try t.write(Recording.csv.text(Self.walk), to: "walk.csv")
        let message = failure(#"rules.yaml:5:20: rule "arrive": when.arrive: unknown place "hmoe"; did you mean "home"?"#)
        for arguments in [["feed", "--rules", "rules.yaml", "walk.csv"], ["feed", "--dry-run", "--rules", "rules.yaml", "walk.csv"],
                          ["places", "--rules", "rules.yaml"]] {
            let r = try t.run(arguments)
            #expect(r.status == 78, "\(r)")
            #expect(r.stderr == message)
            #expect(r.stdout == "")
        }
        #expect(t.listing(t.path("store")) == [])
    }

    // MARK: Dry run

    @Test func dryRunPrintsWhatWouldHappenAndChangesNothing() throws {
        let t = try Self.sandbox()
        try t.write(Recording.csv.text(Self.walk), to: "walk.csv")
        // No store yet: none is made.
        let expected = [
            "2026-11-23T09:03:00+01:00  arrive home, accuracy 10 m",
            "2026-11-23T09:03:00+01:00  arrive  started Home",
            "2026-11-23T09:10:00+01:00  leave home, accuracy 10 m",
            "2026-11-23T09:10:00+01:00  leave  stopped Home",
            "read 12 lines, 11 fixes used, 0 ignored, 2 transitions, 2 rules fired (dry run)",
        ]
        let first = try t.run("feed", "--dry-run", "--rules", "rules.yaml", "walk.csv")
        #expect(first.status == 0, "\(first)")
        #expect(first.stderr == "")
        #expect(first.lines == expected)
        #expect(t.listing(t.path("store")) == [])

        // A store that exists is read and left as it was.
        #expect(try places(t).lines == ["home  circle of 100 m around 50.0, 14.0  unknown"])
        let before = t.storeFiles()
        let second = try t.run("feed", "--dry-run", "--rules", "rules.yaml", "walk.csv")
        #expect(second.lines == expected)
        #expect(t.storeFiles() == before)
        #expect(try places(t).lines == ["home  circle of 100 m around 50.0, 14.0  unknown"])
        #expect(try entries(t) == [])
    }

    /// A dry run after a real feed goes on from the real place states and
    /// shows what the rest of the walk would do to the real timer.
    @Test func dryRunGoesOnFromWhereARealFeedLeftOff() throws {
        let t = try Self.sandbox()
        try t.write(Recording.csv.text(Self.firstHalf), to: "first.csv")
        try t.write(Recording.csv.text(Self.secondHalf), to: "second.csv")
        #expect(try t.run("feed", "--rules", "rules.yaml", "first.csv").status == 0)
        let before = t.storeFiles()
        let r = try t.run("feed", "--dry-run", "--rules", "rules.yaml", "second.csv")
        #expect(r.status == 0, "\(r)")
        // Two fixes were taken by the real feed; Home runs, and the leave stops it.
        #expect(r.lines == [
            "2026-11-23T09:10:00+01:00  leave home, accuracy 10 m",
            "2026-11-23T09:10:00+01:00  leave  stopped Home",
            "read 7 lines, 4 fixes used, 2 ignored (stale 2), 1 transition, 1 rule fired (dry run)",
        ])
        #expect(t.storeFiles() == before)
        #expect(try places(t).lines == ["home  circle of 100 m around 50.0, 14.0  inside since 2026-11-23T09:03:00+01:00"])
    }

    // MARK: Places

    static let twoPlaces = """
        places:
          home: {lat: 50.0, lon: 14.0, radius: 100}
          client: {polygon: [[50.1, 14.4], [50.1, 14.41], [50.11, 14.41]], hysteresis: 10, max_accuracy: 50}
        rules:
          - id: arrive
            when: {arrive: home, for: 2m}
            do: [{start: {project: Home}}]
          - id: leave
            when: {leave: home, for: 2m}
            do: [{stop: }]
        """

    @Test func placesShowsEachShapeAndItsStateUnknownBeforeAnyFix() throws {
        let t = try Self.sandbox(rules: Self.twoPlaces)
        #expect(try places(t).lines == [
            "home  circle of 100 m around 50.0, 14.0  unknown",
            "client  polygon of 3 corners  unknown",
        ])
        #expect(try places(t, json: true).json() == parsedJSON("""
            [{"name": "home", "shape": "circle", "latitude": 50, "longitude": 14, "radius": 100,
              "hysteresis": 30, "max_accuracy": 200, "state": "unknown"},
             {"name": "client", "shape": "polygon", "corners": [[50.1, 14.4], [50.1, 14.41], [50.11, 14.41]],
              "hysteresis": 10, "max_accuracy": 50, "state": "unknown"}]
            """))

        // Inside home since the first fix in; every fix is 11 km from the
        // client, outside it from the first.
        try t.write(Recording.csv.text(Self.firstHalf), to: "first.csv")
        #expect(try t.run("feed", "--rules", "rules.yaml", "first.csv").status == 0)
        #expect(try places(t).lines == [
            "home  circle of 100 m around 50.0, 14.0  inside since 2026-11-23T09:03:00+01:00",
            "client  polygon of 3 corners  outside since 2026-11-23T09:00:00+01:00",
        ])
        try t.write(Recording.csv.text(Self.secondHalf), to: "second.csv")
        #expect(try t.run("feed", "--rules", "rules.yaml", "second.csv").status == 0)
        let json = try places(t, json: true).json()
        #expect(json.elements.map(\.["state"]) == ["outside", "outside"])
        #expect(json.elements.map(\.["since"]) == ["2026-11-23T09:10:00+01:00", "2026-11-23T09:00:00+01:00"])
        #expect(json[0].keys == ["hysteresis", "latitude", "longitude", "max_accuracy", "name", "radius", "shape", "since", "state"])
        #expect(json[1].keys == ["corners", "hysteresis", "max_accuracy", "name", "shape", "since", "state"])
    }

    @Test func placesWithoutAnySaysWhereToDefineThem() throws {
        let t = try Self.sandbox(rules: "rules: []\n")
        #expect(try places(t).lines == ["no places; define them under places: in a rule file (trackee-rules(5))"])
        #expect(try places(t, json: true).json() == [])
    }

    // MARK: Simulation

    @Test func simulatePlaysTheTrackAndPrintsTheTimesheetWithoutTheStore() throws {
        let t = try Self.sandbox()
        try t.write(Recording.nmea.text(Self.walk), to: "walk.nmea")
        let r = try t.run("simulate", "--rules", "rules.yaml", "--feed", "walk.nmea",
                          "--from", "2026-11-23 00:00", "--to", "2026-11-24 00:00")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        #expect(r.lines == [
            "simulating 2026-11-23T00:00:00+01:00 – 2026-11-24T00:00:00+01:00, 2 rules, 2 events",
            "2026-11-23T09:03:00+01:00  arrive  started Home",
            "2026-11-23T09:10:00+01:00  leave  stopped Home",
            "",
            "timesheet",
            "  2026-11-23T09:03:00+01:00 – 2026-11-23T09:10:00+01:00    0:07  Home",
            "  total Home: 0:07",
            "  total: 0:07",
        ])
        // A window that ends before the leave.
        let cut = try t.run("simulate", "--rules", "rules.yaml", "--feed", "walk.nmea",
                            "--from", "2026-11-23 00:00", "--to", "2026-11-23 09:05")
        #expect(cut.lines == [
            "simulating 2026-11-23T00:00:00+01:00 – 2026-11-23T09:05:00+01:00, 2 rules, 1 event",
            "2026-11-23T09:03:00+01:00  arrive  started Home",
            "",
            "timesheet",
            "  2026-11-23T09:03:00+01:00 – (running at the end)    0:02  Home",
            "  total Home: 0:02",
            "  total: 0:02",
        ])
        #expect(t.listing(t.path("store")) == [])

        // A window days ahead of now (a Friday planning Monday): the
        // track's fixes count as future only beyond a day after the window.
        let ahead = try t.run(["simulate", "--rules", "rules.yaml", "--feed", "walk.nmea",
                               "--from", "2026-11-23 00:00", "--to", "2026-11-24 00:00"], now: "2026-11-20 12:00")
        #expect(ahead.lines == r.lines)
    }

    // MARK: place: conditions

    /// Desk at nine if the last fix put you at home; stopped at five.
    static let deskRules = """
        places:
          home: {lat: 50.0, lon: 14.0, radius: 100}
        rules:
          - id: morning
            when: {at: "09:00"}
            if: {place: home}
            do: [{start: {project: Desk}}]
          - id: evening
            when: {at: "17:00"}
            if: {timer: running}
            do: [{stop: }]
        """

    /// Home on Monday morning, away on Tuesday morning.
    static let twoMornings = [
        "2026-11-23T07:40:00Z,50.01,14.0,10", "2026-11-23T07:50:00Z,50.0,14.0,10",
        "2026-11-24T07:40:00Z,50.0,14.0,10", "2026-11-24T07:50:00Z,50.01,14.0,10",
    ]

    @Test func aPlaceConditionOnAScheduleHoldsOnlyWhenTheLastFixWasInside() throws {
        let t = try Self.sandbox(rules: Self.deskRules)
        try t.write(Self.twoMornings[0...1].joined(separator: "\n") + "\n", to: "monday.csv")
        try t.write(Self.twoMornings[2...3].joined(separator: "\n") + "\n", to: "tuesday.csv")
        let steps: [(arguments: [String], now: String, output: [String])] = [
            (["tick"], "2026-11-23 08:00", ["first tick: watermark set to 2026-11-23T08:00:00+01:00; nothing before it fires"]),
            (["feed", "monday.csv"], "2026-11-23 08:55", [
                "2026-11-23T08:50:00+01:00  arrive home, accuracy 10 m",
                "read 2 lines, 2 fixes used, 0 ignored, 1 transition, 0 rules fired",
            ]),
            (["tick"], "2026-11-23 09:01", [#"fired morning at 2026-11-23T09:00:00+01:00: started Desk (created project "Desk")"#]),
            (["tick"], "2026-11-23 17:01", ["fired evening at 2026-11-23T17:00:00+01:00: stopped Desk"]),
            (["feed", "tuesday.csv"], "2026-11-24 08:55", [
                "2026-11-24T08:50:00+01:00  leave home, accuracy 10 m",
                "read 2 lines, 2 fixes used, 0 ignored, 1 transition, 0 rules fired",
            ]),
            (["tick"], "2026-11-24 09:01", ["not fired morning at 2026-11-24T09:00:00+01:00: conditions not met or cooling down"]),
        ]
        for step in steps {
            let r = try t.run(step.arguments + ["--rules", "rules.yaml"], now: step.now)
            #expect(r.status == 0, "\(r)")
            #expect(r.stderr == "")
            #expect(r.lines == step.output, "\(step.arguments) at \(step.now)")
        }
        #expect(try t.loggedEntries(at: "2026-11-24 12:00") == parsedJSON("""
            [{"id": 1, "project": "Desk", "description": "", "tags": [], "billable": false,
              "start": "2026-11-23T09:00:00+01:00", "end": "2026-11-23T17:00:00+01:00", "duration_seconds": 28800,
              "running": false, "source": "rule:morning"}]
            """))
    }

    @Test func simulateFeedLetsPlaceConditionsSeeTheTrack() throws {
        let t = try Self.sandbox(rules: Self.deskRules, now: "2026-11-25 12:00")
        try t.write(Self.twoMornings.joined(separator: "\n") + "\n", to: "mornings.csv")
        let r = try t.run("simulate", "--rules", "rules.yaml", "--feed", "mornings.csv",
                          "--from", "2026-11-23 00:00", "--to", "2026-11-25 00:00")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        #expect(r.lines == [
            "simulating 2026-11-23T00:00:00+01:00 – 2026-11-25T00:00:00+01:00, 2 rules, 4 events",
            "2026-11-23T09:00:00+01:00  morning  started Desk",
            "2026-11-23T17:00:00+01:00  evening  stopped Desk",
            "",
            "timesheet",
            "  2026-11-23T09:00:00+01:00 – 2026-11-23T17:00:00+01:00    8:00  Desk",
            "  total Desk: 8:00",
            "  total: 8:00",
        ])
        #expect(t.listing(t.path("store")) == [])
    }

    // MARK: trackee run

    /// `2026-11-23T09:03:00+01:00` for an instant, in Prague.
    static func local(_ seconds: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Europe/Prague")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// gpsd fixes and focus events in one stream on `trackee run`'s stdin:
    /// the arrive fires when its dwell is up, from the first fix inside.
    @Test func runTakesFixLinesMixedWithFocusEventsOnStdin() throws {
        let t = try Sandbox()
        t.now = ""
        try t.write("""
            places:
              home: {lat: 50.0, lon: 14.0, radius: 100}
            rules:
              - id: home
                when: {arrive: home, for: 1m}
                do: [{start: {project: Home}}]
              - id: deep
                when: {focus: deep}
                do: [{start: {project: Deep}}]
            """, to: "config/trackee/rules.yaml")
        // An hour ago, on the minute.
        let base = (Int(Date().timeIntervalSince1970) / 60 - 60) * 60
        let utc = ISO8601DateFormatter()
        func tpv(_ offset: Int, _ latitude: Double) -> String {
            let time = utc.string(from: Date(timeIntervalSince1970: TimeInterval(base + offset)))
            return #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"\#(time)","lat":\#(latitude),"lon":14.0,"eph":10}"#
        }
        let lines = [
            #"{"type":"focus","mode":"deep","time":\#(base)}"#,
            tpv(60, 50.01), tpv(120, 50.01), tpv(180, 50.0), tpv(240, 50.0), tpv(300, 50.0),
            #"{"type":"focus","mode":"deep","state":"off","time":\#(base + 360)}"#,
        ]
        let input = Pipe()
        let daemon = try t.launch(["run"], input: input)
        defer { daemon.stop() }
        input.fileHandleForWriting.write(Data(lines.map { $0 + "\n" }.joined().utf8))
        try input.fileHandleForWriting.close()
        #expect(eventually(15) { daemon.stderrSoFar.contains("end of stdin after 7 lines; schedules go on") })
        daemon.signal(SIGTERM)
        let r = try daemon.wait()
        #expect(r.status == 0)
        #expect(r.stderr.contains("trackee run: info: fired rule \"deep\": focus deep on at \(Self.local(base)): started\n"))
        #expect(r.stderr.contains("trackee run: info: fired rule \"home\": arrive home at \(Self.local(base + 180)): switched\n"))
        #expect(!r.stderr.contains("warning"))
        #expect(try rows(t.storePath, "SELECT key FROM rule_firing ORDER BY occurred")
            == [["\"deep@focus:1\""], ["\"home@place:home:arrive:\(base + 180)\""]])

        #expect(try rows(t.storePath, #"""
            SELECT p.name, e.start, e."end", e.source FROM entry e JOIN project p ON p.id = e.project_id ORDER BY e.id
            """#) == [
            ["\"Deep\"", "\(base)", "\(base + 180)", "\"rule:deep\""],
            ["\"Home\"", "\(base + 180)", "NULL", "\"rule:home\""],
        ])
        let places = try t.run("places")
        #expect(places.lines == ["home  circle of 100 m around 50.0, 14.0  inside since \(Self.local(base + 180))"])
    }
}
