import Testing
import TrackeeCore
@testable import TrackeeRules

/// `timer:` triggers as rule files write them, what the engine does with
/// their events, and the refusals a misspelt one gets.
@Suite struct TimerTriggerFileTests {
    let entry = Entry(id: 7, project: "Docs", client: "ACME", description: "notes", tags: ["billable", "x"],
                      start: Instant(seconds: 1_795_420_800), end: nil, source: "cli")

    @Test func theThreeEdgesAndTheirFiltersRead() throws {
        let read = try rules("""
            rules:
              - id: long
                when: {timer: {running_for: 4h}}
                do: [stop]
              - id: started
                when: {timer: started, project: Docs, client: acme, tag: billable}
                do: [stop]
              - id: stopped
                when: {timer: stopped}
                do: [{stop: {at: "{{trigger.start + 8h}}"}}]
            """)
        #expect(read.map { $0.triggers.count } == [1, 1, 1])
        #expect(read[0].triggers[0].isEqual(to: TimerTrigger(.runningFor(14_400))))
        #expect(read[1].triggers[0].isEqual(to: TimerTrigger(.started, project: "Docs", client: "acme", tag: "billable")))
        #expect(read[2].triggers[0].isEqual(to: TimerTrigger(.stopped)))
        #expect(read[2].actions == [.stopAt(template("{{trigger.start + 8h}}"))])
    }

    @Test func filtersCompareWithoutRegardToCaseAndEachMustMatch() {
        let zone = Zone.utc
        let started = TriggerEvent(.timer(.started, entry: entry), time: entry.start)
        #expect(TimerTrigger(.started, project: "docs", client: "acme", tag: "BILLABLE").accepts(started, zone: zone))
        #expect(!TimerTrigger(.started, project: "docs", tag: "other").accepts(started, zone: zone))
        #expect(!TimerTrigger(.stopped).accepts(started, zone: zone))
        let edge = TriggerEvent(.timer(.runningFor(rule: "r", seconds: 3600), entry: entry), time: entry.start + 3600)
        #expect(TimerTrigger(.runningFor(3600)).accepts(edge, zone: zone))
        #expect(!TimerTrigger(.runningFor(7200)).accepts(edge, zone: zone))
    }

    @Test func theEventGivesTheEntryToTemplates() throws {
        var stopped = entry
        stopped.end = entry.start + 5400
        let event = TriggerEvent(.timer(.stopped, entry: stopped), time: stopped.end!)
        let prague = try Zone(identifier: "Europe/Prague")
        #expect(event.fields(zone: prague) == [
            "transition": "stopped", "entry": "7", "project": "Docs", "client": "ACME", "description": "notes",
            "tags": "billable,x", "start": "2026-11-23T09:00:00+01:00", "end": "2026-11-23T10:30:00+01:00",
            "elapsed": "1h 30m",
        ])
        #expect(event.occurrence == "timer:stopped:7")
        #expect(event.rule == nil)
        #expect(!event.isTimed)
        #expect(event.summary == "timer \"Docs\" stopped")
        let edge = TriggerEvent(.timer(.runningFor(rule: "long", seconds: 14_400), entry: entry), time: entry.start + 14_400)
        #expect(edge.occurrence == "timer:running_for:7:14400")
        #expect(edge.rule == "long")
        #expect(edge.isTimed)
    }

    @Test func aStartedRuleFiresOnceAndShiftsTimesInItsTemplates() throws {
        let engine = RuleEngine(rules: try rules("""
            rules:
              - id: hello
                when: {timer: started, project: Docs}
                do:
                  - notify: "{{trigger.project}} from {{trigger.start}} until {{trigger.start + 8h}} or {{ trigger.time - 30m }}"
            """))
        let event = TriggerEvent(.timer(.started, entry: entry), time: entry.start)
        let firings = engine.evaluate(event, snapshot: Snapshot(zone: try Zone(identifier: "Europe/Prague")))
        #expect(firings.map(\.key.text) == ["hello@timer:started:7"])
        #expect(firings.first?.actions == [.notify(
            title: "Docs from 2026-11-23T09:00:00+01:00 until 2026-11-23T17:00:00+01:00 or 2026-11-23T08:30:00+01:00",
            body: nil)])
    }

    @Test func misspeltTimerTriggersAreRefusedWithWhereAndWhy() {
        #expect(errorLines("rules:\n  - id: a\n    when: {timer: running}\n    do: [stop]\n") == [
            "rules.yaml:3:19: rule \"a\": when.timer: running_for takes a length: write timer: {running_for: 4h}"
        ])
        #expect(errorLines("rules:\n  - id: a\n    when: {timer: begun}\n    do: [stop]\n") == [
            "rules.yaml:3:19: rule \"a\": when.timer: expected started, stopped or {running_for: DURATION}, found \"begun\""
        ])
        #expect(errorLines("rules:\n  - id: a\n    when: {timer: {running_for: 0s}}\n    do: [stop]\n") == [
            "rules.yaml:3:33: rule \"a\": when.timer.running_for: a timer must run longer than 0s, found \"0s\""
        ])
        #expect(errorLines("rules:\n  - id: a\n    when: {timer: started}\n    do: [{stop: {at: \"{{trigger.project + 1h}}\"}}]\n") == [
            "rules.yaml:4:22: rule \"a\": do[0].stop.at: only a time (trigger.time, trigger.start, trigger.end) can be shifted by a length, not trigger.project"
        ])
    }
}

/// Which fields a template may shift is each kind's to say, not a list in
/// the template reader: a calendar edge's start shifts, a schedule's `at`
/// does not, and a rule with two kinds may shift only what both give.
@Suite struct ShiftedFieldTests {
    private func errors(_ when: String, _ text: String) -> [String] {
        RuleSet.load([RuleFile(path: "rules.yaml", text: """
            calendars:
              work: work.ics
            rules:
              - id: a
                when: \(when)
                do: [{notify: "\(text)"}]
            """)], validateSchedule: stubValidateSchedule).errors.map(\.description)
    }

    @Test func eachKindNamesItsOwnTimeFields() {
        #expect(errors("{calendar: work}", "{{trigger.start - 5m}} {{trigger.end + 1h}}") == [])
        #expect(errors("{at: \\\"09:00\\\"}", "{{trigger.time + 1h}}") == [])
        #expect(errors("{at: \\\"09:00\\\"}", "{{trigger.at + 1h}}") == [
            "rules.yaml:6:19: rule \"a\": do[0].notify: only a time (trigger.time) can be shifted by a length, not trigger.at"
        ])
        #expect(errors("[{calendar: work}, {timer: started}]", "{{trigger.start + 1h}}") == [])
        #expect(errors("[{calendar: work}, {focus: deep}]", "{{trigger.start + 1h}}") == [
            "rules.yaml:6:19: rule \"a\": do[0].notify: unknown template field \"trigger.start\"; this rule's triggers give trigger.kind, trigger.time, trigger.rule"
        ])
    }
}
