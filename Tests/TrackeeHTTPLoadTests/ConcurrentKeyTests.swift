import Foundation
import GRDB
import Testing

/// Issue 20 §5: 200 requests with one idempotency key, sent at the same
/// moment to `trackee run`, start one timer. Each answer is that entry, or
/// 409 while the first request was still being answered; none is 5xx.
@Suite struct ConcurrentKeyTests {
    @Test func twoHundredRequestsWithOneKeyStartOneEntry() async throws {
        let t = try ServedSandbox()
        try await t.startDaemon()
        let key = "one-key-for-all"
        let r = try await t.python("one_key.py", [
            "--port", "\(t.port)", "--clients", "200", "--key", key, "--body", #"{"project":"Concurrent"}"#,
        ])
        #expect(r.status == 0, "\(r)")
        let answers = try #require(try JSONAnswers.parse(r.stdout) as? [[String: Any]], "\(r)")
        #expect(answers.count == 200)

        let failed = answers.compactMap { $0["error"] as? String }
        #expect(failed == [], "exchanges that failed")
        let statuses = answers.compactMap { $0["status"] as? Int }
        let ok = answers.filter { $0["status"] as? Int == 200 }
        let inFlight = answers.filter { $0["status"] as? Int == 409 }
        #expect(statuses.filter { $0 >= 500 } == [])
        #expect(ok.count + inFlight.count == 200, "other statuses: \(statuses.filter { $0 != 200 && $0 != 409 })")
        #expect(ok.count >= 1)

        // The store: one entry, one application of the key, one answer.
        #expect(await t.stopDaemon() == 0)
        let entries = try t.rows("SELECT entry.id, p.name FROM entry JOIN project p ON p.id = entry.project_id")
            .map { (id: $0[0] as Int64, project: $0[1] as String) }
        #expect(entries.count == 1)
        let entryID = try #require(entries.first?.id)
        #expect(entries.first?.project == "Concurrent")
        #expect(try t.count("SELECT count(*) FROM intent_log") == 1)
        #expect(try t.count("SELECT count(*) FROM intent_log WHERE key = ? AND replay_of IS NULL", [key]) == 1)
        #expect(try t.count("SELECT count(*) FROM firing WHERE key = ?", [key]) == 1)
        let stored = try t.rows("SELECT status, body FROM http_answer")
        #expect(stored.count == 1)
        #expect(stored.first?["status"] as Int? == 200)
        let storedBody = String(decoding: (stored.first?["body"] as Data?) ?? Data(), as: UTF8.self)

        // Every 200 is the first answer, byte for byte: that entry, started.
        for answer in ok {
            #expect(answer["body"] as? String == storedBody)
            #expect(answer["type"] as? String == "application/json")
        }
        let first = try #require(JSONAnswers.object(storedBody))
        #expect(first["outcome"] as? String == "started")
        #expect(first["key"] as? String == key)
        #expect((first["entry"] as? [String: Any])?["id"] as? Int == Int(entryID))
        #expect((first["entry"] as? [String: Any])?["project"] as? String == "Concurrent")

        // Every 409 says the key is in flight.
        for answer in inFlight {
            #expect(answer["type"] as? String == "application/problem+json")
            let problem = JSONAnswers.object(answer["body"] as? String ?? "")
            #expect(problem?["type"] as? String == "urn:trackee:problem:idempotency-key-in-flight")
            #expect(problem?["status"] as? Int == 409)
        }
    }
}
