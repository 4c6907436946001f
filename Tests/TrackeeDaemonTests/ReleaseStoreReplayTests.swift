import Foundation
import GRDB
import Logging
import Testing
import TrackeeAutomation
import TrackeeCore
import TrackeeStore
@testable import TrackeeDaemon

/// The store the release of 4a1b6c4 made (Tests/Fixtures/store-4a1b6c4),
/// migrated by this build and played again through the runner: the focus
/// changes it recorded, the timed focus line it keyed, and the columns the
/// migration filled from the texts that release wrote.
@Suite struct ReleaseStoreReplayTests {
    /// #filePath is <root>/Tests/TrackeeDaemonTests/ReleaseStoreReplayTests.swift.
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/store-4a1b6c4")
    /// 10:50 that Monday in Prague, after everything the store holds.
    static let later = Instant(seconds: 1_795_427_400)

    final class Copy {
        let directory: String
        let store: Store
        let runner: Runner
        let automation: Automation

        init() throws {
            directory = FileManager.default.temporaryDirectory.path + "/trackee-release-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: ReleaseStoreReplayTests.fixture.appendingPathComponent("trackee.sqlite3").path,
                toPath: directory + "/trackee.sqlite3")
            store = try Store(path: directory + "/trackee.sqlite3")
            let zone = try Zone(identifier: "Europe/Prague")
            let read = RuleFiles.read([ReleaseStoreReplayTests.fixture.appendingPathComponent("rules.yaml").path])
            let loaded = Automation.load(read.files)
            let calendars = CalendarFiles.read(loaded.automation.ruleSet.calendars, zone: zone, environment: [:])
            automation = Automation(loaded.automation.ruleSet, calendars: calendars.calendars)
            runner = Runner(store: store, zone: zone, environment: [:],
                            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
                            waitForPrograms: true, performSideEffects: false, newProjects: .create)
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        func counts() throws -> [Int] {
            try DatabaseQueue(path: directory + "/trackee.sqlite3").read { db in
                try ["rule_firing", "firing", "intent_log", "entry", "focus_change"].map {
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)") ?? -1
                }
            }
        }

        func column(_ sql: String) throws -> [String?] {
            try DatabaseQueue(path: directory + "/trackee.sqlite3").read { try String?.fetchAll($0, sql: sql) }
        }
    }

    @Test func theMigrationFillsTheTriggerAndEachRuleIntentsFiring() throws {
        let copy = try Copy()
        #expect(try copy.column("SELECT trigger FROM rule_firing ORDER BY occurred") == [
            "schedule Mon..Fri 09:00", "calendar work \"Standup\" start", "calendar work \"Standup\" end",
            "focus deep on", "arrive office", "focus meeting on",
        ])
        #expect(try copy.column("SELECT firing FROM intent_log ORDER BY id") == [
            nil, "office-hours@at:1795420800", "standup@cal:work:standup@example.com:1795422600:start:-120",
            "standup-end@cal:work:standup@example.com:1795422600:end", "deep@focus:1",
            "arrive@place:office:arrive:1795424820", "meeting@focus:2", "meeting@focus:2", nil,
        ])
        let history = try copy.store.intentHistory(limit: 100)
        #expect(history.map(\.source) == [
            .cli, .rule("meeting"), .rule("meeting"), .rule("arrive"), .rule("deep"), .rule("standup-end"),
            .rule("standup"), .rule("office-hours"), .cli,
        ])
        #expect(history.map(\.trigger) == [
            nil, "focus meeting on", "focus meeting on", "arrive office", "focus deep on",
            "calendar work \"Standup\" end", "calendar work \"Standup\" start", "schedule Mon..Fri 09:00", nil,
        ])
    }

    @Test func theRecordedFocusChangesFireNothingAgain() throws {
        let copy = try Copy()
        let before = try copy.counts()
        #expect(before == [6, 9, 9, 6, 2])
        var statuses: [String] = []
        for change in try copy.store.focusChanges(after: 0) {
            for event in FocusRuntime.events(change) {
                for report in try copy.runner.handle(event, automation: copy.automation, now: Self.later) {
                    statuses.append("\(report.firing.key.text) \(report.status)")
                }
            }
        }
        #expect(statuses == ["deep@focus:1 alreadyFired", "meeting@focus:2 alreadyFired"])
        #expect(try copy.counts() == before)
    }

    @Test func theTimedFocusLineTheReleaseKeyedChangesNothing() throws {
        let copy = try Copy()
        let at = Instant(seconds: 1_795_425_600)  // 10:20
        let key = FocusLineKey(time: at, state: .on, mode: "Meeting")
        #expect(try copy.column("SELECT key FROM focus_change ORDER BY seq") == [nil, key.text])
        // Clear the focus first, so that only the key can hold the line back.
        _ = try copy.store.setFocus(nil, at: at + 60, source: .cli)
        let outcome = try copy.runner.focus("meeting", .on, automation: copy.automation, at: at, source: .stdin, key: key)
        guard case .unchanged = outcome else {
            Issue.record("the replayed line changed the focus: \(outcome)")
            return
        }
        #expect(try copy.counts() == [6, 9, 9, 6, 3])
    }

    @Test func theCommandLineKeysAreAppliedBefore() throws {
        let copy = try Copy()
        let again = try copy.store.apply(
            Intent(.start(TimerParameters(project: "Docs")), at: Self.later, source: .cli, key: "cli-docs"), now: Self.later)
        #expect(again.replayed)
        #expect(again.outcome == .started)
        #expect(try copy.counts() == [6, 9, 10, 6, 2])
    }
}
