import Foundation
import Testing
import TrackeeCore
import TrackeeStore
import TrackeeTestSupport

@testable import TrackeePush

/// A backfill far larger than Toggl Track's Free quota, against the fake
/// Toggl with its quota on, on a manual clock shared with the fake: each
/// push sends what the hour allows and the target waits for the rest.
@Suite struct QuotaBackfillTests {
    @Test func fiveHundredEntriesOnAQuotaOfThirtyAnHourArriveWholeWithNoRequestOverIt() throws {
        let fake = try FakeTimeServiceProcess(service: "toggl", token: secretToken)
        let path = NSTemporaryDirectory() + "trackee-quota-\(UUID().uuidString).sqlite3"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
        let store = try Store(path: path)
        let day = Instant(seconds: 1_795_000_000)  // 2026-11-18
        for i in Int64(0)..<500 {
            let start = day + i * 600
            _ = try store.add(TimerParameters(description: "entry \(i)"), start: start, end: start + 300, now: start + 300)
        }
        // The target comes after the entries: backfill queues them.
        try store.registerPushTargets([PushTargetRecord(name: "work", service: "toggl", since: Instant(seconds: 0))])
        #expect(try store.backfill(target: "work", from: day, to: day + 86_400 * 7) == 500)

        let start = day + 86_400 * 7
        let time = ManualTime(start)
        try fake.setClock(time.seconds)
        try fake.setQuota(workspace: 30, user: 30)
        var pushes = 0
        var pushed = 0
        var stops: [Instant] = []
        while pushes < 30 {
            // As trackee-sync runs it: the hour's requests and the ids from the store.
            let quota = RequestQuota(service: "Toggl Track", limits: [.workspace: 30, .user: 30], clock: time.read,
                                     sent: try store.quotaRequests(target: "work", since: time.now - 3600))
            let service = TogglService(baseURL: fake.baseURL, token: secretToken, workspace: "My Company",
                                       createMissing: false, quota: quota)
            if let kept = try store.serviceIDs(target: "work", key: "toggl") { service.remember(keptIDs: kept) }
            let pusher = Pusher(store: store, target: PushTarget(name: "work", projects: [:]), service: service,
                                clock: time.read, sleep: { seconds in
                                    time.advance(Int64(seconds))
                                    try? fake.setClock(time.seconds)
                                }, quota: quota)
            let report = try pusher.push()
            if let ids = service.keptIDs { try store.keepServiceIDs(target: "work", key: "toggl", ids) }
            pushes += 1
            pushed += report.pushed
            #expect([report.failed, report.conflicts, report.adopted] as [Int] == [0, 0, 0])
            guard case .quota(let wait) = report.stopped else {
                #expect(report.stopped == nil)
                break
            }
            stops.append(wait.until)
            #expect(try store.outboxSummaries()[0].retryAt == wait.until)
            time.set(wait.until)
            try fake.setClock(time.seconds)
        }
        // 30 creates an hour: 17 pushes, an hour apart.
        #expect(pushed == 500)
        #expect(pushes == 17)
        #expect(stops == (1...16).map { start + Int64($0) * 3600 })
        let stored = try fake.stored("time_entries").compactMap { $0["description"] as? String }
        #expect(stored.count == 500)
        #expect(Set(stored) == Set((0..<500).map { "entry \($0)" }))
        let summary = try store.outboxSummaries()[0]
        #expect([summary.queued, summary.failed, summary.conflicts, summary.pushed] as [Int] == [0, 0, 0, 500])
        // No request over the quota: the fake refused none, and no hour held more than 30.
        let quota = try fake.state()["quota"] as? [String: [String: Any]] ?? [:]
        #expect(quota["workspace"]?["refused"] as? Int == 0)
        #expect(quota["workspace"]?["most_in_an_hour"] as? Int == 30)
        #expect(quota["user"]?["refused"] as? Int == 0)
        // Who the token is was asked once; the ids were kept for the other 16 pushes.
        let log = try fake.log()
        #expect(log.filter { $0.hasPrefix("GET /me") } == ["GET /me 200", "GET /me/workspaces 200"], "\(log.filter { !$0.hasPrefix("POST") })")
        #expect(log.count == 502)
    }
}
