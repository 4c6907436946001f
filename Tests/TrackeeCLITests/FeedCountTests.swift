import Testing
import TrackeeTestSupport

/// What `feed` counts: `fixes` holds every fix the lines had, whatever
/// became of it, and `transitions` only the crossings a rule waits for,
/// the same in a feed, its dry run and `simulate --feed`.
@Suite struct FeedCountTests {
    typealias Walk = FeedCommandTests

    @Test func fixesFromTheFutureCountAsFixesAsStaleOnesDo() throws {
        // Three days before the walk: every fix is more than a day ahead.
        let early = try Walk.sandbox(now: "2026-11-20 12:00")
        try early.write(Walk.Recording.csv.text(Walk.walk), to: "walk.csv")
        let future = try early.run("feed", "--json", "--rules", "rules.yaml", "walk.csv")
        #expect(future.status == 0, "\(future)")
        #expect(future.stderr.hasPrefix("trackee: walk.csv:2: "), "\(future)")
        #expect(try future.json() == parsedJSON("""
            {"lines": 12, "fixes": 11, "used": 0, "ignored": {"future": 11}, "transitions": 0, "fired": 0}
            """))

        let t = try Walk.sandbox()
        try t.write(Walk.Recording.csv.text(Walk.walk), to: "walk.csv")
        #expect(try t.run("feed", "--rules", "rules.yaml", "walk.csv").status == 0)
        let stale = try t.run("feed", "--json", "--rules", "rules.yaml", "walk.csv")
        #expect(stale.status == 0, "\(stale)")
        #expect(try stale.json() == parsedJSON("""
            {"lines": 12, "fixes": 11, "used": 0, "ignored": {"stale": 11}, "transitions": 0, "fired": 0}
            """))
    }

    /// Out of the place for four minutes, while the leave rule waits five:
    /// no leave and no second arrive, in the dry run, the feed and the
    /// simulation alike.
    @Test func aCrossingShorterThanTheDwellIsNoTransitionAnywhere() throws {
        let t = try Walk.sandbox(rules: """
            places:
              home: {lat: 50.0, lon: 14.0, radius: 100}
            rules:
              - id: arrive
                when: {arrive: home, for: 2m}
                do: [{start: {project: Home}}]
              - id: leave
                when: {leave: home, for: 5m}
                do: [{stop: }]
            """)
        let walk = Walk.walk + [
            Walk.Point(time: "08:14", inside: true), Walk.Point(time: "08:15", inside: true),
            Walk.Point(time: "08:16", inside: true), Walk.Point(time: "08:30", inside: false),
            Walk.Point(time: "08:36", inside: false),
        ]
        try t.write(Walk.Recording.csv.text(walk), to: "walk.csv")
        let expected = [
            "2026-11-23T09:03:00+01:00  arrive home, accuracy 10 m",
            "2026-11-23T09:03:00+01:00  arrive  started Home",
            "2026-11-23T09:30:00+01:00  leave home, accuracy 10 m",
            "2026-11-23T09:30:00+01:00  leave  stopped Home",
            "read 17 lines, 16 fixes used, 0 ignored, 2 transitions, 2 rules fired (dry run)",
        ]
        let dryRun = try t.run("feed", "--dry-run", "--rules", "rules.yaml", "walk.csv")
        #expect(dryRun.status == 0, "\(dryRun)")
        #expect(dryRun.lines == expected)

        let simulation = try t.run("simulate", "--json", "--rules", "rules.yaml", "--feed", "walk.csv",
                                   "--from", "2026-11-23 00:00", "--to", "2026-11-24 00:00")
        #expect(simulation.status == 0, "\(simulation)")
        let firings = try simulation.json()["firings"]
        #expect(firings[0]["rule"] == "arrive" && firings[0]["time"] == "2026-11-23T09:03:00+01:00")
        #expect(firings[1]["rule"] == "leave" && firings[1]["time"] == "2026-11-23T09:30:00+01:00")
        #expect(firings[2] == .absent)

        let feed = try t.run("feed", "--json", "--rules", "rules.yaml", "walk.csv")
        #expect(try feed.json() == parsedJSON("""
            {"lines": 17, "fixes": 16, "used": 16, "ignored": {}, "transitions": 2, "fired": 2}
            """))
    }
}
