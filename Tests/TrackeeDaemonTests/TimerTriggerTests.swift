import Foundation
import Logging
import Testing
import TrackeeAutomation
import TrackeeCore
import TrackeeRules
import TrackeeStore
@testable import TrackeeDaemon

/// `timer:` triggers on a real store: `running_for` edges through the
/// timed window (on time, late after a suspend, skipped past max_late),
/// `started` and `stopped` from intents whoever applied them, the loop
/// cut, and the stop at a stated time.
@Suite struct TimerTriggerTests {
    /// Monday 2026-11-23 09:00 in Prague.
    let nine = Instant(seconds: 1_795_420_800)
    func hours(_ h: Int64) -> Int64 { h * 3600 }

    struct Setup {
        let directory: String
        let runner: Runner
        let automation: Automation
        var store: Store { runner.store }
    }

    /// Runs `body` on a fresh store, removed after the store is closed.
    func withSetup(_ yaml: String, _ body: (Setup) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.path + "/trackee-timer-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(setup(yaml, in: directory))
    }

    func setup(_ yaml: String, in dir: String) throws -> Setup {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let loaded = Automation.load([RuleFile(path: "rules.yaml", text: yaml)])
        #expect(loaded.errors == [])
        let runner = Runner(
            store: try Store(path: dir + "/store.sqlite3"), zone: try Zone(identifier: "Europe/Prague"), environment: [:],
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, waitForPrograms: true, newProjects: .create)
        return Setup(directory: dir, runner: runner, automation: loaded.automation)
    }

    /// A timer started on the command line, as `trackee start` applies it.
    func startByHand(_ s: Setup, _ project: String, at: Instant, client: String? = nil, tags: [String] = []) throws {
        _ = try s.store.apply(
            Intent(.start(TimerParameters(project: project, client: client, tags: tags)), at: at, source: .cli), now: at)
    }

    static let longTimer = """
        rules:
          - id: long-timer
            when: {timer: {running_for: 4h}}
            do:
              - notify: "{{trigger.project}} has run for {{trigger.elapsed}} since {{trigger.start}}"
        """

    @Test func runningForFiresOnceAtStartPlusTheLength() throws {
        try withSetup(Self.longTimer) { s in
            _ = try s.runner.tick(s.automation, now: nine - 60)
            try startByHand(s, "Docs", at: nine)
            #expect(try s.runner.tick(s.automation, now: nine + hours(4) - 1).reports.isEmpty)
            let report = try s.runner.tick(s.automation, now: nine + hours(4) + 1)
            #expect(report.reports.map(\.firing.key.text) == ["long-timer@timer:running_for:1:14400"])
            #expect(report.reports.map(\.firing.time) == [nine + hours(4)])
            #expect(report.reports.first?.firing.actions == [
                .notify(title: "Docs has run for 4h 00m since 2026-11-23T09:00:00+01:00", body: nil)
            ])
            #expect(report.reports.first?.firing.description
                    == "rule \"long-timer\": timer \"Docs\" running for 4h 00m at 2026-11-23T13:00:00+01:00")
            #expect(try s.runner.tick(s.automation, now: nine + hours(6)).reports.isEmpty)
            // The daemon's deadline for a running timer is its edge.
            #expect(s.automation.nextElapse(after: nine + 60, zone: s.runner.zone, state: s.runner.state) == nine + hours(4))
        }
    }

    @Test func aTimerStoppedBeforeTheLengthFiresNothing() throws {
        try withSetup(Self.longTimer) { s in
            _ = try s.runner.tick(s.automation, now: nine - 60)
            try startByHand(s, "Docs", at: nine)
            _ = try s.store.apply(Intent(.stop, at: nine + hours(3), source: .cli), now: nine + hours(3))
            #expect(try s.runner.tick(s.automation, now: nine + hours(5)).reports.isEmpty)
            #expect(s.automation.nextElapse(after: nine + hours(5), zone: s.runner.zone, state: s.runner.state) == nil)
        }
    }

    /// Asleep from 12:00 to 13:05: the 13:00 edge is 5 minutes late, within
    /// max_late (10m by default), and fires once, at its own time.
    @Test func afterASuspendItFiresOnceLate() throws {
        try withSetup(Self.longTimer) { s in
            _ = try s.runner.tick(s.automation, now: nine - 60)
            try startByHand(s, "Docs", at: nine)
            _ = try s.runner.tick(s.automation, now: nine + hours(3))
            let report = try s.runner.tick(s.automation, now: nine + hours(4) + 300)
            #expect(report.reports.map(\.firing.time) == [nine + hours(4)])
            #expect(report.skipped.isEmpty)
            #expect(try s.runner.tick(s.automation, now: nine + hours(4) + 400).reports.isEmpty)
        }
    }

    /// Asleep from 12:00 to 14:00: the edge is an hour late, past max_late.
    @Test func pastMaxLateItIsSkipped() throws {
        try withSetup(Self.longTimer) { s in
            _ = try s.runner.tick(s.automation, now: nine - 60)
            try startByHand(s, "Docs", at: nine)
            _ = try s.runner.tick(s.automation, now: nine + hours(3))
            let report = try s.runner.tick(s.automation, now: nine + hours(5))
            #expect(report.reports.isEmpty)
            #expect(report.skipped.map(\.event.occurrence) == ["timer:running_for:1:14400"])
            #expect(report.skipped.map { "\($0.reason)" } == ["noticed more than max_late after its time"])
            #expect(try s.store.lastFirings() == [:])
        }
    }

    /// `started` and `stopped` from the command line reach rules at the
    /// next pass, through the cursor over the intent log, filtered by
    /// project, client and tag.
    @Test func startedAndStoppedFireThroughTheirFilters() throws {
        try withSetup("""
            rules:
              - id: client-start
                when: {timer: started, client: ACME}
                do: [{notify: "started {{trigger.project}} at {{trigger.start}}"}]
              - id: billable-stop
                when: {timer: stopped, tag: billable}
                do: [{notify: "{{trigger.project}} stopped after {{trigger.elapsed}}, ended {{trigger.end}}"}]
              - id: docs-start
                when: {timer: started, project: docs}
                do: [{notify: "docs"}]
            """) { s in
            #expect(try s.runner.tick(s.automation, now: nine - 60).reports.isEmpty)   // sets the cursor
            try startByHand(s, "Support", at: nine, client: "ACME", tags: ["billable"])
            try startByHand(s, "Docs", at: nine + 1800)   // switches: Support stopped, Docs started
            let report = try s.runner.tick(s.automation, now: nine + 3600)
            #expect(report.reports.map(\.firing.key.text) == [
                "client-start@timer:started:1", "billable-stop@timer:stopped:1", "docs-start@timer:started:2",
            ])
            #expect(report.reports.map(\.firing.actions) == [
                [.notify(title: "started Support at 2026-11-23T09:00:00+01:00", body: nil)],
                [.notify(title: "Support stopped after 30m, ended 2026-11-23T09:30:00+01:00", body: nil)],
                [.notify(title: "docs", body: nil)],
            ])
            #expect(report.reports.map(\.firing.time) == [nine, nine + 1800, nine + 1800])
            // The cursor moved: nothing fires twice.
            #expect(try s.runner.tick(s.automation, now: nine + 3700).reports.isEmpty)
            #expect(try s.store.watermark(Runner.intentCursor) == Instant(seconds: 2))
        }
    }

    /// Two rules that would answer each other for ever: a stop on every
    /// start, and a start on every stop. A firing on a started or stopped
    /// event makes no more timer events, so one start by hand is one stop,
    /// and no rule answers it.
    @Test func aTwoRulePingPongStopsAfterOneAnswer() throws {
        try withSetup("""
            rules:
              - id: ping
                when: {timer: started}
                do: [stop]
              - id: pong
                when: {timer: stopped}
                do: [{start: {project: Again}}]
            """) { s in
            _ = try s.runner.tick(s.automation, now: nine - 60)
            try startByHand(s, "Docs", at: nine)
            let first = try s.runner.tick(s.automation, now: nine + 60)
            #expect(first.reports.map(\.firing.key.text) == ["ping@timer:started:1"])
            #expect(try s.store.running() == nil)
            #expect(try s.runner.tick(s.automation, now: nine + 120).reports.isEmpty)
            #expect(try s.store.log(limit: 10).map(\.project) == ["Docs"])
            // Started and stopped by hand before a pass: ping's stop changes
            // nothing, pong starts Again, and ping does not answer that start.
            try startByHand(s, "Docs", at: nine + 600)
            _ = try s.store.apply(Intent(.stop, at: nine + 660, source: .cli), now: nine + 660)
            let second = try s.runner.tick(s.automation, now: nine + 720)
            #expect(second.reports.map(\.firing.key.text) == ["ping@timer:started:2", "pong@timer:stopped:2"])
            #expect(try s.store.running()?.project == "Again")
            #expect(try s.runner.tick(s.automation, now: nine + 780).reports.isEmpty)
            #expect(try s.store.running()?.project == "Again")
        }
    }

    /// A timer stopped by a rule on a timed edge is a `stopped` event for
    /// other rules at once, in the same pass: only events made by intents
    /// are cut.
    @Test func aStopAtAStatedTimeEndsTheEntryThereAndIsAStoppedEvent() throws {
        try withSetup("""
            rules:
              - id: overnight
                when: {timer: {running_for: 10h}}
                max_late: 12h
                do:
                  - stop: {at: "{{trigger.start + 8h}}"}
              - id: told
                when: {timer: stopped}
                do: [{notify: "stopped at {{trigger.end}}"}]
            """) { s in
            _ = try s.runner.tick(s.automation, now: nine - 60)
            try startByHand(s, "Docs", at: nine)
            let report = try s.runner.tick(s.automation, now: nine + hours(10) + 60)
            #expect(report.reports.map(\.firing.key.text) == ["overnight@timer:running_for:1:36000", "told@timer:stopped:1"])
            #expect(report.reports.last?.firing.actions == [.notify(title: "stopped at 2026-11-23T17:00:00+01:00", body: nil)])
            #expect(try s.store.entry(id: 1).end == nine + hours(8))
            #expect(try s.runner.tick(s.automation, now: nine + hours(11)).reports.isEmpty)
        }
    }

    @Test func aStopBeforeTheEntrysStartIsRefusedAndTheTimerRunsOn() throws {
        try withSetup("""
            rules:
              - id: backwards
                when: {timer: {running_for: 1h}}
                do:
                  - stop: {at: "{{trigger.start - 1h}}"}
            """) { s in
            _ = try s.runner.tick(s.automation, now: nine - 60)
            try startByHand(s, "Docs", at: nine)
            let report = try s.runner.tick(s.automation, now: nine + hours(1) + 1)
            #expect(report.reports.count == 1)
            guard case .refused(let reason) = report.reports.first?.status else {
                Issue.record("expected a refusal, got \(String(describing: report.reports.first?.status))")
                return
            }
            #expect(reason == "\(StoreError.endBeforeStart(start: nine, end: nine - 3600))")
            #expect(try s.store.running()?.start == nine)
            // Recorded: it is not tried again at every pass.
            #expect(try s.store.hasFired(FiringKey(rule: "backwards", occurrence: "timer:running_for:1:3600")))
            #expect(try s.runner.tick(s.automation, now: nine + hours(2)).reports.isEmpty)
        }
    }
}
