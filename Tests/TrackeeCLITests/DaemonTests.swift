import Foundation
import GRDB
import Glibc
import Testing
import TrackeeTestSupport

/// `trackee run` as a real process in real time: schedules, event lines,
/// reloads, signals, systemd's notify protocol, and exactly-once firing
/// across SIGKILL and beside `trackee tick`.
@Suite(.serialized) struct DaemonTests {
    /// Waits up to `seconds` for `condition`, checking every 50 ms,
    /// without holding the test pool's thread: the test may resume a while
    /// after the condition held, when both of the pool's threads were busy.
    func eventually(_ seconds: Double = 60, _ condition: () throws -> Bool) async rethrows -> Bool {
        try await TrackeeTestSupport.eventually(within: seconds, every: .milliseconds(50), condition)
    }

    /// The same, holding the thread, for a test that must act within a
    /// second or two of the condition (as editing a calendar between two
    /// of its instances).
    func eventuallyHolding(_ seconds: Double = 15, _ condition: () throws -> Bool) rethrows -> Bool {
        try TrackeeTestSupport.eventuallyHolding(within: seconds, every: .milliseconds(50), condition)
    }

    /// A sandbox whose commands use the real clock, as the daemon does.
    func sandbox(rules: String) throws -> Sandbox {
        let t = try Sandbox()
        t.now = ""
        try FileManager.default.createDirectory(atPath: t.path("config/trackee"), withIntermediateDirectories: true)
        try rules.write(toFile: t.path("config/trackee/rules.yaml"), atomically: true, encoding: .utf8)
        return t
    }

    /// Rows of the store, read with SQLite directly.
    func rows(_ t: Sandbox, _ sql: String) throws -> [Row] {
        var config = Configuration()
        config.busyMode = .timeout(10)
        return try DatabaseQueue(path: t.storePath, configuration: config).read { try Row.fetchAll($0, sql: sql) }
    }

    /// Firings so far; 0 while the daemon is still creating the store.
    func firingCount(_ t: Sandbox) -> Int {
        guard FileManager.default.fileExists(atPath: t.storePath) else { return 0 }
        return (try? rows(t, "SELECT count(*) FROM rule_firing"))?.first?[0] ?? 0
    }

    static let everySecond = """
        rules:
          - id: tick
            when: {at: "*:*:*"}
            do:
              - start: {project: "P{{trigger.time}}"}
        """

    @Test func schedulesFireAtTheirInstantAndSIGTERMStopsCleanly() async throws {
        let t = try sandbox(rules: Self.everySecond)
        let daemon = try t.launch(["run"])
        defer { daemon.stop() }
        #expect(await eventually { firingCount(t) >= 3 })
        daemon.signal(SIGTERM)
        let r = try await daemon.finish()
        #expect(r.status == 0)
        #expect(r.stderr.contains("trackee run: info: loaded 1 rule from 1 file\n"))
        #expect(r.stderr.hasSuffix("trackee run: info: stopped\n"))
        // Each firing started its entry at its own second.
        for row in try rows(t, "SELECT r.occurred, e.start, e.source FROM rule_firing r JOIN entry e ON e.start = r.occurred") {
            #expect(row[0] as Int64 == row[1] as Int64)
            #expect(row[2] as String == "rule:tick")
        }
        #expect(try rows(t, "SELECT count(*) FROM entry")[0][0] as Int == (firingCount(t)))
    }

    /// The daemon is killed with SIGKILL halfway through a stream of timed
    /// focus events, restarted, and given the whole stream again: each
    /// change fires once.
    @Test func aStreamReplayedAfterSIGKILLFiresNothingTwice() async throws {
        let t = try sandbox(rules: """
            rules:
              - id: work
                when: {focus: work}
                do: [{start: {project: Work}}]
              - id: meeting
                when: {focus: meeting}
                do: [{start: {project: Meeting}}]
            """)
        // Twenty changes, a minute apart, in the past.
        let base = Int(Date().timeIntervalSince1970) - 3600
        let lines = (0..<20).map { i in
            #"{"type":"focus","mode":"\#(i % 2 == 0 ? "work" : "meeting")","time":\#(base + i * 60)}"#
        }
        let first = Pipe()
        let daemon = try t.launch(["run"], input: first)
        defer { daemon.stop() }
        for line in lines.prefix(10) { first.fileHandleForWriting.write(Data((line + "\n").utf8)) }
        #expect(await eventually { firingCount(t) == 10 })
        daemon.signal(SIGKILL)
        _ = try await daemon.finish()

        let second = Pipe()
        let again = try t.launch(["run"], input: second)
        defer { again.stop() }
        for line in lines { second.fileHandleForWriting.write(Data((line + "\n").utf8)) }
        try second.fileHandleForWriting.close()
        #expect(await eventually { again.stderrSoFar.contains("end of stdin after 20 lines") })
        again.signal(SIGTERM)
        #expect(try await again.finish().status == 0)

        #expect(firingCount(t) == 20)
        #expect(try rows(t, "SELECT count(*) FROM focus_change")[0][0] as Int == 20)
        let entries = try rows(t, "SELECT start FROM entry ORDER BY start").map { $0[0] as Int64 }
        #expect(entries == (0..<20).map { Int64(base + $0 * 60) })
    }

    /// `trackee focus set` fires the focus rules itself; the daemon, seeing
    /// the change on its next pass (a reload forces one here), finds the
    /// firing recorded and does not fire it again.
    @Test func aFocusChangeMadeBesideTheDaemonFiresOnce() async throws {
        let t = try sandbox(rules: "rules:\n  - id: w\n    when: {focus: work}\n    do: [{start: {project: W}}]\n")
        let daemon = try t.launch(["run", "--verbose"])
        defer { daemon.stop() }
        #expect(await eventually { daemon.stderrSoFar.contains("first run: schedules fire") })
        let set = try t.run("focus", "set", "work")
        #expect(set.status == 0)
        #expect(set.lines.first == "focus work on")
        daemon.signal(SIGHUP)
        #expect(await eventually { daemon.stderrSoFar.contains("already fired: rule \"w\": focus work on") })
        daemon.signal(SIGTERM)
        #expect(try await daemon.finish().status == 0)
        #expect(firingCount(t) == 1)
        #expect(try rows(t, "SELECT count(*) FROM entry")[0][0] as Int == 1)
    }

    @Test func aBadLineIsLoggedWithItsNumberAndSkipped() async throws {
        let t = try sandbox(rules: "rules:\n  - id: w\n    when: {focus: work}\n    do: [{start: {project: W}}]\n")
        let input = Pipe()
        let daemon = try t.launch(["run"], input: input)
        defer { daemon.stop() }
        input.fileHandleForWriting.write(Data("{\"type\":\"focus\"}\nnot json\n{\"type\":\"focus\",\"mode\":\"work\"}\n".utf8))
        try input.fileHandleForWriting.close()
        #expect(await eventually { firingCount(t) == 1 })
        #expect(await eventually { daemon.stderrSoFar.contains("end of stdin after 3 lines; schedules go on") })
        daemon.signal(SIGTERM)
        let r = try await daemon.finish()
        #expect(r.status == 0)
        #expect(r.stderr.contains("trackee run: warning: stdin line 1: \"mode\" is missing or blank; line skipped\n"))
        #expect(r.stderr.contains(
            "trackee run: warning: stdin line 2: neither an event (a JSON object with \"type\") nor a position fix; line skipped\n"))
    }

    /// A rule file edited while the daemon runs is reloaded; a rule with
    /// an error is reported with its position and left out, the others
    /// run.
    @Test func aChangedRuleFileIsReloadedAndABadRuleDisabled() async throws {
        let t = try sandbox(rules: "rules: []\n")
        let daemon = try t.launch(["run"])
        defer { daemon.stop() }
        #expect(await eventually { daemon.stderrSoFar.contains("loaded 0 rules from 1 file") })
        try """
            rules:
              - id: broken
                when: {at: "Mon..Fry 9:00"}
                do: [{stop: }]
              - id: tick
                when: {at: "*:*:*"}
                do: [{start: {project: "P{{trigger.time}}"}}]
            """.write(toFile: t.path("config/trackee/rules.yaml"), atomically: true, encoding: .utf8)
        #expect(await eventually { firingCount(t) >= 2 })
        daemon.signal(SIGTERM)
        let r = try await daemon.finish()
        let file = t.path("config/trackee/rules.yaml")
        #expect(r.stderr.contains("trackee run: info: reloading rules: \(file) changed\n"))
        #expect(r.stderr.contains("""
            trackee run: error: \(file):3:16: rule "broken": when.at: invalid calendar expression "Mon..Fry 9:00": unknown weekday "Fry"; the rule is disabled

            """))
        #expect(r.stderr.contains("trackee run: info: loaded 1 rule from 1 file\n"))
        #expect(try rows(t, "SELECT DISTINCT rule FROM rule_firing").map { $0[0] as String } == ["tick"])
    }

    @Test func systemdHearsReadyReloadingAndStopping() async throws {
        let socket = try NotifySocket(timeout: 15)
        let t = try sandbox(rules: "rules: []\n")
        // As systemd starts a service: $JOURNAL_STREAM names the stream
        // its stderr is (device and inode).
        let daemon = try t.launch(["run"], environment: ["NOTIFY_SOCKET": socket.name],
                                  via: ["/bin/sh", "-c", #"JOURNAL_STREAM=$(stat -L -c %d:%i /dev/stderr) exec "$0" "$@""#])
        defer { daemon.stop() }
        #expect(socket.receive() == "READY=1\nSTATUS=0 rules; no schedule firing ahead")
        daemon.signal(SIGHUP)
        let reloading = try #require(socket.receive())
        #expect(reloading.hasPrefix("RELOADING=1\nMONOTONIC_USEC="))
        #expect(socket.receive() == "READY=1\nSTATUS=0 rules; no schedule firing ahead")
        daemon.signal(SIGTERM)
        // The reload re-arms the schedule, which may report its status
        // once more before the stop.
        var messages: [String] = []
        while let message = socket.receive() {
            messages.append(message)
            if message == "STOPPING=1" { break }
        }
        #expect(messages.last == "STOPPING=1")
        #expect(messages.dropLast().allSatisfy { $0 == "STATUS=0 rules; no schedule firing ahead" })
        let r = try await daemon.finish()
        #expect(r.status == 0, "\(r.stderr)")
        // Under the journal every line carries its syslog priority.
        #expect(r.stderr.contains("<6>reloading rules: SIGHUP\n"))
        #expect(r.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("<") })
    }

    /// A refused firing is one `trackee run:` line for a person; with
    /// `--verbose`, and under the journal, it ends in the firing's
    /// metadata.
    @Test func aRefusedFiringIsOneLineAndVerboseOrTheJournalAddTheMetadata() async throws {
        let time = Int(Date().timeIntervalSince1970) - 600
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "Europe/Prague")
        let when = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time)))
        let line = "rule \"w\": focus work on at \(when): refused: no project \"Nowhere\"; "
            + "create the project with `trackee projects add` or set create_projects: always"
        let journal = ["/bin/sh", "-c", #"JOURNAL_STREAM=$(stat -L -c %d:%i /dev/stderr) exec "$0" "$@""#]
        var refused: [[String]] = []
        for (arguments, prefix) in [(["run"], [String]()), (["run", "--verbose"], []), (["run"], journal)] {
            let t = try Sandbox(createProjects: "never")
            t.now = ""
            try t.write("rules:\n  - id: w\n    when: {focus: work}\n    do: [{start: {project: Nowhere}}]\n",
                        to: "config/trackee/rules.yaml")
            let input = Pipe()
            let daemon = try t.launch(arguments, via: prefix, input: input)
            defer { daemon.stop() }
            input.fileHandleForWriting.write(Data(#"{"type":"focus","mode":"work","time":\#(time)}"#.utf8 + [10]))
            try input.fileHandleForWriting.close()
            #expect(await eventually { daemon.stderrSoFar.contains("end of stdin after 1 line") })
            daemon.signal(SIGTERM)
            let r = try await daemon.finish()
            #expect(r.status == 0, "\(r)")
            refused.append(r.stderr.split(separator: "\n").map(String.init).filter { $0.contains("refused") })
        }
        #expect(refused == [
            ["trackee run: error: " + line],
            ["trackee run: error: " + line + " firing.key=w@focus:1 rule.id=w"],
            ["<3>" + line + " firing.key=w@focus:1 rule.id=w"],
        ])
    }

    /// `trackee tick` run again and again beside the daemon: every second
    /// fires once between them.
    @Test func tickBesideRunFiresEachOccurrenceOnce() async throws {
        let t = try sandbox(rules: Self.everySecond)
        _ = try t.run("tick")
        let daemon = try t.launch(["run"])
        defer { daemon.stop() }
        let end = Date().addingTimeInterval(4)
        var ticks = 0
        while Date() < end {
            #expect(try t.run("tick").status == 0)
            ticks += 1
        }
        daemon.signal(SIGTERM)
        #expect(try await daemon.finish().status == 0)
        #expect(ticks > 3)
        let occurred = try rows(t, "SELECT occurred FROM rule_firing ORDER BY occurred").map { $0[0] as Int64 }
        #expect(occurred.count >= 4)
        #expect(Set(occurred).count == occurred.count)
        #expect(try rows(t, "SELECT count(*) FROM entry")[0][0] as Int == occurred.count)
        // Consecutive seconds, none missing between the first and last.
        #expect(occurred.last! - occurred.first! == Int64(occurred.count - 1))
    }
}
