import Foundation
import GRDB
import Testing
import TrackeeCore
@testable import TrackeeStore

/// The sync outbox: every path that writes a finished entry queues it for
/// each target whose `since` covers it, in the same transaction, through
/// the SQL triggers of migration v5-sync.
@Suite struct OutboxTests {
    /// The outbox as `target entry op state`, in queue order, once the
    /// journal is taken in.
    func queue(_ t: TemporaryStore) throws -> [String] {
        try t.store.write { db in
            try t.store.collect(db)
            return try Row.fetchAll(db, sql: "SELECT target, entry_id, op, state FROM outbox ORDER BY seq").map {
                "\($0[0] as String) \($0[1] as Int64) \($0[2] as String) \($0[3] as String)"
            }
        }
    }

    func work(since: Instant = nine - 3600) -> PushTargetRecord {
        PushTargetRecord(name: "work", service: "clockify", since: since)
    }

    @Test func withoutTargetsNothingIsQueued() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", at: nine), now: nine)
        _ = try t.store.apply(Intent(.stop, at: at(minutes: 30)), now: at(minutes: 30))
        #expect(try queue(t) == [])
    }

    @Test func theRunningTimerIsQueuedWhenItStopsAndOnceHoweverOftenItChanges() throws {
        let t = try TemporaryStore()
        try t.store.registerPushTargets([work()])
        _ = try t.store.apply(start("Docs", at: nine), now: nine)
        #expect(try queue(t) == [])
        _ = try t.store.apply(Intent(.stop, at: at(minutes: 30)), now: at(minutes: 30))
        #expect(try queue(t) == ["work 1 put queued"])
        _ = try t.store.edit(1, EntryChanges(description: "later"), now: at(minutes: 40))
        _ = try t.store.edit(1, EntryChanges(end: at(minutes: 35)), now: at(minutes: 41))
        #expect(try queue(t) == ["work 1 put queued"])
        // A switch queues the entry it stops; the new one runs.
        _ = try t.store.apply(start("Review", at: at(minutes: 50)), now: at(minutes: 50))
        _ = try t.store.apply(start("Docs", at: at(minutes: 60)), now: at(minutes: 60))
        #expect(try queue(t) == ["work 1 put queued", "work 2 put queued"])
    }

    @Test func aDeleteReplacesTheQueuedPutAndUndoPutsItBack() throws {
        let t = try TemporaryStore()
        try t.store.registerPushTargets([work()])
        _ = try t.store.add(TimerParameters(project: "Docs"), start: nine, end: at(minutes: 30), now: at(minutes: 30))
        _ = try t.store.add(TimerParameters(project: "Docs"), start: at(minutes: 30), end: at(minutes: 60), now: at(minutes: 60))
        #expect(try queue(t) == ["work 1 put queued", "work 2 put queued"])
        // Never sent: the delete leaves nothing to tell the service.
        _ = try t.store.deleteEntries([1], now: at(minutes: 61))
        #expect(try queue(t) == ["work 2 put queued"])
        _ = try t.store.undo(now: at(minutes: 61))
        #expect(try queue(t) == ["work 2 put queued", "work 1 put queued"])
        // Held there: the delete is queued.
        try t.store.write { db in
            try db.execute(sql: "INSERT INTO remote_entry (target, entry_id, remote_id, create_sent) VALUES ('work', 2, 'r2', 1)")
        }
        _ = try t.store.deleteEntries([2], now: at(minutes: 62))
        #expect(try queue(t) == ["work 1 put queued", "work 2 delete queued"])
    }

    @Test func anUndoneStopTakesItsPutOutOrQueuesADelete() throws {
        let t = try TemporaryStore()
        try t.store.registerPushTargets([work()])
        _ = try t.store.apply(start("Docs", at: nine), now: nine)
        _ = try t.store.apply(Intent(.stop, at: at(minutes: 30), source: .cli), now: at(minutes: 30))
        #expect(try queue(t) == ["work 1 put queued"])
        // Never sent, and running again: nothing to tell the service.
        _ = try t.store.undo(now: at(minutes: 31))
        #expect(try queue(t) == [])
        _ = try t.store.apply(Intent(.stop, at: at(minutes: 40), source: .cli), now: at(minutes: 40))
        try t.store.write { db in
            try db.execute(sql: "INSERT INTO remote_entry (target, entry_id, remote_id, create_sent) VALUES ('work', 1, 'r1', 1)")
        }
        // Held there: it goes from there while it runs here.
        _ = try t.store.undo(now: at(minutes: 41))
        #expect(try queue(t) == ["work 1 delete queued"])
    }

    @Test func onlyTargetsWhoseSinceCoversTheEntryQueueIt() throws {
        let t = try TemporaryStore()
        try t.store.registerPushTargets([work(since: at(minutes: 60)), PushTargetRecord(name: "old", service: "toggl", since: nine)])
        _ = try t.store.add(TimerParameters(project: "Docs"), start: nine, end: at(minutes: 30), now: at(minutes: 30))
        _ = try t.store.add(TimerParameters(project: "Docs"), start: at(minutes: 60), end: at(minutes: 90), now: at(minutes: 90))
        #expect(try queue(t) == ["old 1 put queued", "old 2 put queued", "work 2 put queued"])
        #expect(try t.store.outboxSummaries().map { "\($0.target) \($0.service) \($0.queued)" } == ["old toggl 2", "work clockify 1"])
        // Moved before `since`, an entry the target never held leaves its queue.
        _ = try t.store.edit(2, EntryChanges(start: at(minutes: 40)), now: at(minutes: 91))
        #expect(try queue(t) == ["old 1 put queued", "old 2 put queued"])
    }

    @Test func registeringIsIdempotentAndARemovedTargetTakesItsQueue() throws {
        let t = try TemporaryStore()
        try t.store.registerPushTargets([work()])
        _ = try t.store.add(TimerParameters(project: "Docs"), start: nine, end: at(minutes: 30), now: at(minutes: 30))
        try t.store.registerPushTargets([work()])
        #expect(try queue(t) == ["work 1 put queued"])
        try t.store.registerPushTargets([])
        #expect(try queue(t) == [])
        #expect(try t.store.outboxSummaries() == [])
    }

    @Test func backfillQueuesFinishedEntriesOfTheRangeOnceInStartOrder() throws {
        let t = try TemporaryStore()
        _ = try t.store.add(TimerParameters(project: "Docs"), start: at(minutes: 60), end: at(minutes: 90), now: at(minutes: 90))
        _ = try t.store.add(TimerParameters(project: "Docs"), start: nine, end: at(minutes: 30), now: at(minutes: 90))
        _ = try t.store.add(TimerParameters(project: "Docs"), start: at(minutes: 200), end: at(minutes: 230), now: at(minutes: 230))
        _ = try t.store.apply(start("Docs", at: at(minutes: 240)), now: at(minutes: 240))
        try t.store.registerPushTargets([work()])
        #expect(try queue(t) == [])
        #expect(try t.store.backfill(target: "work", from: nine, to: at(minutes: 300)) == 3)
        #expect(try queue(t) == ["work 2 put queued", "work 1 put queued", "work 3 put queued"])
        #expect(try t.store.backfill(target: "work", from: nine, to: at(minutes: 300)) == 0)
        #expect(throws: StoreError.unknownPushTarget("home")) {
            try t.store.backfill(target: "home", from: nine, to: at(minutes: 300))
        }
    }
}

extension OutboxTests {
    @Test func aStoreFromBeforeQuotasKeepsItsQueueAndBackoffAndCountsRequestsFromThen() throws {
        // A store as the release before quotas left it: one queued entry,
        // and a target offline until ten.
        let old = try OlderStore(upTo: "v9-fix-milliseconds") { db in
            try db.execute(sql: """
                INSERT INTO sync_target (name, service, since, cursor, retry_at, failures, last_error)
                VALUES ('work', 'toggl', 0, 0, ?, 3, 'Toggl Track did not answer');
                INSERT INTO outbox (target, entry_id, op, seq) VALUES ('work', 7, 'put', 1);
                """, arguments: [nine.seconds + 3600])
        }
        defer { withExtendedLifetime(old) {} }
        let store = try Store(path: old.path)
        let summary = try store.outboxSummaries()[0]
        #expect([summary.queued, summary.failed] as [Int] == [1, 0])
        #expect(summary.retryAt == nine + 3600)
        #expect(!summary.waitingForQuota)
        #expect(try store.targetBackoff("work").failures == 3)
        try store.keepQuotaRequests(target: "work", [QuotaRequests(scope: .workspace, at: nine, count: 2),
                                                      QuotaRequests(scope: .user, at: nine + 5, count: 1)])
        #expect(try store.quotaUse(target: "work", since: nine - 1) == [.workspace: 2, .user: 1])
        #expect(try store.quotaUse(target: "work", since: nine) == [.user: 1])
        try store.recordQuotaWait(target: "work", until: nine + 7200, message: "quota", at: nine)
        #expect(try store.outboxSummaries()[0].waitingForQuota)
        // The daemon's next drain waits for the quota as for a backoff.
        #expect(try store.nextPushDue() == nine + 7200)
        #expect(try store.targetBackoff("work").failures == 3)
        #expect(try store.serviceIDs(target: "work", key: "toggl  W") == nil)
        try store.keepServiceIDs(target: "work", key: "toggl  W", "{}")
        #expect(try store.serviceIDs(target: "work", key: "toggl  W") == "{}")
        #expect(try store.serviceIDs(target: "work", key: "toggl  Other") == nil)
    }
}
