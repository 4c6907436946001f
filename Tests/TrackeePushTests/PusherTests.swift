import Foundation
import Testing
import TrackeeCore
import TrackeeStore

@testable import TrackeePush

/// A workspace in memory, with failures on demand: the pusher's logic
/// without HTTP (the services' own tests run against the fake servers).
final class MemoryService: TimeService {
    var entries: [String: (entry: PushedEntry, id: String)] = [:]
    var nextID = 100
    /// Failures for the next calls, by operation (`create`, `update`, `delete`, `entries`).
    var failures: [String: [ServiceFailure]] = [:]
    /// A create that is stored and then answered with this failure (the
    /// answer lost on the way back).
    var loseNextCreateAnswer = false
    var calls: [String] = []
    /// Ids kept from an earlier run are in use: the first `forgetKeptIDs`
    /// forgets them.
    var keptIDsInUse = false

    func forgetKeptIDs() -> Bool {
        guard keptIDsInUse else { return false }
        keptIDsInUse = false
        calls.append("forget")
        return true
    }

    /// Counts every call as a request, as the real services do.
    var quota: RequestQuota?

    /// Called as each request goes out, after the quota counted it.
    var sending: (() -> Void)?

    func take(_ operation: String) throws(ServiceFailure) {
        try quota?.take(.workspace)
        sending?()
        calls.append(operation)
        if var queued = failures[operation], !queued.isEmpty {
            let failure = queued.removeFirst()
            failures[operation] = queued
            throw failure
        }
    }

    func identity() throws(ServiceFailure) -> ServiceIdentity {
        ServiceIdentity(userName: "Ana", email: "ana@example.com", workspaceID: "w1", workspaceName: "My Company")
    }

    func missingProjects(_ projects: [RemoteProjectName]) throws(ServiceFailure) -> [RemoteProjectName] { [] }

    func entries(from: Instant, to: Instant) throws(ServiceFailure) -> [RemoteTimeEntry] {
        try take("entries")
        return entries.values.filter { $0.entry.start >= from && $0.entry.start <= to }.map {
            RemoteTimeEntry(id: $0.id, start: $0.entry.start, end: $0.entry.end, description: $0.entry.description)
        }
    }

    func create(_ entry: PushedEntry) throws(ServiceFailure) -> String {
        try take("create")
        let id = "r\(nextID)"
        nextID += 1
        entries[id] = (entry, id)
        if loseNextCreateAnswer {
            loseNextCreateAnswer = false
            throw .transient("the connection closed before an answer")
        }
        return id
    }

    func entry(id: String) throws(ServiceFailure) -> RemoteTimeEntry? {
        try take("entry")
        return entries[id].map { RemoteTimeEntry(id: $0.id, start: $0.entry.start, end: $0.entry.end, description: $0.entry.description) }
    }

    func update(id: String, _ entry: PushedEntry) throws(ServiceFailure) {
        try take("update")
        guard entries[id] != nil else { throw .notFound }
        entries[id] = (entry, id)
    }

    func delete(id: String) throws(ServiceFailure) {
        try take("delete")
        guard entries.removeValue(forKey: id) != nil else { throw .notFound }
    }

    /// `start description` of every entry held, by start.
    var held: [String] {
        entries.values.sorted { ($0.entry.start, $0.id) < ($1.entry.start, $1.id) }.map {
            "\($0.entry.start.seconds) \($0.entry.description)"
        }
    }
}

@Suite final class PusherTests {
    let store: Store
    let service = MemoryService()
    let path = NSTemporaryDirectory() + "trackee-pusher-\(UUID().uuidString).sqlite3"
    let day = Instant(seconds: 1_795_000_000)  // 2026-11-18

    init() throws {
        store = try Store(path: path)
        try store.registerPushTargets([PushTargetRecord(name: "work", service: "clockify", since: Instant(seconds: 0))])
    }

    /// The store goes with its test, -wal and -shm files included.
    deinit {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }

    func pusher(at now: Instant, sleeps: SleepLog = SleepLog()) -> Pusher {
        Pusher(store: store, target: PushTarget(name: "work", projects: ["Docs": "Documentation"]), service: service,
               clock: { now }, sleep: { sleeps.seconds.append($0) })
    }

    @discardableResult
    func add(_ description: String, hour: Int64, project: String? = nil) throws -> Int64 {
        let start = day + hour * 3600
        return try store.add(TimerParameters(project: project, description: description), start: start, end: start + 1800,
                             now: start + 1800).entry.id
    }

    func summary() throws -> OutboxSummary { try store.outboxSummaries()[0] }

    @Test func everyEntryIsCreatedOnceInOrder() throws {
        for h in 0..<5 { try add("task \(h)", hour: Int64(h)) }
        let report = try pusher(at: day + 86_400).push()
        #expect([report.pushed, report.adopted, report.failed, report.conflicts, report.queued] as [Int] == [5, 0, 0, 0, 0])
        #expect(report.stopped == nil)
        #expect(service.calls == ["create", "create", "create", "create", "create"])
        #expect(service.held == (0..<5).map { "\(day.seconds + Int64($0) * 3600) task \($0)" })
        #expect(try summary().pushed == 5)
        // Nothing is queued any more: a second push sends nothing.
        #expect(try pusher(at: day + 86_400).push().pushed == 0)
        #expect(service.calls.count == 5)
    }

    @Test func anEditBeforeThePushSendsOneCreateWithTheEdit() throws {
        let id = try add("draft", hour: 1, project: "Docs")
        _ = try store.edit(id, EntryChanges(description: "final"), now: day + 7200)
        #expect(try pusher(at: day + 86_400).push().pushed == 1)
        #expect(service.calls == ["create"])
        #expect(service.held == ["\(day.seconds + 3600) final"])
        #expect(service.entries.values.first?.entry.project == RemoteProjectName(name: "Documentation", client: nil))
    }

    @Test func editDeleteAndUndoAfterAPushReachTheService() throws {
        let id = try add("report", hour: 2)
        _ = try pusher(at: day + 86_400).push()
        _ = try store.edit(id, EntryChanges(description: "report, revised"), now: day + 86_400)
        _ = try pusher(at: day + 86_401).push()
        #expect(service.held == ["\(day.seconds + 7200) report, revised"])
        _ = try store.deleteEntries([id], now: day + 86_402)
        _ = try pusher(at: day + 86_403).push()
        #expect(service.held == [])
        _ = try store.undo(now: day + 86_403)
        let report = try pusher(at: day + 86_404).push()
        #expect(report.pushed == 1)
        #expect(service.held == ["\(day.seconds + 7200) report, revised"])
        #expect(service.calls == ["create", "entry", "update", "delete", "create"])
    }

    @Test func anUndoneStopIsDeletedThereOrNeverSent() throws {
        // Pushed, then the stop undone: the entry runs again, so the
        // service's copy goes until it stops again.
        _ = try store.apply(Intent(.start(TimerParameters(description: "call")), at: day, source: .cli), now: day)
        _ = try store.apply(Intent(.stop, at: day + 600, source: .cli), now: day + 600)
        _ = try pusher(at: day + 601).push()
        #expect(service.held == ["\(day.seconds) call"])
        _ = try store.undo(now: day + 602)
        #expect(try pusher(at: day + 603).push().pushed == 1)
        #expect(service.held == [])
        _ = try store.apply(Intent(.stop, at: day + 900, source: .cli), now: day + 900)
        _ = try pusher(at: day + 901).push()
        #expect(service.held == ["\(day.seconds) call"])
        // Undone before any push: nothing is sent.
        _ = try store.apply(Intent(.start(TimerParameters(description: "mail")), at: day + 1000, source: .cli), now: day + 1000)
        _ = try store.apply(Intent(.stop, at: day + 1200, source: .cli), now: day + 1200)
        _ = try store.undo(now: day + 1201)
        let calls = service.calls.count
        #expect(try pusher(at: day + 1202).push().pushed == 0)
        #expect(service.calls.count == calls)
        #expect(service.held == ["\(day.seconds) call"])
    }

    @Test func aCreateWhoseAnswerWasLostIsAdoptedNotSentAgain() throws {
        try add("standup", hour: 9)
        service.loseNextCreateAnswer = true
        let first = try pusher(at: day + 86_400).push()
        #expect(first.pushed == 0)
        #expect(first.queued == 1)
        #expect(first.stopped == .unavailable("the connection closed before an answer", retryAt: day + 86_401))
        // Not due before its backoff ends.
        #expect(try pusher(at: day + 86_400).push().pushed == 0)
        let second = try pusher(at: day + 86_401).push()
        #expect(second.adopted == 1)
        #expect(second.queued == 0)
        #expect(service.calls == ["create", "entries"])
        #expect(service.held == ["\(day.seconds + 9 * 3600) standup"])
        #expect(try summary().pushed == 1)
    }

    @Test func aCreateNotedAsSentButNeverAnsweredIsLookedForFirst() throws {
        // As if the process was killed after the service stored the create.
        let id = try add("review", hour: 3)
        let item = try store.duePushes(target: "work", now: day + 86_400, limit: 10)[0]
        let sent = SentEntry(start: day + 3 * 3600, end: day + 3 * 3600 + 1800, description: "review")
        try store.markCreateSent(item, sent)
        _ = try service.create(pusher(at: day).pushed(try store.entry(id: id))!)
        service.calls = []
        let report = try pusher(at: day + 86_400).push()
        #expect(report.adopted == 1)
        #expect(service.calls == ["entries"])
        #expect(service.held.count == 1)
    }

    @Test func aCreateNotedAsSentThatNeverArrivedIsSentOnce() throws {
        let id = try add("review", hour: 3)
        let item = try store.duePushes(target: "work", now: day + 86_400, limit: 10)[0]
        try store.markCreateSent(item, SentEntry(start: day + 3 * 3600, end: day + 3 * 3600 + 1800, description: "review"))
        let report = try pusher(at: day + 86_400).push()
        #expect(report.pushed == 1)
        #expect(report.adopted == 0)
        #expect(service.calls == ["entries", "create"])
        #expect(service.held == ["\(day.seconds + 3 * 3600) review"])
        _ = id
    }

    @Test func aBadTokenStopsTheTargetAndKeepsTheQueue() throws {
        for h in 0..<3 { try add("task \(h)", hour: Int64(h)) }
        service.failures["create"] = [.unauthorized("the token was not accepted (HTTP 401)")]
        let report = try pusher(at: day + 86_400).push()
        #expect(report.stopped == .unauthorized("the token was not accepted (HTTP 401)"))
        #expect(report.queued == 3)
        let s = try summary()
        #expect(s.queued == 3)
        #expect(s.lastError == "the token was not accepted (HTTP 401)")
        #expect(s.lastErrorAt == day + 86_400)
    }

    @Test func aRefusedEntryIsSetAsideAndTheOthersGoOn() throws {
        for h in 0..<3 { try add("task \(h)", hour: Int64(h)) }
        service.failures["create"] = [.rejected(status: 400, message: "Project archived")]
        let report = try pusher(at: day + 86_400).push()
        #expect(report.failed == 1)
        #expect(report.pushed == 2)
        #expect(try store.setAsidePushes(target: "work").map(\.message) == ["the service refused it (400): Project archived"])
        #expect(try summary().failed == 1)
    }

    @Test func aRemoteDeletionIsAConflictSettledEitherWay() throws {
        let kept = try add("kept", hour: 1)
        let dropped = try add("dropped", hour: 2)
        _ = try pusher(at: day + 86_400).push()
        service.entries = [:]  // deleted there
        _ = try store.edit(kept, EntryChanges(description: "kept, edited"), now: day + 86_400)
        _ = try store.edit(dropped, EntryChanges(description: "dropped, edited"), now: day + 86_400)
        let report = try pusher(at: day + 86_401).push()
        #expect(report.conflicts == 2)
        #expect(try summary().conflicts == 2)
        #expect(try store.resolveConflict(target: "work", entryID: kept, keep: .local, now: day + 86_402))
        #expect(try store.resolveConflict(target: "work", entryID: dropped, keep: .remote, now: day + 86_402))
        #expect(try store.resolveConflict(target: "work", entryID: dropped, keep: .remote, now: day + 86_402) == false)
        #expect(try pusher(at: day + 86_403).push().pushed == 1)
        #expect(service.held == ["\(day.seconds + 3600) kept, edited"])
        #expect(throws: StoreError.self) { try store.entry(id: dropped) }
        #expect(try summary().conflicts == 0)
    }

    @Test func retryAfterIsWaitedAndTheSameChangeSentAgain() throws {
        try add("task", hour: 1)
        service.failures["create"] = [.rateLimited(retryAfter: 7)]
        let sleeps = SleepLog()
        let report = try pusher(at: day + 86_400, sleeps: sleeps).push()
        #expect(sleeps.seconds == [7])
        #expect(report.pushed == 1)
        #expect(service.calls == ["create", "create"])
    }

    @Test func backoffDoublesUpToAnHourWithJitterOfAFifth() {
        #expect((0...13).map { Pusher.backoff(attempts: $0, random: 0) }
                == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 3600, 3600])
        #expect(Pusher.backoff(attempts: 20, random: 0.999) == 2881)
        #expect(Pusher.backoff(attempts: 3, random: 0.5) == 7)
    }

    @Test func anUnreachableServiceIsTriedAgainOnlyWhenItsBackoffEnds() throws {
        try add("task", hour: 1)
        var now = day + 86_400
        var tries: [Int64] = []
        for _ in 0..<40 {
            service.failures["create"] = [.transient("could not connect")]
            let before = service.calls.count
            let report = try pusher(at: now).push()
            if service.calls.count > before { tries.append(now.seconds - day.seconds - 86_400) }
            if case .unavailable(_, let at)? = report.stopped { #expect(at > now) }
            now = now + 600
        }
        // Forty passes ten minutes apart over 6.5 hours: tried at the first,
        // then each time its backoff (1 s, 2 s, … up to an hour) has passed.
        #expect(tries.count < 40)
        #expect(tries.first == 0)
        let gaps = zip(tries.dropFirst(), tries).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 >= 600 && $0 <= 3600 + 600 })
    }
}

/// Seconds a pusher was told to sleep.
final class SleepLog: @unchecked Sendable {
    var seconds: [Int] = []
}

extension PusherTests {
    @Test func aDeleteWhoseAnswerWasLostIsDoneWhenTheRetryFindsItGone() throws {
        let id = try add("gone", hour: 4)
        _ = try pusher(at: day + 86_400).push()
        _ = try store.deleteEntries([id], now: day + 86_400)
        // Applied there, the answer lost: the retry meets a 404.
        service.failures["delete"] = [.transient("the connection closed before an answer")]
        let remoteID = service.entries.keys.first!
        let first = try pusher(at: day + 86_401).push()
        #expect(first.queued == 1)
        service.entries[remoteID] = nil
        let second = try pusher(at: day + 86_500).push()
        #expect([second.pushed, second.conflicts, second.queued] as [Int] == [1, 0, 0])
        #expect(service.calls == ["create", "delete", "delete"])
    }

    @Test func aDeleteOfAnEntryDeletedThereIsAConflictOnTheFirstTry() throws {
        let id = try add("gone", hour: 4)
        _ = try pusher(at: day + 86_400).push()
        _ = try store.deleteEntries([id], now: day + 86_400)
        service.entries = [:]
        let report = try pusher(at: day + 86_401).push()
        #expect([report.pushed, report.conflicts, report.queued] as [Int] == [0, 1, 0])
    }
}

extension PusherTests {
    @Test func anEntryChangedThereIsAConflictNotOverwritten() throws {
        let id = try add("plan", hour: 5)
        _ = try pusher(at: day + 86_400).push()
        let remoteID = service.entries.keys.first!
        service.entries[remoteID]!.entry.description = "plan, edited there"
        _ = try store.edit(id, EntryChanges(description: "plan, edited here"), now: day + 86_400)
        let report = try pusher(at: day + 86_401).push()
        #expect([report.pushed, report.conflicts] as [Int] == [0, 1])
        #expect(service.held == ["\(day.seconds + 5 * 3600) plan, edited there"])
        #expect(try store.setAsidePushes(target: "work").map(\.message) == [Store.changedThere])
        // Keeping the local side writes it over the change made there.
        #expect(try store.resolveConflict(target: "work", entryID: id, keep: .local, now: day + 86_402))
        #expect(try pusher(at: day + 86_403).push().pushed == 1)
        #expect(service.held == ["\(day.seconds + 5 * 3600) plan, edited here"])
    }

    @Test func keepingTheRemoteSideOfAChangeLeavesBothAndALaterEditGoesOver() throws {
        let id = try add("plan", hour: 5)
        _ = try pusher(at: day + 86_400).push()
        let remoteID = service.entries.keys.first!
        service.entries[remoteID]!.entry.description = "theirs"
        _ = try store.edit(id, EntryChanges(description: "mine"), now: day + 86_400)
        _ = try pusher(at: day + 86_401).push()
        #expect(try store.resolveConflict(target: "work", entryID: id, keep: .remote, now: day + 86_402))
        #expect(try store.entry(id: id).description == "mine")
        #expect(try pusher(at: day + 86_403).push().pushed == 0)
        #expect(service.held == ["\(day.seconds + 5 * 3600) theirs"])
        _ = try store.edit(id, EntryChanges(description: "mine, later"), now: day + 86_404)
        #expect(try pusher(at: day + 86_405).push().pushed == 1)
        #expect(service.held == ["\(day.seconds + 5 * 3600) mine, later"])
    }

    @Test func aFailedEntryIsTriedAgainOrDiscarded() throws {
        let retried = try add("retried", hour: 1)
        let discarded = try add("discarded", hour: 2)
        service.failures["create"] = [.rejected(status: 400, message: "no"), .rejected(status: 400, message: "no")]
        #expect(try pusher(at: day + 86_400).push().failed == 2)
        #expect(try store.resolveConflict(target: "work", entryID: retried, keep: .local, now: day + 86_401))
        #expect(try store.resolveConflict(target: "work", entryID: discarded, keep: .remote, now: day + 86_401))
        #expect(try pusher(at: day + 86_402).push().pushed == 1)
        #expect(service.held == ["\(day.seconds + 3600) retried"])
        #expect(try store.entry(id: discarded).description == "discarded")
        #expect(try summary().failed == 0)
    }
}

extension PusherTests {
    @Test func aQuotaStopsThePushSetsNothingAsideAndTheTargetWaitsUntilItAllowsMore() throws {
        for h in 0..<5 { try add("task \(h)", hour: Int64(h)) }
        let now = day + 86_400
        service.failures["create"] = [.rateLimited(retryAfter: nil), .quota(QuotaWait(service: "Clockify", until: now + 1800, left: 0, limit: 30))]
        // The 429 is waited out in the push (a second); the quota's half hour is not.
        let sleeps = SleepLog()
        let report = try pusher(at: now, sleeps: sleeps).push()
        #expect(sleeps.seconds == [1])
        #expect([report.pushed, report.failed, report.conflicts, report.queued] as [Int] == [0, 0, 0, 5])
        #expect(report.stopped == .quota(QuotaWait(service: "Clockify", until: now + 1800, left: 0, limit: 30)))
        let summary = try summary()
        #expect([summary.queued, summary.failed, summary.conflicts] as [Int] == [5, 0, 0])
        #expect(summary.retryAt == now + 1800)
        #expect(summary.waitingForQuota)
        // A quota is no failure: the backoff of an unreachable service does not grow.
        #expect(try store.targetBackoff("work").failures == 0)
        // Before then nothing goes out.
        let calls = service.calls.count
        let early = try pusher(at: now + 1799).push()
        #expect(early.stopped == .quota(QuotaWait(service: "the service", until: now + 1800, left: 0, limit: 0)))
        #expect(service.calls.count == calls)
        let later = try pusher(at: now + 1800).push()
        #expect([later.pushed, later.queued] as [Int] == [5, 0])
        #expect(later.stopped == nil)
        #expect(service.held.count == 5)
        #expect(try self.summary().waitingForQuota == false)
    }

    /// While the push sleeps, the wait is in the store, as `sync status`
    /// in another process reads it; once slept, it is gone.
    @Test func aShortQuotaWaitIsSleptThroughInThePushAndTheStoreSaysSoMeanwhile() throws {
        try add("task", hour: 0)
        let now = day + 86_400
        let wait = QuotaWait(service: "Clockify", until: now + 40, left: 0, limit: 30)
        service.failures["create"] = [.quota(wait)]
        var slept: [(seconds: Int, summary: OutboxSummary?)] = []
        let pusher = Pusher(store: store, target: PushTarget(name: "work", projects: [:]), service: service, clock: { now },
                            sleep: { slept.append(($0, try? self.summary())) })
        let report = try pusher.push()
        #expect(slept.map(\.seconds) == [40])
        let during = try #require(slept.first?.summary)
        #expect([during.queued, during.pushed] as [Int] == [1, 0])
        #expect(during.retryAt == now + 40)
        #expect(during.waitingForQuota)
        #expect(during.lastError == ServiceFailure.quota(wait).description)
        #expect([report.pushed, report.queued] as [Int] == [1, 0])
        let after = try summary()
        #expect(after.retryAt == nil)
        #expect(!after.waitingForQuota)
        #expect(after.lastError == nil)
        #expect(after.pushed == 1)
    }

    @Test func updatesOfOnePushAreCheckedWithOneListing() throws {
        let ids = try (0..<4).map { try add("task \($0)", hour: Int64($0)) }
        _ = try pusher(at: day + 86_400).push()
        for id in ids { _ = try store.edit(id, EntryChanges(description: "edited \(id)"), now: day + 86_400 + 60) }
        service.calls = []
        let report = try pusher(at: day + 86_400 + 120).push()
        #expect([report.pushed, report.conflicts] as [Int] == [4, 0])
        #expect(service.calls == ["entries", "update", "update", "update", "update"])
    }
}

extension PusherTests {
    @Test func aRefusalWhileKeptIdsAreInUseIsTriedOnceMoreWithIdsLookedUpAnew() throws {
        try add("stale project", hour: 0)
        try add("next", hour: 1)
        service.keptIDsInUse = true
        service.failures["create"] = [.rejected(status: 400, message: "project not found")]
        let first = try pusher(at: day + 86_400).push()
        #expect(service.calls == ["create", "forget", "create", "create"])
        #expect([first.pushed, first.failed, first.queued] as [Int] == [2, 0, 0])
        // A 403 with a workspace id of another account's.
        try add("stale workspace", hour: 2)
        service.keptIDsInUse = true
        service.calls = []
        service.failures["create"] = [.unauthorized("HTTP 403")]
        let second = try pusher(at: day + 86_400).push()
        #expect(service.calls == ["create", "forget", "create"])
        #expect(second.pushed == 1)
        #expect(second.stopped == nil)
        // Ids looked up this run are no excuse: the refusal stands.
        try add("refused", hour: 3)
        service.calls = []
        service.failures["create"] = [.rejected(status: 400, message: "too long")]
        let third = try pusher(at: day + 86_400).push()
        #expect(service.calls == ["create"])
        #expect([third.pushed, third.failed] as [Int] == [0, 1])
    }
}

extension PusherTests {
    /// Each request is in the store when it goes out, so a run killed
    /// midway (even during a request) still counts for the next, and
    /// `sync status` sees the counts while the push is under way.
    @Test func theHoursRequestsAreKeptBeforeEachGoesOutSoAKilledRunStillCounts() throws {
        for h in 0..<3 { try add("task \(h)", hour: Int64(h)) }
        let now = day + 86_400
        let quota = RequestQuota(service: "Clockify", limits: [.workspace: 30], clock: { now },
                                 ledger: QuotaLedger(store: store, target: "work"))
        service.quota = quota
        var kept: [Int] = []
        service.sending = { [store] in kept.append((try? store.quotaUse(target: "work", since: now - 3600)[.workspace]) ?? -1) }
        let pusher = Pusher(store: store, target: PushTarget(name: "work", projects: [:]), service: service, clock: { now },
                            quota: quota)
        let report = try pusher.push()
        #expect(report.pushed == 3)
        #expect(kept == [1, 2, 3])
        #expect(try store.quotaRequests(target: "work", since: now - 3600) == [QuotaRequests(scope: .workspace, at: now, count: 3)])
    }
}
