import Foundation
import Testing
import TrackeeTestSupport

/// Many processes on one store at once.
@Suite struct ConcurrencyTests {
    @Test func fiftyConcurrentStartsMakeOneTimerAndFiftyStopsEndItOnce() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-20 18:00")
        #expect(!FileManager.default.fileExists(atPath: t.storePath))

        let starts = try (1...50).map { _ in try t.launch(["start", "--project", "P"]) }.map { try $0.wait() }
        #expect(starts.map(\.status) == Array(repeating: 0, count: 50))
        #expect(starts.map(\.stderr) == Array(repeating: "", count: 50))
        let started = starts.filter { $0.lines == ["created project \"P\"", "started P at 18:00"] }
        let unchanged = starts.filter { $0.lines == ["unchanged: P running since 18:00 (0:00)"] }
        #expect(started.count == 1)
        #expect(unchanged.count == 49)

        let status = try t.run("status", "--json").json()
        #expect(status["running"]["id"] == 1)
        #expect(status["running"]["project"] == "P")
        #expect(status["running"]["start"] == "2026-11-20T18:00:00+01:00")
        let log = try t.run("log", "--json").json()
        #expect(log["days"].elements.count == 1)
        #expect(log["days"][0]["entries"].elements.map(\.["id"]) == [1])
        #expect(try t.run("projects", "--json").json().elements.map(\.["name"]) == ["P"])

        let stops = try (1...50).map { _ in try t.launch(["stop"], now: "2026-11-20 18:30") }.map { try $0.wait() }
        #expect(stops.map(\.status) == Array(repeating: 0, count: 50))
        #expect(stops.map(\.stderr) == Array(repeating: "", count: 50))
        #expect(stops.filter { $0.lines == ["stopped P at 18:30 after 0:30"] }.count == 1)
        #expect(stops.filter { $0.lines == ["unchanged: no timer running"] }.count == 49)

        let after = try t.run("log", "--json").json()
        let entries = after["days"].elements.flatMap(\.["entries"].elements)
        #expect(entries.count == 1)
        #expect(entries.first?["id"] == 1)
        #expect(entries.first?["end"] == "2026-11-20T18:30:00+01:00")
        #expect(entries.first?["running"] == false)
        #expect(try t.run("status", "--json", now: "2026-11-20 18:30").json()["running"] == .absent)
        #expect(try t.mode(t.storePath) == 0o600)
    }
}
