import Foundation
import GRDB
import Testing
import TrackeeTestSupport

/// Issue 20 §5: 1,000 keyed requests while `trackee run` is SIGKILLed at 20
/// points and started again on the same port. The client sends a request
/// again with its key until it is answered, as the idempotency-key draft
/// has clients do. Each key is applied exactly once, and the answer each
/// client got is the one stored under its key.
@Suite struct KilledDaemonTests {
    static let requests = 1000
    static let kills = 20
    /// Reproduces the kill points; a failure names it.
    static let seed: UInt64 = 0x2026_1126_0020

    /// The answered-request counts at which the daemon is killed: 20
    /// distinct points, in order, drawn from the seed.
    static func killPoints() -> [Int] {
        var generator = SeededGenerator(seed: seed)
        var points = Set<Int>()
        while points.count < kills { points.insert(generator.int(1...requests - 1)) }
        return points.sorted()
    }

    @Test func everyKeyIsAppliedOnceThroughTwentySIGKILLs() async throws {
        let t = try ServedSandbox(fixedPort: true)
        try await t.startDaemon()
        let progress = t.path("io/progress")
        let out = t.path("io/answers.json")
        let client = try t.startPython("retrying_client.py", [
            "--port", "\(t.port)", "--count", "\(Self.requests)", "--threads", "4",
            "--progress", progress, "--out", out,
        ])
        defer { if client.process.isRunning { client.process.terminate() } }
        let kills = KillLoop(t, points: Self.killPoints(), progress: progress)
        await kills.run()
        let r = try await client.finish()
        #expect(r.status == 0, "\(r)")
        #expect(kills.failure == nil, "\(kills.failure ?? "") (seed \(Self.seed))")
        #expect(kills.killedAt.count == Self.kills)
        #expect(await t.stopDaemon() == 0)
        #expect(t.launches == Self.kills + 1)

        let report = try #require(try JSONAnswers.parse(Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let answers = try #require(report["answers"] as? [String: [String: Any]])
        #expect(report["failures"] as? [String] == [], "requests given up (seed \(Self.seed))")
        #expect(answers.count == Self.requests)
        // Each kill broke at least the connection of every thread.
        let retries = report["retries"] as? Int ?? 0
        #expect(retries >= Self.kills, "the client sent only \(retries) requests again")

        // One application per key, none lost, none twice; nothing else.
        let keys = (0..<Self.requests).map { "kill-\($0)" }
        let applied = try t.rows("SELECT key, count(*) AS n FROM intent_log GROUP BY key ORDER BY key")
        var perKey: [String: Int] = [:]
        for row in applied {
            let key: String = row["key"] ?? "(none)"
            let n: Int = row["n"]
            perKey[key] = n
        }
        #expect(perKey.count == Self.requests, "keys applied: \(perKey.count)")
        #expect(keys.filter { perKey[$0] != 1 } == [], "keys not applied exactly once (seed \(Self.seed))")
        #expect(try t.count("SELECT count(*) FROM intent_log WHERE replay_of IS NOT NULL") == 0)
        #expect(try t.count("SELECT count(*) FROM firing") == Self.requests)

        // The answer each client got is the one stored with its intent.
        var stored: [String: (status: Int, body: String)] = [:]
        for row in try t.rows("SELECT key, status, body FROM http_answer") {
            let key: String = row["key"]
            let status: Int = row["status"]
            let body: Data = row["body"] ?? Data()
            stored[key] = (status, String(decoding: body, as: UTF8.self))
        }
        #expect(stored.count == Self.requests)
        var differing: [String] = []
        for key in keys {
            let got = answers[key]
            if got?["status"] as? Int != 200 || stored[key]?.status != 200 || got?["body"] as? String != stored[key]?.body {
                differing.append(key)
            }
        }
        #expect(differing == [], """
            keys whose answer is not the stored one (seed \(Self.seed)): \
            \(differing.prefix(5).map { "\($0) got \(answers[$0] ?? [:]), stored \(stored[$0].map { "\($0.status) \($0.body)" } ?? "nothing")" })
            """)
        #expect(try t.count("SELECT count(*) FROM entry WHERE \"end\" IS NULL") <= 1)
        #expect(try t.rows("PRAGMA integrity_check").first?[0] as String? == "ok")
    }
}

/// Kills and restarts the daemon at each point on a thread of its own, so
/// that a busy test pool cannot delay a kill past its point: the client
/// answers hundreds of requests a second.
final class KillLoop: @unchecked Sendable {
    private let sandbox: ServedSandbox
    private let points: [Int]
    private let progress: String
    /// The client's answered count just after each kill.
    private(set) var killedAt: [Int] = []
    private(set) var failure: String?

    init(_ sandbox: ServedSandbox, points: [Int], progress: String) {
        self.sandbox = sandbox
        self.points = points
        self.progress = progress
    }

    /// Requests answered so far: the bytes of the client's progress file.
    func answered() -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: progress))?[.size] as? NSNumber)?.intValue ?? 0
    }

    func run() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                self.loop()
                done.resume()
            }.start()
        }
    }

    private func loop() {
        for point in points {
            guard eventuallyHolding(within: 60, every: .milliseconds(1), { answered() >= point }) else {
                failure = "the client stopped at \(answered()) answers, before the kill at \(point)"
                return
            }
            sandbox.killDaemonHolding()
            killedAt.append(answered())
            do {
                try sandbox.startDaemonHolding()
            } catch {
                failure = "\(error)"
                return
            }
        }
    }
}
