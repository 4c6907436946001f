import Foundation
import Testing
import TrackeeTestSupport

/// `trackee rules why` and `simulate --why` against the built binary: a
/// firing with its intent's outcome, a false condition, a `max_late` skip,
/// a place crossing no rule waits for, text and JSON.
@Suite struct RulesWhyTests {
    static let rules = """
        places:
          home: {lat: 50.0, lon: 14.0, radius: 100}
          office: {lat: 51.0, lon: 14.0, radius: 100}
        rules:
          - id: office-hours
            when: {at: "Mon..Fri 09:00"}
            do: [{start: {project: Office}}]
          - id: late
            when: {at: "Mon..Fri 09:00"}
            if: {time: "10:00-17:00", focus: deep}
            do: [stop]
          - id: at-office
            when: {arrive: office}
            do: [stop]
        """

    /// Monday 2026-11-23, Prague, with the rules above in rules.yaml.
    func sandbox(now: String = "2026-11-23 08:58") throws -> Sandbox {
        let t = try Sandbox(now: now)
        try Self.rules.write(toFile: t.path("config/trackee/rules.yaml"), atomically: true, encoding: .utf8)
        return t
    }

    @Test func aFiringAndAFalseConditionAreTracedAsText() throws {
        let t = try sandbox()
        _ = try t.run("tick")
        #expect(try t.run("tick", now: "2026-11-23 09:00:30").status == 0)
        let fired = try t.run("rules", "why", "office-hours")
        #expect(fired.status == 0)
        #expect(fired.lines == [
            "2026-11-23T09:00:00+01:00  office-hours  schedule Mon..Fri 09:00",
            "  fired: office-hours@at:1795420800",
            "  do start Office: started (office-hours@at:1795420800#0)",
        ])
        #expect(try t.run("rules", "why", "late").lines == [
            "2026-11-23T09:00:00+01:00  late  schedule Mon..Fri 09:00",
            "  not fired: a condition is false",
            "  if time 10:00-17:00: 09:00 → false",
            "  if focus deep: focus is none → false",
        ])
    }

    /// The next morning noticed at 11:00: past max_late (10m), so neither
    /// rule fires, and both say so, newest first above the day before.
    @Test func aMaxLateSkipIsTracedAndJSONGivesEveryField() throws {
        let t = try sandbox()
        _ = try t.run("tick")
        _ = try t.run("tick", now: "2026-11-23 09:00:30")
        _ = try t.run("tick", now: "2026-11-24 11:00")
        #expect(try t.run("rules", "why", "office-hours", "--last", "1").lines == [
            "2026-11-24T09:00:00+01:00  office-hours  schedule Mon..Fri 09:00",
            "  not fired: noticed more than max_late after its time",
            "  noticed 2h 00m late",
        ])
        let json = try t.run("rules", "why", "office-hours", "--json").json()
        #expect(json == .object(["traces": .array([
            .object([
                "time": "2026-11-24T09:00:00+01:00", "noticed": "2026-11-24T11:00:00+01:00", "rule": "office-hours",
                "trigger": "schedule Mon..Fri 09:00", "verdict": "too-late",
                "reason": "not fired: noticed more than max_late after its time", "conditions": .array([]),
                "actions": .array([]), "detail": "noticed 2h 00m late",
            ]),
            .object([
                "time": "2026-11-23T09:00:00+01:00", "noticed": "2026-11-23T09:00:30+01:00", "rule": "office-hours",
                "trigger": "schedule Mon..Fri 09:00", "verdict": "fired", "reason": "fired", "conditions": .array([]),
                "key": "office-hours@at:1795420800",
                "actions": .array([.object([
                    "action": "start Office", "key": "office-hours@at:1795420800#0", "outcome": "started",
                ])]),
            ]),
        ])]))
        let late = try t.run("rules", "why", "late", "--json", "--last", "1").json()
        #expect(late["traces"][0]["verdict"] == "too-late")
    }

    /// Walking into home, which no rule watches: the crossing is kept under
    /// no rule, and `rules why` without a rule shows it.
    @Test func aPlaceCrossingNoRuleWaitsForIsTraced() throws {
        let t = try sandbox(now: "2026-11-23 12:00")
        try ("time,lat,lon,accuracy\n" + [("08:00", 50.01), ("08:01", 50.01), ("08:03", 50.0), ("08:04", 50.0)]
            .map { "2026-11-23T\($0.0):00Z,\($0.1),14.0,10\n" }.joined())
            .write(toFile: t.path("fixes.csv"), atomically: true, encoding: .utf8)
        #expect(try t.run("feed", "fixes.csv").status == 0)
        let why = try t.run("rules", "why")
        #expect(why.status == 0)
        #expect(why.lines == [
            "2026-11-23T09:03:00+01:00  (no rule)  arrive home",
            "  no rule waits for this event",
        ])
        let json = try t.run("rules", "why", "--json").json()
        #expect(json == .object(["traces": .array([.object([
            "time": "2026-11-23T09:03:00+01:00", "noticed": "2026-11-23T12:00:00+01:00", "trigger": "arrive home",
            "verdict": "no-rule", "reason": "no rule waits for this event", "conditions": .array([]), "actions": .array([]),
        ])])]))
    }

    @Test func simulateWhyPrintsTheTracesUnderEachEvent() throws {
        let t = try sandbox()
        let r = try t.run("simulate", "--from", "2026-11-23 08:00", "--to", "2026-11-23 10:00", "--why")
        #expect(r.status == 0)
        #expect(r.lines.prefix(10) == [
            "simulating 2026-11-23T08:00:00+01:00 – 2026-11-23T10:00:00+01:00, 3 rules, 2 events",
            "2026-11-23T09:00:00+01:00  office-hours  started Office",
            "  why: 2026-11-23T09:00:00+01:00  office-hours  schedule Mon..Fri 09:00",
            "      fired: office-hours@at:1795420800",
            "      do start Office: started (office-hours@at:1795420800#0)",
            "  why: 2026-11-23T09:00:00+01:00  late  schedule Mon..Fri 09:00",
            "      not fired: a condition is false",
            "      if time 10:00-17:00: 09:00 → false",
            "      if focus deep: focus is none → false",
            "",
        ])
        let json = try t.run("simulate", "--from", "2026-11-23 08:00", "--to", "2026-11-23 10:00", "--why", "--json").json()
        #expect(json["traces"].elements.map { $0["verdict"] } == ["fired", "condition-false"])
        let plain = try t.run("simulate", "--from", "2026-11-23 08:00", "--to", "2026-11-23 10:00", "--json").json()
        #expect(plain["traces"] == .absent)
    }

    @Test func anUnknownRuleIsRefusedAndAKnownOneWithoutTracesSaysSo() throws {
        let t = try sandbox()
        let unknown = try t.run("rules", "why", "office-hour")
        #expect(unknown.status == 64)
        #expect(unknown.stderr == failure("rules why: no rule has the id \"office-hour\"; `trackee rules check` lists them"))
        #expect(try t.run("rules", "why", "office-hours").lines == ["no traces of rule office-hours yet: no event has reached it"])
        #expect(try t.run("rules", "why").lines == ["no traces yet"])
    }

    @Test func theSettingsSayHowManyTracesEachRuleKeeps() throws {
        let t = try sandbox()
        try "create_projects: always\ntraces: 1\n".write(toFile: t.path("config/trackee/config.yaml"), atomically: true, encoding: .utf8)
        _ = try t.run("tick")
        _ = try t.run("tick", now: "2026-11-23 09:00:30")
        _ = try t.run("tick", now: "2026-11-24 09:00:30")
        #expect(try t.run("rules", "why", "late", "--json").json()["traces"].elements.map { $0["time"] }
            == ["2026-11-24T09:00:00+01:00"])
        try "traces: 0\n".write(toFile: t.path("config/trackee/config.yaml"), atomically: true, encoding: .utf8)
        let refused = try t.run("rules", "why")
        #expect(refused.status == 78)
        #expect(refused.stderr == failure(
            t.path("config/trackee/config.yaml") + ":1: traces is \"0\"; expected a whole number of traces from 1 to 10000"))
    }
}
