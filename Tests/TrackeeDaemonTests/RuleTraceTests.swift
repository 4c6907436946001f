import Foundation
import Logging
import Testing
import TrackeeAutomation
import TrackeeCore
import TrackeeRules
import TrackeeStore
@testable import TrackeeDaemon

/// What the runner records about each event for `trackee rules why`, on a
/// real store: a firing with its intents' outcomes, the same occurrence
/// again, a false condition, a cooldown, a `max_late` skip, a focus change
/// no rule waits for, and how many traces a rule keeps.
@Suite struct RuleTraceTests {
    static let rules = """
        rules:
          - id: office
            when: {at: "Mon..Fri 09:00"}
            do:
              - start: {project: Office}
              - notify: {title: Morning}
          - id: late
            when: {at: "Mon..Fri 09:00"}
            if: {time: "10:00-17:00", focus: deep}
            do: [stop]
          - id: deep
            when: {focus: deep}
            cooldown: 1h
            do: [{start: {project: Deep}}]
        """

    /// Monday 2026-11-23 09:00 in Prague.
    static let nine = Instant(seconds: 1_795_420_800)

    struct Setup {
        let directory: String
        let store: Store
        let runner: Runner
        let automation: Automation
    }

    func setup(keep: Int = RuleTrace.defaultKept) throws -> Setup {
        let directory = FileManager.default.temporaryDirectory.path + "/trackee-traces-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = try Store(path: directory + "/store.sqlite3")
        let loaded = Automation.load([RuleFile(path: "rules.yaml", text: Self.rules)])
        #expect(loaded.errors.isEmpty)
        let runner = Runner(store: store, zone: try Zone(identifier: "Europe/Prague"), environment: [:],
                            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, waitForPrograms: true,
                            performSideEffects: false, newProjects: .create, keepTraces: keep)
        return Setup(directory: directory, store: store, runner: runner, automation: loaded.automation)
    }

    func schedule(_ rule: String, at time: Instant = nine) -> TriggerEvent {
        TriggerEvent(.schedule(rule: rule, expression: "Mon..Fri 09:00"), time: time)
    }

    @Test func aFiringIsTracedWithItsIntentsOutcomesAndAgainAsAlreadyFired() throws {
        let s = try setup()
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        _ = try s.runner.handle(schedule("office"), automation: s.automation, now: Self.nine + 5)
        _ = try s.runner.handle(schedule("office"), automation: s.automation, now: Self.nine + 30)
        let fired = RuleTrace(
            rule: "office", occurred: Self.nine, noticed: Self.nine + 5, trigger: "schedule Mon..Fri 09:00", verdict: .fired,
            key: "office@at:1795420800",
            actions: [
                .init(action: "start Office", key: "office@at:1795420800#0", outcome: "started"),
                .init(action: "notify \"Morning\""),
            ])
        var again = fired
        again.noticed = Self.nine + 30
        again.verdict = .alreadyFired
        again.actions[0].outcome = nil
        #expect(try s.store.traces(rule: "office", limit: 5) == [again, fired])
    }

    @Test func aFalseConditionIsTracedWithEveryConditionAndItsInput() throws {
        let s = try setup()
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        #expect(try s.runner.handle(schedule("late"), automation: s.automation, now: Self.nine).isEmpty)
        #expect(try s.store.traces(rule: "late", limit: 5) == [
            RuleTrace(rule: "late", occurred: Self.nine, noticed: Self.nine, trigger: "schedule Mon..Fri 09:00",
                      verdict: .conditionFalse, conditions: [
                          .init(condition: "time 10:00-17:00", input: "09:00", holds: false),
                          .init(condition: "focus deep", input: "focus is none", holds: false),
                      ]),
        ])
    }

    @Test func aCooldownIsTracedWithTheLastFiring() throws {
        let s = try setup()
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        _ = try s.runner.focus("deep", .on, automation: s.automation, at: Self.nine, source: .cli)
        _ = try s.runner.focus("deep", .off, automation: s.automation, at: Self.nine + 600, source: .cli)
        _ = try s.runner.focus("deep", .on, automation: s.automation, at: Self.nine + 1200, source: .cli)
        let traces = try s.store.traces(rule: "deep", limit: 5)
        #expect(traces.map(\.verdict) == [.coolingDown, .fired])
        #expect(traces.first == RuleTrace(
            rule: "deep", occurred: Self.nine + 1200, noticed: Self.nine + 1200, trigger: "focus deep on", verdict: .coolingDown,
            detail: "last fired 2026-11-23T09:00:00+01:00; cooldown 1h 00m until 2026-11-23T10:00:00+01:00"))
        // The focus going off waits for no rule: kept under no rule.
        #expect(try s.store.traces(rule: nil, limit: 5) == [
            RuleTrace(rule: nil, occurred: Self.nine + 600, noticed: Self.nine + 600, trigger: "focus deep off", verdict: .noRule),
        ])
    }

    /// Noticed two hours late, past `max_late` (10m): skipped, and the
    /// trace says so and how late.
    @Test func aMaxLateSkipIsTraced() throws {
        let s = try setup()
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        let report = try s.runner.evaluate(s.automation, after: Self.nine - 3600, now: Self.nine + 7200)
        #expect(report.skipped.count == 2)
        #expect(try s.store.traces(rule: "office", limit: 5) == [
            RuleTrace(rule: "office", occurred: Self.nine, noticed: Self.nine + 7200, trigger: "schedule Mon..Fri 09:00",
                      verdict: .tooLate, detail: "noticed 2h 00m late"),
        ])
    }

    /// Each rule keeps its newest `keep`; another rule's are not touched.
    @Test func eachRuleKeepsItsNewestTraces() throws {
        let s = try setup(keep: 2)
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        for day: Int64 in 0..<4 {
            _ = try s.runner.handle(schedule("late", at: Self.nine + day * 86_400), automation: s.automation,
                                    now: Self.nine + day * 86_400)
        }
        _ = try s.runner.handle(schedule("office"), automation: s.automation, now: Self.nine)
        #expect(try s.store.traces(rule: "late", limit: 10).map(\.occurred.seconds)
            == [1_795_680_000, 1_795_593_600])
        #expect(try s.store.traces(rule: "office", limit: 10).count == 1)
    }

    /// Batched traces wait for the flush; a firing's own trace does not
    /// wait, it is written in the firing's transaction.
    @Test func batchedTracesWaitForTheFlushButAFiringsDoesNot() throws {
        let s = try setup()
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        let batched = Runner(store: s.store, zone: s.runner.zone, environment: [:], logger: s.runner.logger,
                             waitForPrograms: true, performSideEffects: false, newProjects: .create, batchTraces: true)
        _ = try batched.handle(schedule("late"), automation: s.automation, now: Self.nine)
        #expect(try s.store.latestTraces(limit: 10).isEmpty)
        _ = try batched.handle(schedule("office"), automation: s.automation, now: Self.nine)
        #expect(try s.store.latestTraces(limit: 10).map(\.rule) == ["office"])
        _ = try batched.handle(schedule("late", at: Self.nine + 86_400), automation: s.automation, now: Self.nine + 86_400)
        batched.flushTraces()
        #expect(try s.store.latestTraces(limit: 10).map { "\($0.rule ?? "-") \($0.occurred.seconds)" }
            == ["late 1795507200", "late 1795420800", "office 1795420800"])
    }
}
