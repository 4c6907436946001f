import Foundation
import GRDB
import Testing
import TrackeeCore
@testable import TrackeeStore

/// The store's side of automations: focus changes, the rule firing ledger
/// and watermarks.
@Suite struct AutomationTests {
    @Test func focusChangesAreNumberedAndARepeatChangesNothing() throws {
        let t = try TemporaryStore()
        #expect(try t.store.focus() == Focus(mode: nil, sequence: 0, changed: nil))

        let work = try #require(try t.store.setFocus("work", at: nine, source: .cli))
        #expect(work == FocusChange(sequence: 1, previous: nil, mode: "work", at: nine))

        #expect(try t.store.setFocus("WORK", at: at(minutes: 5), source: .cli) == nil)
        #expect(try t.store.focus() == Focus(mode: "work", sequence: 1, changed: nine))

        let meeting = try #require(try t.store.setFocus("meeting", at: at(minutes: 10), source: .cli))
        #expect(meeting == FocusChange(sequence: 2, previous: "work", mode: "meeting", at: at(minutes: 10)))

        let cleared = try #require(try t.store.setFocus(nil, at: at(minutes: 20), source: .stdin))
        #expect(cleared == FocusChange(sequence: 3, previous: "meeting", mode: nil, at: at(minutes: 20)))
        #expect(try t.store.setFocus(nil, at: at(minutes: 30), source: .cli) == nil)
        #expect(try t.store.focus() == Focus(mode: nil, sequence: 3, changed: at(minutes: 20)))
    }

    @Test func aBlankFocusModeIsRefused() throws {
        let t = try TemporaryStore()
        #expect(throws: StoreError.emptyName(kind: "focus mode")) { try t.store.setFocus("  ", at: nine, source: .cli) }
    }

    @Test func aFiringAppliesItsIntentsAtTheOccurrenceAndNeverTwice() throws {
        let t = try TemporaryStore()
        let key = FiringKey(rule: "office", occurrence: "at:\(nine.seconds)")
        let intents = [
            Intent(.start(TimerParameters(project: "Docs")), at: nine, source: .rule("office"), key: key.intentKey(0)),
        ]
        // Noticed four minutes late: the entry still starts at nine.
        let first = try #require(try t.store.fire(
            key: key, occurred: nine, trigger: "schedule 09:00", description: "office at 09:00", intents: intents,
            now: at(minutes: 4)))
        #expect(first.results.map(\.outcome) == [.started])
        #expect(try t.store.running()?.start == nine)
        #expect(try t.store.running()?.source == "rule:office")

        // Re-evaluating the same window, from this store or another handle.
        let again = try Store(path: t.path)
        #expect(try again.fire(
            key: key, occurred: nine, trigger: "schedule 09:00", description: "office at 09:00", intents: intents,
            now: at(minutes: 9)) == nil)
        #expect(try t.store.entryCount() == 1)
        #expect(try t.store.hasFired(key))
        #expect(try !t.store.hasFired(FiringKey(rule: "office", occurrence: "at:0")))
        #expect(try t.store.lastFirings() == ["office": nine])
    }

    /// Under `.refuse`, a firing that starts a project that does not exist
    /// applies none of its intents (not even the stop before the start),
    /// is recorded all the same, and is not tried again.
    @Test func aFiringRefusedForAMissingProjectIsRecordedAndChangesNothing() throws {
        let t = try TemporaryStore()
        _ = try t.store.addProject("Office", client: nil, now: nine)
        _ = try t.store.apply(Intent(.start(TimerParameters(project: "Office")), at: nine, source: .cli), now: nine)
        let key = FiringKey(rule: "office", occurrence: "at:\(at(minutes: 60).seconds)")
        let intents = [
            Intent(.stop, at: at(minutes: 60), source: .rule("office")),
            Intent(.start(TimerParameters(project: "Ofice")), at: at(minutes: 60), source: .rule("office")),
        ]
        let refused = try #require(try t.store.fire(
            key: key, occurred: at(minutes: 60), trigger: "schedule 10:00", description: "office at 10:00", intents: intents,
            now: at(minutes: 61), newProjects: .refuse))
        #expect(refused == FiringOutcome(results: [], refused: .noSuchProject(name: "Ofice", client: nil, nearest: "Office")))
        #expect(try t.store.running()?.project == "Office")
        #expect(try t.store.running()?.start == nine)
        #expect(try t.store.projects().map(\.name) == ["Office"])
        #expect(try t.store.intentHistory(limit: 10, before: nil, source: nil).count == 1)
        #expect(try t.store.hasFired(key))
        #expect(try t.store.fire(
            key: key, occurred: at(minutes: 60), trigger: "schedule 10:00", description: "office at 10:00", intents: intents,
            now: at(minutes: 62), newProjects: .refuse) == nil)
    }

    @Test func aCalendarFiringFromBeforeOffsetKeysStandsForEveryOffsetOfItsEdge() throws {
        // A store as the release before offset keys left it: its -5m trigger
        // fired the standup's start under the key without the offset.
        let old = try OlderStore(upTo: "v7-add-keys") { db in
            try db.execute(
                sql: "INSERT INTO rule_firing (key, rule, occurred, fired, description) VALUES (?, 'meet', ?, ?, 'meet')",
                arguments: ["meet@cal:work:standup:-:start", nine.seconds - 300, nine.seconds - 300])
        }
        defer { withExtendedLifetime(old) {} }
        let path = old.path
        let store = try Store(path: path)
        func fire(_ occurrence: String, former: String?) throws -> Bool {
            try store.fire(
                key: FiringKey(rule: "meet", occurrence: occurrence),
                formerKey: former.map { FiringKey(rule: "meet", occurrence: $0) }, occurred: nine, trigger: "calendar",
                description: occurrence, intents: [], now: nine) != nil
        }
        // Upgraded, neither the -5m trigger nor the one at 0 fires it again.
        #expect(try !fire("cal:work:standup:-:start:-300", former: "cal:work:standup:-:start"))
        #expect(try !fire("cal:work:standup:-:start", former: nil))
        // A firing recorded after the upgrade is one offset's only: the
        // trigger at 0 fires the next day's standup, and the one at +5m
        // still fires after it, once.
        #expect(try fire("cal:work:standup:20261121:start", former: nil))
        #expect(try fire("cal:work:standup:20261121:start:+300", former: "cal:work:standup:20261121:start"))
        #expect(try !fire("cal:work:standup:20261121:start:+300", former: "cal:work:standup:20261121:start"))
        #expect(try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM rule_firing") } == 3)
    }

    @Test func aFailingIntentLeavesNoFiringBehind() throws {
        let t = try TemporaryStore()
        let future = Intent(.start(TimerParameters(project: "Docs")), at: at(minutes: 60), source: .rule("r"), key: "r@x#0")
        #expect(throws: StoreError.startAfterNow(start: at(minutes: 60), now: nine)) {
            try t.store.fire(
                key: FiringKey(rule: "r", occurrence: "x"), occurred: nine, trigger: "r", description: "r", intents: [future],
                now: nine)
        }
        #expect(try !t.store.hasFired(FiringKey(rule: "r", occurrence: "x")))
        #expect(try t.store.lastFirings() == [:])
    }

    /// Two evaluators on one file (say `tick` beside `run`) race for the
    /// same occurrences: each key fires exactly once.
    @Test func concurrentEvaluatorsFireEachKeyOnce() async throws {
        let t = try TemporaryStore()
        let path = t.path
        let fired = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let store = try Store(path: path)
                    var count = 0
                    for minute in 0..<20 {
                        let occurred = at(minutes: Int64(minute))
                        let key = FiringKey(rule: "r", occurrence: "at:\(occurred.seconds)")
                        let intent = Intent(.start(TimerParameters(project: "P\(minute)")), at: occurred,
                                            source: .rule("r"), key: key.intentKey(0))
                        if try store.fire(key: key, occurred: occurred, trigger: "schedule", description: key.text,
                                          intents: [intent], now: at(minutes: 30)) != nil {
                            count += 1
                        }
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(fired == 20)
        // 19 switches and the last start: 20 entries, one running.
        #expect(try t.store.entryCount() == 20)
        #expect(try t.store.running()?.project == "P19")
    }

    @Test func watermarksOnlyMoveForward() throws {
        let t = try TemporaryStore()
        #expect(try t.store.watermark("tick") == nil)
        try t.store.advanceWatermark("tick", to: at(minutes: 10))
        try t.store.advanceWatermark("tick", to: at(minutes: 5))
        #expect(try t.store.watermark("tick") == at(minutes: 10))
        try t.store.advanceWatermark("tick", to: at(minutes: 15))
        #expect(try t.store.watermark("tick") == at(minutes: 15))
        #expect(try t.store.watermark("other") == nil)
    }

    @Test func theTimerStateNamesTheRunningProject() throws {
        let t = try TemporaryStore()
        #expect(try t.store.timerState() == .stopped)
        _ = try t.store.apply(start("Docs", client: "Acme", at: nine), now: nine)
        #expect(try t.store.timerState() == .running(project: "Docs", client: "Acme"))
    }
}

@Suite struct OvertakenRuleIntentTests {
    /// A rule's stop or switch dated before the running timer began, as a
    /// catch-up can be, changes nothing; typed on the command line it is an
    /// error.
    @Test func aRuleIntentOlderThanTheRunningTimerIsUnchanged() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("ByHand", at: at(minutes: 60)), now: at(minutes: 60))
        let stop = Intent(.stop, at: at(minutes: 0), source: .rule("end-of-day"), key: "end-of-day@at:0#0")
        let r = try t.store.apply(stop, now: at(minutes: 180))
        #expect(r.outcome == .unchanged)
        #expect(r.entry?.project == "ByHand")
        let switchTo = Intent(.start(TimerParameters(project: "Office")), at: at(minutes: 30), source: .rule("office"))
        #expect(try t.store.apply(switchTo, now: at(minutes: 180)).outcome == .unchanged)
        #expect(try t.store.running()?.project == "ByHand")
        #expect(try t.store.running()?.start == at(minutes: 60))
        // The key is kept like any other: a replay reports the same.
        #expect(try t.store.apply(stop, now: at(minutes: 200)).replayed)

        #expect(throws: StoreError.endBeforeStart(start: at(minutes: 60), end: at(minutes: 0))) {
            try t.store.apply(Intent(.stop, at: at(minutes: 0), source: .cli), now: at(minutes: 180))
        }
    }
}
