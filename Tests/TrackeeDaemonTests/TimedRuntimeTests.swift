import Foundation
import Logging
import Testing
import TrackeeAutomation
import TrackeeCore
import TrackeeRules
import TrackeeStore
@testable import TrackeeDaemon

/// What every timed source shares: the watermark under its name for all
/// of them, and focus changes made into events by the focus source.
@Suite struct TimedRuntimeTests {
    /// Monday 2026-11-23 08:00 in Prague.
    let eight = Instant(seconds: 1_795_417_200)

    func runner(_ directory: String) throws -> Runner {
        let store = try Store(path: directory + "/store.sqlite3")
        return Runner(store: store, zone: try Zone(identifier: "Europe/Prague"), environment: [:],
                      logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, waitForPrograms: true,
                      newProjects: .create)
    }

    func automation(_ yaml: String) -> Automation {
        let loaded = Automation.load([RuleFile(path: "rules.yaml", text: yaml)])
        #expect(loaded.errors == [])
        return loaded.automation
    }

    /// Runs `body` on a fresh store, removed after the store is closed.
    func withRunner(_ body: (Runner) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.path + "/trackee-timed-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(runner(dir))
    }

    /// A store from before the watermark covered every timed source keeps
    /// its window: the first tick after the upgrade starts from the old
    /// "schedule" mark, fires what fell due since, and moves "timed".
    @Test func aStoreWithTheFormerWatermarkKeepsItsWindow() throws {
        try withRunner { runner in
            try runner.store.advanceWatermark("schedule", to: eight)
            let rules = automation("""
                rules:
                  - id: start
                    when: {at: "Mon..Fri 09:00"}
                    do: [{start: {project: Office}}]
                """)
            let report = try runner.tick(rules, now: eight + 3601)
            #expect(report.from == eight)
            #expect(report.reports.map(\.firing.key.text) == ["start@at:1795420800"])
            #expect(try runner.store.watermark("timed") == eight + 3601)
            #expect(try runner.timedWatermark() == eight + 3601)
            #expect(try runner.store.running()?.start == Instant(seconds: 1_795_420_800))
        }
    }

    /// A store with no watermark at all: the first tick only sets it.
    @Test func aNewStoreStartsTheWindowAtTheFirstTick() throws {
        try withRunner { runner in
            let rules = automation("""
                rules:
                  - id: start
                    when: {at: "Mon..Fri 09:00"}
                    do: [{start: {project: Office}}]
                """)
            let report = try runner.tick(rules, now: eight + 3601)
            #expect(report.from == nil)
            #expect(report.reports.isEmpty)
            #expect(try runner.store.watermark("timed") == eight + 3601)
            #expect(try runner.store.watermark("schedule") == nil)
        }
    }

    @Test func aFocusChangeIsTheOldModeOffThenTheNewOneOn() {
        let change = FocusChange(sequence: 2, previous: "work", mode: "meeting", at: eight)
        #expect(FocusRuntime.events(change) == [
            TriggerEvent(.focus(mode: "work", state: .off, sequence: 2), time: eight),
            TriggerEvent(.focus(mode: "meeting", state: .on, sequence: 2), time: eight),
        ])
        #expect(FocusRuntime.events(FocusChange(sequence: 1, previous: nil, mode: "work", at: eight))
                == [TriggerEvent(.focus(mode: "work", state: .on, sequence: 1), time: eight)])
        #expect(FocusRuntime.events(FocusChange(sequence: 3, previous: "meeting", mode: nil, at: eight))
                == [TriggerEvent(.focus(mode: "meeting", state: .off, sequence: 3), time: eight)])
    }

    /// `rules next` and `rules check` share one look-ahead: a schedule is
    /// seen past a year, a calendar-less rule set needs no calendar.
    @Test func upcomingLooksAsFarAsAScheduleElapses() throws {
        let rules = automation("""
            rules:
              - id: later
                when: {at: "2029-01-01 09:00"}
                do: [{stop: }]
              - id: daily
                when: {at: "09:00"}
                do: [{stop: }]
            """)
        let zone = try Zone(identifier: "Europe/Prague")
        let next = rules.upcoming(after: eight, count: 2, zone: zone)
        #expect(next.map(\.occurrence) == ["at:1795420800", "at:1795507200"])
        #expect(next.map(\.rule) == ["daily", "daily"])
        let later = rules.upcoming(of: rules.ruleSet.rules[0].triggers[0], rule: rules.ruleSet.rules[0], after: eight,
                                   count: 3, zone: zone)
        #expect(later?.map(\.time) == [Instant(seconds: 1_861_948_800)])
    }
}
