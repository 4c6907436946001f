import Foundation
import GRDB
import Synchronization
import Testing
@testable import TrackeeAPI
import TrackeeCore
import TrackeeStore

/// Timer requests written several to a transaction: each keeps its own
/// savepoint, answer and error, and they reach the store in the order
/// they read the clock.
@Suite struct GroupCommitTests {
    static func rows(_ store: Store, _ sql: String) throws -> [[String]] {
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                row.databaseValues.map { value in
                    switch value.storage {
                    case .null: "NULL"
                    case .int64(let number): String(number)
                    case .double(let number): String(number)
                    case .string(let text): text
                    case .blob(let data): "\(data.count) bytes"
                    }
                }
            }
        }
    }

    static func request(
        _ action: Intent.Action, key: String?, now: Instant, fingerprint: String = "f", newProjects: NewProjects = .refuse
    ) -> HTTPIntent {
        let intent = Intent(action, at: now, source: .http(device: "phone"), key: key)
        return HTTPIntent(intent, now: now, newProjects: newProjects, fingerprint: fingerprint) { result in
            (200, Array("\(result.outcome.rawValue) #\(result.entry?.id ?? 0)".utf8))
        }
    }

    @Test func aRefusedRequestLeavesNoTraceAndTheOthersInItsTransactionStand() throws {
        let h = try Harness()
        let later = nine + 60
        let results = try h.store.apply([
            Self.request(.start(TimerParameters(project: "Docs")), key: "a", now: nine, newProjects: .create),
            Self.request(.start(TimerParameters(project: "Nowhere")), key: "b", now: nine),
            Self.request(.stop, key: nil, now: later),
            Self.request(.start(TimerParameters(project: "Docs")), key: "a", now: later, fingerprint: "other"),
        ])
        #expect(results.count == 4)
        let first = try results[0].get()
        #expect(first.result?.outcome == .started)
        #expect(first.answer == HTTPAnswer(fingerprint: "f", status: 200, body: Array("started #1".utf8)))
        guard case .failure(.noSuchProject(name: "Nowhere", client: nil, _)) = results[1] else {
            Issue.record("the second request: \(results[1])")
            return
        }
        let third = try results[2].get()
        #expect(third.result?.outcome == .stopped)
        #expect(third.answer == HTTPAnswer(fingerprint: "f", status: 200, body: Array("stopped #1".utf8)))
        // The same key later in the same transaction finds the first answer.
        let fourth = try results[3].get()
        #expect(fourth.result == nil)
        #expect(fourth.answer == first.answer)

        #expect(try Self.rows(h.store, "SELECT action, outcome, key FROM intent_log ORDER BY id") == [
            ["start", "started", "a"], ["stop", "stopped", "NULL"],
        ])
        #expect(try Self.rows(h.store, "SELECT key, fingerprint FROM http_answer ORDER BY key") == [["a", "f"]])
        #expect(try Self.rows(h.store, "SELECT key FROM firing ORDER BY key") == [["a"]])
        #expect(try Self.rows(h.store, "SELECT name FROM project ORDER BY name") == [["Docs"]])
    }

    /// Forty requests at once, on a clock that moves a second at every
    /// reading, alternate between two projects: had any reached the store
    /// out of clock order, its switch would start before the running
    /// timer began and be refused.
    @Test func concurrentRequestsReachTheStoreInTheOrderOfTheirClock() async throws {
        let h = try Harness()
        let ticks = Mutex(nine)
        let api = API(
            store: h.store, zone: .utc, createsProjects: true,
            now: { ticks.withLock { now in defer { now = now + 1 }; return now } },
            credentials: FakeCredentials(), daemon: FakeDaemon())
        let statuses = await withTaskGroup(of: Int.self) { group in
            for i in 0..<40 {
                group.addTask {
                    let body = #"{"project":"\#(i % 2 == 0 ? "A" : "B")"}"#
                    let answer = await api.answer(APIRequest(
                        method: "POST", path: "/v1/start",
                        headers: [("Authorization", "Bearer secret-all"), ("Idempotency-Key", "k-\(i)")],
                        body: Array(body.utf8)))
                    return answer.status
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 40))
        let times = try Self.rows(h.store, "SELECT at FROM intent_log ORDER BY id").map { Int64($0[0])! }
        #expect(times.count == 40)
        #expect(times == times.sorted())
        #expect(Set(times).count == 40)
        // Each start made an entry unless the same project already ran.
        let made = try Self.rows(h.store, "SELECT count(*) FROM intent_log WHERE outcome IN ('started', 'switched')")
        #expect(try [[String(h.store.entryCount())]] == made)
        #expect(try Self.rows(h.store, "SELECT count(*) FROM intent_log WHERE outcome NOT IN ('started', 'switched', 'unchanged')") == [["0"]])
        #expect(try Self.rows(h.store, "SELECT count(*) FROM http_answer") == [["40"]])
    }
}
