import Foundation
import Logging
import Testing
import TrackeeAutomation
import TrackeeCore
import TrackeeRules
import TrackeeStore
@testable import TrackeeDaemon

/// The desk kinds through the daemon on a real store and a manual clock:
/// idleness that ends the entry when it began, activity again, a lock
/// reported twice, replayed lines and a restart that fire nothing again.
@Suite struct DeskTriggerTests {
    /// Thursday 2026-11-26 09:00 in Prague.
    let nine = Instant(seconds: 1_795_680_000)
    func minutes(_ m: Int64) -> Int64 { m * 60 }

    static let rules = """
        rules:
          - id: away
            when: {idle: {for: 10m}}
            do: [{stop: {at: "{{trigger.idle_since}}"}}]
          - id: back
            when: {idle: {ended: true, after: 10m}}
            do: [{start: {project: "Back {{trigger.idle_duration}} since {{trigger.idle_since}}"}}]
          - id: lock
            when: {session: locked}
            do: [{start: {project: Locked}}]
          - id: dock
            when: {device: {usb: "17ef:30b4"}}
            do: [{start: {project: Desk}}]
          - id: office
            when: {network: {ssid: ACME-Office}}
            do: [{start: {project: Office}}]
        """

    typealias Setup = DeskDaemon

    /// A daemon on a fresh store in `directory` (made when nil), started at `start`.
    func setup(directory: String? = nil, at start: Instant) async throws -> Setup {
        try await DeskDaemon(rules: Self.rules, directory: directory, at: start)
    }

    func startByHand(_ s: Setup, _ project: String, at: Instant) throws {
        _ = try s.store.apply(Intent(.start(TimerParameters(project: project)), at: at, source: .cli), now: at)
    }

    /// The rules' intents, oldest first: key, what fired it, outcome.
    func ruleIntents(_ s: Setup) throws -> [String] {
        try s.store.intentHistory(limit: 50).reversed().filter { if case .rule = $0.source { true } else { false } }
            .map { "\($0.key ?? "") \($0.trigger ?? "") \($0.outcome)" }
    }

    /// What `trackee run` asks Mutter's watch for (trackee-rules(5),
    /// idle): the shortest idle length the enabled rules wait for, a `for`
    /// or an `after`, at most a minute, and a minute when none waits.
    @Test func theIdleWatchIsTheShortestLengthTheRulesWaitForAtMostAMinute() async throws {
        let s = try await setup(at: nine)
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        var intervals = [await s.core.idleWatchInterval]
        for rules in [
            "rules:\n  - {id: a, when: {idle: {for: 45s}}, do: [{stop: {}}]}\n"
                + "  - {id: b, when: {idle: {ended: true, after: 20s}}, do: [{stop: {}}]}\n"
                + "  - {id: c, enabled: false, when: {idle: {for: 5s}}, do: [{stop: {}}]}\n",
            "rules:\n  - {id: a, when: {idle: {for: 90s}}, do: [{stop: {}}]}\n",
            "rules:\n  - {id: a, when: {session: locked}, do: [{stop: {}}]}\n",
        ] {
            try rules.write(toFile: s.directory + "/rules.yaml", atomically: true, encoding: .utf8)
            await s.core.reload()
            intervals.append(await s.core.idleWatchInterval)
        }
        #expect(intervals == [60_000, 20_000, 60_000, 60_000])
    }

    @Test func tenMinutesIdleEndsTheEntryWhenIdlenessBeganToTheSecond() async throws {
        let s = try await setup(at: nine)
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        try startByHand(s, "Docs", at: nine)
        #expect(await s.core.pass() == nil)
        // Mutter reports a minute in: idle since 09:50.
        s.clock.now = nine + minutes(51)
        await s.core.handle(.idle(since: nine + minutes(50)), at: s.clock.now)
        #expect(try s.store.running()?.project == "Docs")
        #expect(await s.core.pass() == nine + minutes(60))
        s.clock.now = nine + minutes(60)
        #expect(await s.core.pass() == nil)
        #expect(try s.store.running() == nil)
        let entry = try #require(try s.store.log(limit: 1).first)
        #expect(entry.project == "Docs")
        #expect(entry.end == nine + minutes(50))
        #expect(try ruleIntents(s) == ["away@idle:1795683000:for:600#0 idle 10m stopped"])

        // Back at 10:05: the back rule fires once; the same report again
        // (with the source's since, as logind gives it) fires nothing.
        s.clock.now = nine + minutes(65)
        await s.core.handle(.active(since: nil), at: s.clock.now)
        await s.core.handle(.active(since: nine + minutes(50)), at: s.clock.now)
        #expect(try s.store.running()?.project == "Back 15m since 2026-11-26T09:50:00+01:00")
        #expect(try ruleIntents(s) == [
            "away@idle:1795683000:for:600#0 idle 10m stopped",
            "back@idle:1795683000:ended#0 active after 15m idle started",
        ])
    }

    /// Idleness reported after the length had passed fires at once, at
    /// its own time; shorter than `after:`, coming back fires nothing.
    @Test func aLateReportFiresAtOnceAndAShortAbsenceIsNotBack() async throws {
        let s = try await setup(at: nine)
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        try startByHand(s, "Docs", at: nine)
        s.clock.now = nine + minutes(30)
        await s.core.handle(.idle(since: nine + minutes(5)), at: s.clock.now)
        #expect(try s.store.log(limit: 1).first?.end == nine + minutes(5))
        // A short absence: the ended edge is not one `back` waits for.
        await s.core.handle(.active(since: nil), at: nine + minutes(31))
        await s.core.handle(.idle(since: nine + minutes(40)), at: nine + minutes(40))
        await s.core.handle(.active(since: nil), at: nine + minutes(45))
        #expect(try ruleIntents(s) == [
            "away@idle:1795680300:for:600#0 idle 10m stopped",
            "back@idle:1795680300:ended#0 active after 26m idle started",
        ])
        // The second period never reached 10m: no deadline is left.
        #expect(await s.core.pass() == nil)
    }

    @Test func aLockReportedTwiceFiresOnce() async throws {
        let s = try await setup(at: nine)
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        await s.core.handle(.session(.locked), at: nine + 10)
        await s.core.handle(.session(.locked), at: nine + 12)
        await s.core.handle(.session(.unlocked), at: nine + 20)
        #expect(try ruleIntents(s) == ["lock@session:locked:1795680010#0 session locked started"])
        await s.core.handle(.session(.locked), at: nine + 30)
        #expect(try ruleIntents(s) == [
            "lock@session:locked:1795680010#0 session locked started",
            "lock@session:locked:1795680030#0 session locked unchanged",
        ])
    }

    /// Lines with their own time, read twice and again after a restart
    /// on the same store (the same idle period still reported): nothing
    /// fires a second time.
    @Test func replayedLinesAndARestartFireNothingTwice() async throws {
        let dir = FileManager.default.temporaryDirectory.path + "/trackee-desk-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lines = [
            #"{"type":"device","action":"added","usb":"17ef:30b4","devpath":"/devices/1-2","time":"2026-11-26T09:10:00+01:00"}"#,
            #"{"type":"network","state":"connected","connection":"ACME","ssid":"ACME-Office","time":"2026-11-26T09:20:00+01:00"}"#,
            #"{"type":"idle","since":"2026-11-26T09:30:00+01:00","time":"2026-11-26T09:45:00+01:00"}"#,
        ]
        let expected = [
            "dock@device:added:/devices/1-2:1795680600#0 device 17ef:30b4 added started",
            "office@network:connected:ACME:1795681200#0 network ACME-Office connected switched",
            "away@idle:1795681800:for:600#0 idle 10m stopped",
        ]
        for _ in 0..<2 {
            let s = try await setup(directory: dir, at: nine + minutes(45))
            for _ in 0..<2 {
                for (index, text) in lines.enumerated() {
                    let line = try #require(try EventLine.parse(text, line: index + 1, now: s.clock.now, zone: s.runner.zone))
                    await s.core.handle(line)
                }
            }
            #expect(try ruleIntents(s) == expected)
        }
    }

    /// The schedule loop sleeping a minute is woken by an idle period whose
    /// length falls sooner; the same period reported again wakes nothing.
    @Test func aNewIdleDeadlineRingsTheAlarm() async throws {
        let s = try await setup(at: nine)
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        _ = await s.core.pass()
        let asleep = Task { await s.core.alarm.sleep(nanoseconds: 60_000_000_000) }
        await s.clock.untilAsleep()
        await s.core.handle(.idle(since: nine - minutes(5)), at: nine)
        await asleep.value
        #expect(s.clock.sleeping == 0)
        #expect(await s.core.pass() == nine + minutes(5))
        let again = Task { await s.core.alarm.sleep(nanoseconds: 60_000_000_000) }
        await s.clock.untilAsleep()
        await s.core.handle(.idle(since: nine - minutes(5)), at: nine + 30)
        #expect(s.clock.sleeping == 1)
        #expect(s.clock.advance(to: nine + 60) == 1)
        await again.value
    }

    /// Idle since 08:50, before the running entry began at 09:00: the stop
    /// is refused, and the entry keeps running.
    @Test func aStopBeforeTheEntryBeganIsRefused() async throws {
        let s = try await setup(at: nine)
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        try startByHand(s, "Docs", at: nine)
        let automation = Automation.load([RuleFile(path: "rules.yaml", text: Self.rules)]).automation
        let since = nine - minutes(10)
        let reports = try s.runner.handle(TriggerEvent(.idleReached(since: since, threshold: 600), time: nine),
                                          automation: automation, now: nine + 5)
        #expect(reports.map(\.status) == [.refused("\(StoreError.endBeforeStart(start: nine, end: since))")])
        #expect(try s.store.running()?.start == nine)
        #expect(try s.store.entryCount() == 1)
    }
}
