import Foundation
import Testing
import TrackeeCore
import TrackeeStore

@testable import TrackeePush

/// `RequestQuota` on a manual clock: the sliding hour, the service's word,
/// and what is kept between runs.
@Suite struct RequestQuotaTests {
    let noon = Instant(seconds: 1_795_435_200)  // 2026-11-23T12:00:00Z

    /// The wait `body` throws; nil, with an issue, for anything else.
    func wait(_ body: () throws -> Void) -> QuotaWait? {
        do {
            try body()
            Issue.record("expected a quota wait")
        } catch ServiceFailure.quota(let wait) {
            return wait
        } catch {
            Issue.record("expected a quota wait, not \(error)")
        }
        return nil
    }

    @Test func theHourFillsAndFreesRequestByRequest() throws {
        let time = ManualTime(noon)
        let quota = RequestQuota(service: "Clockify", limits: [.workspace: 3], clock: time.read)
        try quota.take(.workspace)
        time.advance(100)
        try quota.take(.workspace)
        try quota.take(.workspace)
        #expect(quota.left(.workspace) == 0)
        #expect(wait { try quota.take(.workspace) } == QuotaWait(service: "Clockify", until: noon + 3600, left: 0, limit: 3))
        time.set(noon + 3599)
        #expect(wait { try quota.take(.workspace) }?.until == noon + 3600)
        time.set(noon + 3600)
        #expect(quota.left(.workspace) == 1)
        try quota.take(.workspace)
        // The two sent at +100 free together.
        #expect(wait { try quota.take(.workspace) }?.until == noon + 3700)
        // Toggl's /me quota is apart: not listed, not counted.
        try quota.take(.user)
        #expect(quota.requests == [QuotaRequests(scope: .workspace, at: noon + 100, count: 2),
                                   QuotaRequests(scope: .workspace, at: noon + 3600, count: 1)])
    }

    @Test func whatEarlierRunsSentCountsAndAnHourOldIsDropped() throws {
        let time = ManualTime(noon)
        let sent = [QuotaRequests(scope: .workspace, at: noon - 3600, count: 5),
                    QuotaRequests(scope: .workspace, at: noon - 60, count: 28),
                    QuotaRequests(scope: .user, at: noon - 10, count: 30)]
        let quota = RequestQuota(service: "Toggl Track", limits: [.workspace: 30, .user: 30], clock: time.read, sent: sent)
        #expect(quota.left(.workspace) == 2)
        #expect(quota.left(.user) == 0)
        #expect(wait { try quota.take(.user) }?.until == noon + 3590)
        try quota.take(.workspace)
        try quota.take(.workspace)
        #expect(wait { try quota.take(.workspace) }?.until == noon + 3540)
    }

    @Test func theServicesWordHoldsBackEvenWhenTrackeeCountedLess() throws {
        let time = ManualTime(noon)
        let quota = RequestQuota(service: "Toggl Track", limits: [.workspace: 240], clock: time.read)
        try quota.take(.workspace)
        quota.heard(.workspace, left: 1, resetsIn: 1200)
        try quota.take(.workspace)
        #expect(quota.left(.workspace) == 0)
        #expect(wait { try quota.take(.workspace) } == QuotaWait(service: "Toggl Track", until: noon + 1200, left: 0, limit: 240))
        time.set(noon + 1200)
        #expect(quota.left(.workspace) == 238)
        try quota.take(.workspace)
        // A 402 without headers: the hour from the oldest request trackee knows of.
        #expect(quota.exhausted(.workspace, resetsIn: nil).until == noon + 3600)
        #expect(quota.exhausted(.workspace, resetsIn: 90).until == noon + 1290)
        #expect(quota.left(.workspace) == 0)
    }

    @Test func noLimitCountsNothingButA402StillWaits() throws {
        let time = ManualTime(noon)
        let quota = RequestQuota(service: "Toggl Track", limits: [:], clock: time.read)
        for _ in 0..<1000 { try quota.take(.workspace) }
        #expect(quota.requests == [])
        #expect(quota.exhausted(.workspace, resetsIn: nil) == QuotaWait(service: "Toggl Track", until: noon + 3600, left: 0, limit: 0))
    }

    /// With a ledger, each request is in the store as soon as it is
    /// counted, before it goes out; a request the quota refuses is not.
    /// At the end of a run only what is an hour old goes, and what another
    /// process counted meanwhile stays.
    @Test func aLedgerKeepsEachRequestBeforeItGoesOut() throws {
        let path = NSTemporaryDirectory() + "trackee-ledger-\(UUID().uuidString).sqlite3"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
        let store = try Store(path: path)
        try store.registerPushTargets([PushTargetRecord(name: "work", service: "clockify", since: Instant(seconds: 0))])
        try store.countQuotaRequest(target: "work", scope: .workspace, at: noon - 3600)
        let time = ManualTime(noon)
        let quota = RequestQuota(service: "Clockify", limits: [.workspace: 3], clock: time.read,
                                 ledger: QuotaLedger(store: store, target: "work"))
        try quota.take(.workspace)
        #expect(try store.quotaRequests(target: "work", since: noon - 3600)
            == [QuotaRequests(scope: .workspace, at: noon, count: 1)])
        time.advance(5)
        try quota.take(.workspace)
        try quota.take(.workspace)
        #expect(wait { try quota.take(.workspace) }?.until == noon + 3600)
        #expect(try store.quotaRequests(target: "work", since: noon - 3601)
            == [QuotaRequests(scope: .workspace, at: noon - 3600, count: 1),
                QuotaRequests(scope: .workspace, at: noon, count: 1),
                QuotaRequests(scope: .workspace, at: noon + 5, count: 2)])
        // Another process's request, then the end of this run.
        try store.countQuotaRequest(target: "work", scope: .workspace, at: noon + 6)
        try quota.keep(in: store, target: "work")
        #expect(try store.quotaRequests(target: "work", since: Instant(seconds: 0))
            == [QuotaRequests(scope: .workspace, at: noon, count: 1),
                QuotaRequests(scope: .workspace, at: noon + 5, count: 2),
                QuotaRequests(scope: .workspace, at: noon + 6, count: 1)])
    }
}
