import Testing
import TrackeeTestSupport

/// `simulate --json` prints the whole dry run as one object, not the text.
@Suite struct SimulateJSONTests {
    @Test func aDayOfOfficeHoursAndLunchIsOneObject() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        let r = try t.run("simulate", "--json", "--rules", RecipeTests.rule("office-hours.yaml"),
                          "--rules", RecipeTests.rule("lunch-break.yaml"), "--from", "monday", "--to", "monday 23:59")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        #expect(r.lines.count == 1)
        #expect(try r.json() == parsedJSON("""
            {"from": "2026-11-23T00:00:00+01:00", "to": "2026-11-23T23:59:00+01:00", "rules": 3, "events": 3,
             "firings": [
               {"rule": "office-hours-start", "key": "office-hours-start@at:1795420800", "time": "2026-11-23T09:00:00+01:00",
                "status": "fired", "outcomes": ["started"]},
               {"rule": "lunch-stop", "key": "lunch-stop@at:1795433400", "time": "2026-11-23T12:30:00+01:00",
                "status": "fired", "outcomes": ["stopped"],
                "would_notify": ["Lunch break: Timer stopped at 2026-11-23T12:30:00+01:00"]}],
             "entries": [
               {"id": 1, "project": "Office", "description": "Desk day", "tags": ["auto"], "billable": false,
                "start": "2026-11-23T09:00:00+01:00", "end": "2026-11-23T12:30:00+01:00", "duration_seconds": 12600,
                "running": false, "source": "rule:office-hours-start"}],
             "totals": [{"project": "Office", "seconds": 12600}],
             "total_seconds": 12600}
            """))
        // Nothing was written anywhere but the throwaway store.
        #expect(t.listing(t.path("store")) == [])
    }

    /// A timer still running when the window ends counts up to its end,
    /// not to the real now (which is days before the window here).
    @Test func aTimerRunningAtTheEndCountsUpToTheEndOfTheWindow() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        let r = try t.run("simulate", "--json", "--rules", RecipeTests.rule("office-hours.yaml"),
                          "--from", "monday", "--to", "monday 11:00")
        #expect(r.status == 0, "\(r)")
        let json = try r.json()
        #expect(try json["entries"] == parsedJSON("""
            [{"id": 1, "project": "Office", "description": "Desk day", "tags": ["auto"], "billable": false,
              "start": "2026-11-23T09:00:00+01:00", "duration_seconds": 7200, "running": true,
              "source": "rule:office-hours-start"}]
            """))
        #expect(try json["totals"] == parsedJSON(#"[{"project": "Office", "seconds": 7200}]"#))
        #expect(json["total_seconds"] == 7200)
    }
}
