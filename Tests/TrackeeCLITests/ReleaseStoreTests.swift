import Foundation
import GRDB
import Testing
import TrackeeTestSupport

/// A store made by the release of 4a1b6c4 (Tests/Fixtures/store-4a1b6c4),
/// opened by this build: it migrates, history reads as that release
/// printed it, and the keys it stored keep every replay from firing or
/// applying anything twice.
@Suite struct ReleaseStoreTests {
    /// #filePath is <root>/Tests/TrackeeCLITests/ReleaseStoreTests.swift.
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/store-4a1b6c4")

    /// A sandbox at 10:50 that day with a copy of the store, the rules,
    /// the calendar and the track.
    func sandbox() throws -> Sandbox {
        let t = try Sandbox(now: "2026-11-23 10:50")
        for name in ["rules.yaml", "standup.ics"] {
            try FileManager.default.copyItem(
                at: Self.fixture.appendingPathComponent(name), to: URL(fileURLWithPath: t.path("config/trackee/\(name)")))
        }
        try FileManager.default.copyItem(
            at: Self.fixture.appendingPathComponent("trackee.sqlite3"), to: URL(fileURLWithPath: t.storePath))
        return t
    }

    func fixtureText(_ name: String) throws -> String {
        try String(contentsOf: Self.fixture.appendingPathComponent(name), encoding: .utf8)
    }

    func count(_ t: Sandbox, _ table: String) throws -> Int {
        var config = Configuration()
        config.busyMode = .timeout(10)
        return try DatabaseQueue(path: t.storePath, configuration: config).read {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM \(table)") ?? -1
        }
    }

    @Test func historyReadsAsTheReleasePrintedIt() throws {
        let t = try sandbox()
        let text = try t.run("history", "--limit", "100")
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout == (try fixtureText("history.txt")))
        let json = try t.run("history", "--limit", "100", "--json")
        #expect(json.status == 0, "\(json)")
        #expect(try json.json() == JSONDecoder().decode(JSONValue.self, from: Data(try fixtureText("history.json").utf8)))
        // A rule's filter still finds its intents, by their stored source.
        #expect(try t.run("history", "--source", "rule:meeting").lines == [
            "#8  2026-11-23 10:20  rule:meeting  start Calls  started #6  (focus meeting on)",
            "#7  2026-11-23 10:20  rule:meeting  stop  stopped #5  (focus meeting on)",
        ])
        #expect(try t.run("history", "--source", "rule").lines.count == 7)
    }

    @Test func replayedOccurrencesAndKeysChangeNothing() async throws {
        let t = try sandbox()
        let before = try ["rule_firing", "firing", "intent_log", "entry", "focus_change"].map { try count(t, $0) }
        #expect(before == [6, 9, 9, 6, 2])
        // The command-line keys: each is applied before, and says so.
        let start = try t.run("start", "-p", "Docs", "--key", "cli-docs")
        #expect(start.status == 0, "\(start)")
        #expect(start.stdout.contains("key \"cli-docs\" was applied before; nothing changed"), "\(start)")
        #expect(try t.run("stop", "--key", "cli-stop").status == 0)
        // The schedule and calendar window again, as a second evaluator that
        // had not looked at it would: every occurrence was fired.
        var config = Configuration()
        config.busyMode = .timeout(10)
        try await DatabaseQueue(path: t.storePath, configuration: config).write { db in
            try db.execute(sql: "UPDATE watermark SET at = strftime('%s', '2026-11-23 07:30:00')")
            // The geofence forgets the fixes it took, so the track plays again.
            try db.execute(sql: "DELETE FROM place_tracker")
        }
        var replayed: [String] = []
        for now in ["2026-11-23 09:05", "2026-11-23 09:35", "2026-11-23 09:50"] {
            let tick = try t.run("tick", now: now)
            #expect(tick.status == 0, "\(tick)")
            replayed += tick.lines.filter { $0.hasPrefix("already fired") }
        }
        #expect(replayed == [
            "already fired office-hours at 2026-11-23T09:00:00+01:00",
            "already fired standup at 2026-11-23T09:28:00+01:00",
            "already fired standup-end at 2026-11-23T09:45:00+01:00",
        ])
        // The arrival from the same track.
        let feed = try t.run("feed", Self.fixture.appendingPathComponent("walk.csv").path, now: "2026-11-23 10:10")
        #expect(feed.status == 0, "\(feed)")
        #expect(feed.stdout.contains("1 transition, 0 rules fired"), "\(feed)")
        // The timed focus line, read again by the daemon: its stdin key was
        // stored by the release. The daemon gets the focus rule alone, so
        // that no schedule falls due on the real clock it runs on.
        try t.write("rules:\n  - id: meeting\n    when: {focus: meeting}\n    do: [{stop: {}}, {start: {project: Calls}}]\n",
                    to: "focus.yaml")
        let input = Pipe()
        let daemon = try t.launch(["run", "--rules", t.path("focus.yaml")], input: input)
        defer { daemon.stop() }
        input.fileHandleForWriting.write(Data(try fixtureText("events.jsonl").utf8))
        try input.fileHandleForWriting.close()
        _ = await eventually(within: 15, every: .milliseconds(50)) { daemon.stderrSoFar.contains("end of stdin after 1 line") }
        daemon.signal(SIGTERM)
        #expect(try await daemon.finish().status == 0)
        let after = try ["rule_firing", "firing", "intent_log", "entry", "focus_change"].map { try count(t, $0) }
        // The intent log grows by the two replayed command-line keys only.
        #expect(after == [6, 9, 11, 6, 2])
    }
}
