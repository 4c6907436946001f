import Foundation
import GRDB
import Testing

/// Issue 20 §5: 500 bad requests, generated from a seed, against one
/// `trackee run`: bad methods, paths, headers, bodies and bytes that are
/// no HTTP at all. Every answer is HTTP/1.1 and none is 5xx but 503
/// `busy`; `GET /v1/status` answers 200 after every 50; the same daemon
/// is alive at the end and stops cleanly, and the store is intact.
@Suite struct FuzzTests {
    static let seed = 20_261_126

    @Test func fiveHundredBadRequestsCrashNothing() async throws {
        let t = try ServedSandbox()
        try await t.startDaemon()
        let daemon = try #require(t.daemon)
        let r = try await t.python("fuzz.py", ["--port", "\(t.port)", "--seed", "\(Self.seed)", "--count", "500", "--every", "50"])
        #expect(r.status == 0, "\(r)")
        let report = try #require(try JSONAnswers.parse(r.stdout) as? [String: Any], "\(r)")
        let cases = try #require(report["cases"] as? [[String: Any]])
        #expect(cases.count == 500)
        #expect(report["status_checks"] as? [Int] == Array(repeating: 200, count: 10), "\(report["status_checks"] ?? "")")

        func described(_ c: [String: Any]) -> String {
            "#\(c["index"] ?? "?") \(c["name"] ?? "?"): \(c["outcome"] ?? "?") \(c["statuses"] ?? "") \(c["why"] ?? "")"
        }
        let notHTTP = cases.filter { $0["outcome"] as? String == "invalid" || $0["outcome"] as? String == "refused" }
        #expect(notHTTP.map(described) == [], "answers that are not HTTP (seed \(Self.seed))")
        let unanswered = cases.filter { $0["outcome"] as? String == "closed" || $0["outcome"] as? String == "silent" }
        #expect(unanswered.map(described) == [], "cases left without an answer (seed \(Self.seed))")
        let serverErrors = cases.filter { c in
            let statuses = c["statuses"] as? [Int] ?? []
            let types = c["types"] as? [Any] ?? []
            return statuses.indices.contains { i in
                statuses[i] >= 500 && !(statuses[i] == 503 && types.indices.contains(i)
                    && types[i] as? String == "urn:trackee:problem:busy")
            }
        }
        #expect(serverErrors.map(described) == [], "5xx answers (seed \(Self.seed))")

        // The daemon that took all of it still runs, and stops cleanly.
        #expect(daemon.isRunning)
        #expect(t.launches == 1)
        #expect(await t.stopDaemon() == 0)
        #expect(!t.daemonStderr.contains("Fatal error"), "\(t.daemonStderr)")
        #expect(try t.rows("PRAGMA integrity_check").first?[0] as String? == "ok")
    }
}
