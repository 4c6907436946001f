import Foundation
import Testing
import TrackeeTestSupport

/// `simulate` plays `running_for` edges on the simulated store: they come
/// from the timer the simulation itself started.
@Suite struct TimerSimulateTests {
    @Test func aLongTimerWarningFallsFourHoursAfterTheSimulatedStart() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        let r = try t.run("simulate", "--json", "--rules", RecipeTests.rule("office-hours.yaml"),
                          "--rules", RecipeTests.rule("forgotten-timer.yaml"), "--from", "monday", "--to", "monday 23:59")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        let json = try r.json()
        #expect(json["rules"] == 4)
        #expect(json["events"] == 3)
        #expect(try json["firings"] == parsedJSON("""
            [{"rule": "office-hours-start", "key": "office-hours-start@at:1795420800", "time": "2026-11-23T09:00:00+01:00",
              "status": "fired", "outcomes": ["started"]},
             {"rule": "long-timer", "key": "long-timer@timer:running_for:1:14400", "time": "2026-11-23T13:00:00+01:00",
              "status": "fired", "outcomes": [], "would_notify": ["Office has run for 4h 00m"]},
             {"rule": "office-hours-stop", "key": "office-hours-stop@at:1795451400", "time": "2026-11-23T17:30:00+01:00",
              "status": "fired", "outcomes": ["stopped"]}]
            """))
    }

    /// Without a stop, the overnight rule ends the simulated timer at
    /// start + 8h, when its 10 h edge comes.
    @Test func anOvernightTimerEndsAtEightHoursInTheTimesheet() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        try """
            rules:
              - id: evening
                when: {at: "Mon 18:00"}
                do: [{start: {project: Docs}}]
            """.write(toFile: t.path("evening.yaml"), atomically: true, encoding: .utf8)
        let r = try t.run("simulate", "--rules", t.path("evening.yaml"), "--rules", RecipeTests.rule("forgotten-timer.yaml"),
                          "--from", "monday", "--to", "tuesday 12:00")
        #expect(r.status == 0, "\(r)")
        #expect(r.lines.first == "simulating 2026-11-23T00:00:00+01:00 – 2026-11-24T12:00:00+01:00, 3 rules, 3 events")
        #expect(r.lines.contains("  2026-11-23T18:00:00+01:00 – 2026-11-24T02:00:00+01:00    8:00  Docs"))
    }

    /// `rules next` sees the timer running now, in the store: its
    /// `running_for` edges are ahead; with no store, none is, and none is
    /// created.
    @Test func rulesNextListsTheRunningTimersEdges() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        let none = try t.run("rules", "next", "--rules", RecipeTests.rule("forgotten-timer.yaml"))
        #expect(none.status == 0, "\(none)")
        #expect(none.lines == ["no firings ahead"])
        #expect(!FileManager.default.fileExists(atPath: t.storePath))
        #expect(try t.run("start", "-p", "Docs", "--new-project", "--at", "10:30").status == 0)
        let r = try t.run("rules", "next", "--rules", RecipeTests.rule("forgotten-timer.yaml"))
        #expect(r.status == 0, "\(r)")
        #expect(r.lines == [
            "2026-11-20T14:30:00+01:00  long-timer  timer \"Docs\" running for 4h 00m",
            "2026-11-20T20:30:00+01:00  overnight  timer \"Docs\" running for 10h 00m",
        ])
        let json = try t.run("rules", "next", "--json", "--count", "1", "--rules", RecipeTests.rule("forgotten-timer.yaml")).json()
        #expect(try json == parsedJSON(#"[{"rule": "long-timer", "time": "2026-11-20T14:30:00+01:00"}]"#))
    }
}
