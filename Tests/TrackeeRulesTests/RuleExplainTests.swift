import Testing
import TrackeeCore
import TrackeeRules

/// The engine's explaining evaluation: the same firings as `evaluate`, with
/// every condition's inputs, nested ones included, and the place crossings
/// no rule waits for.
@Suite struct RuleExplainTests {
    static let prague = try! Zone(identifier: "Europe/Prague")
    /// Monday 2026-11-23 18:04 in Prague.
    static let evening = Instant(seconds: 1_795_453_440)

    static let yaml = """
        places:
          home: {lat: 50.0, lon: 14.0, radius: 100}
          office: {lat: 51.0, lon: 14.0, radius: 100}
          gym: {lat: 52.0, lon: 14.0, radius: 100}
        rules:
          - id: after-work
            when: {focus: deep}
            if:
              weekdays: mon-fri
              time: "09:00-17:00"
              any: [{place: home}, {timer: {running: Docs}}]
              not: {focus: none}
            do: [{start: {project: Docs}}]
          - id: deep
            when: {focus: deep}
            do:
              - start: {project: Deep, description: focus}
              - notify: {title: Deep}
              - run: [echo, hi]
          - id: at-office
            when: {arrive: office, for: 5m}
            do: [stop]
        """

    func engine() throws -> RuleEngine { RuleEngine(rules: try rules(Self.yaml)) }

    func crossing(_ place: String, _ transition: PlaceTransition, dwell: Int64 = 0) -> TriggerEvent {
        TriggerEvent(.place(PlaceEvent(place: place, transition: transition, dwell: dwell,
                                       fix: Fix(time: Self.evening, latitude: 50, longitude: 14))), time: Self.evening)
    }

    @Test func everyConditionIsTracedWithItsInputsAndTheFiringsAreEvaluates() throws {
        let engine = try engine()
        #expect(Self.prague.iso8601(Self.evening) == "2026-11-23T18:04:00+01:00")
        let event = TriggerEvent(.focus(mode: "deep", state: .on, sequence: 3), time: Self.evening)
        let snapshot = Snapshot(zone: Self.prague, focus: "Deep", timer: .running(project: "Mail", client: nil), inside: ["gym"])
        let answers = engine.explain(event, zone: Self.prague, noticed: Self.evening + 2) { snapshot }
        #expect(answers.compactMap(\.firing) == engine.evaluate(event, snapshot: snapshot))
        #expect(answers.map(\.trace) == [
            RuleTrace(rule: "after-work", occurred: Self.evening, noticed: Self.evening + 2, trigger: "focus deep on",
                      verdict: .conditionFalse, conditions: [
                          .init(condition: "weekdays mon,tue,wed,thu,fri", input: "Mon", holds: true),
                          .init(condition: "time 09:00-17:00", input: "18:04", holds: false),
                          .init(condition: "any", input: "place home: inside [gym] → false; "
                                + "timer running Docs: timer is running Mail → false", holds: false),
                          .init(condition: "not", input: "focus none: focus is Deep → false", holds: true),
                      ]),
            RuleTrace(rule: "deep", occurred: Self.evening, noticed: Self.evening + 2, trigger: "focus deep on",
                      verdict: .fired, key: "deep@focus:3", actions: [
                          .init(action: "start Deep \"focus\"", key: "deep@focus:3#0"),
                          .init(action: "notify \"Deep\""),
                          .init(action: "run echo hi"),
                      ]),
        ])
    }

    /// Home: no rule's trigger names it, so its crossing is traced under no
    /// rule. The office's plain crossing is not: a rule waits for it to
    /// last five minutes.
    @Test func aPlaceCrossingNoRuleWaitsForIsTracedUnderNoRule() throws {
        let engine = try engine()
        let home = engine.explain(crossing("home", .arrive), zone: Self.prague, noticed: Self.evening) {
            Issue.record("the state is read only for a rule that waits")
            return Snapshot(zone: Self.prague)
        }
        #expect(home.map(\.trace) == [
            RuleTrace(rule: nil, occurred: Self.evening, noticed: Self.evening, trigger: "arrive home", verdict: .noRule),
        ])
        #expect(home.map(\.firing) == [nil])
        #expect(engine.unawaited(crossing("office", .arrive), noticed: Self.evening) == nil)
        #expect(engine.unawaited(crossing("office", .leave), noticed: Self.evening)?.verdict == .noRule)
        #expect(engine.unawaited(crossing("gym", .arrive, dwell: 300), noticed: Self.evening) == nil)
    }

    @Test func aCooldownIsTracedWithItsLastFiring() throws {
        let engine = RuleEngine(rules: try rules("""
            rules:
              - id: deep
                when: {focus: deep}
                cooldown: 30m
                do: [stop]
            """))
        let event = TriggerEvent(.focus(mode: "deep", state: .on, sequence: 4), time: Self.evening)
        let snapshot = Snapshot(zone: Self.prague, lastFired: ["deep": Self.evening - 600])
        let answers = engine.explain(event, zone: Self.prague, noticed: Self.evening) { snapshot }
        #expect(answers.map(\.trace) == [RuleTrace(
            rule: "deep", occurred: Self.evening, noticed: Self.evening, trigger: "focus deep on", verdict: .coolingDown,
            detail: "last fired 2026-11-23T17:54:00+01:00; cooldown 30m until 2026-11-23T18:24:00+01:00")])
        #expect(engine.evaluate(event, snapshot: snapshot).isEmpty)
    }
}
