import Foundation
import Testing
import TrackeeDesk

extension DeskBusSuites {
    /// Issue 19 §4 through the real `trackee run`: the built binary attached
    /// to python-dbusmock mocks of logind, UPower, NetworkManager and Mutter on
    /// a private bus, rules in its config directory, and the store it commits
    /// to read back to the second.
    ///
    /// Here, rather than in TrackeeCLITests, because the bus, the mocks and
    /// the connection that drives them are this target's; the binary is found
    /// as the CLI tests find it. Serialized: each test runs a bus, up to four
    /// python mocks and the daemon, which is load enough on a shared machine.
    @Suite(.serialized)
    struct DeskRunTests {
        typealias Stored = TrackeeRunProcess.Stored
        typealias Firing = TrackeeRunProcess.Firing

        /// The start line with every mock on the bus.
        static let everything =
            "desk: idle from Mutter, lock and sleep from logind, network from NetworkManager, power from UPower, devices from udev"

        /// What a `notify` logs where notify-send is not on the PATH (for a
        /// person: without the firing's metadata, whose key
        /// ``TrackeeRunProcess/firingKeys(of:)`` reads from the store).
        static func notified(_ text: String) -> String {
            "trackee run: notice: notify (notify-send is not installed (Debian: libnotify-bin)): \(text)"
        }

        /// Starts `mocks`, an entry of project Desk started an hour ago, and
        /// `trackee run` with `rules`; checks its start line against `attached`,
        /// runs `body` with the entry's start, then expects SIGTERM to end the
        /// daemon with status 0. Everything is stopped and removed whatever
        /// happens. With `orderedLogind`, logind is Tests/Fixtures/dbusmock/
        /// logind_ordered.py, logging to the run's ``TrackeeRunProcess/orderLogURL``.
        func withDesk(_ mocks: MockedDesk.Mocks = .all, orderedLogind: Bool = false, attached: String = everything,
                      rules: String, _ body: (MockedDesk, TrackeeRunProcess, Int64) async throws -> Void) async throws {
            let run = try TrackeeRunProcess(rules: rules)
            defer { run.stop() }
            let desk: MockedDesk
            if orderedLogind {
                let parameters = try JSONSerialization.data(withJSONObject: [
                    "order_log": run.orderLogURL.path, "store": run.storePath,
                ])
                desk = try MockedDesk(mocks, logindTemplate: "logind_ordered",
                                      logindParameters: String(decoding: parameters, as: UTF8.self))
            } else {
                desk = try MockedDesk(mocks)
            }
            defer { desk.stop() }
            run.desk = desk.environment
            let before = Int64(Date().timeIntervalSince1970)
            let started = try run.trackee("start", "-p", "Desk", "--at", "-1h")
            try #require(started.status == 0, "\(started.stderr)")
            let start = try #require(try run.entries().first?.start)
            try #require((before...Int64(Date().timeIntervalSince1970)).contains(start + 3600))
            try run.start()
            #expect(await run.deskLine() == attached, "\(run.log)")
            try await body(desk, run, start)
            #expect(await run.terminate() == 0, "\(run.log)")
        }

        // MARK: - Lock

        @Test func lockThenUnlockStopsTheEntryOnceAtTheLocksSecond() async throws {
            try await withDesk(rules: """
                rules:
                  - id: lock
                    when: {session: locked}
                    do: [stop]
                  - id: unlock
                    when: {session: unlocked}
                    do: [{notify: "unlocked"}]
                """) { desk, run, start in
                // The desktop says it both ways, the signal then the hint, and
                // a flood of the hint again is still one edge.
                let locked = nextSecond()
                try desk.session("Lock")
                for _ in 1...20 { try desk.session("SetLockedHint", [.bool(true)]) }
                #expect(try await run.eventually { try run.entries().first?.end != nil })
                let unlocked = nextSecond()
                try desk.session("Unlock")
                try desk.session("SetLockedHint", [.bool(false)])
                #expect(try await run.eventually { try run.firings().count >= 2 })
                #expect(try run.firings() == [Firing("lock", locked), Firing("unlock", unlocked)])
                #expect(try run.entries() == [Stored(project: "Desk", start: start, end: locked, source: "cli")])
                let history = try run.trackee("history", "--source", "rule", "--json")
                #expect(history.status == 0)
                let intents = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8))
                    as? [String: Any])["intents"] as? [[String: Any]]
                #expect(intents?.count == 1)
                #expect(intents?.first?["action"] as? String == "stop")
                #expect(intents?.first?["source"] as? String == "rule:lock")
                #expect(run.logLines(containing: "notify (") == [Self.notified("unlocked")])
                #expect(try run.firingKeys(of: ["unlock"]) == ["unlock@session:unlocked:\(unlocked)"])
            }
        }

        // MARK: - Idle

        /// Mutter's watch is asked for the shortest idle length the rules name
        /// (3 s here, under the minute): it fires when the idle time reaches it,
        /// and the entry ends when idleness began, 3 s before.
        @Test func idleFromMutterEndsTheEntryWhenIdlenessBegan() async throws {
            try await withDesk(rules: """
                rules:
                  - id: away
                    when: {idle: {for: 3s}}
                    do: [{stop: {at: "{{trigger.idle_since}}"}}]
                """) { desk, run, start in
                // Below the watch's interval: no watch fires.
                try desk.idletime(2999)
                let reached = nextSecond()
                try desk.idletime(3000)
                #expect(try await run.eventually { try run.entries().first?.end != nil })
                #expect(try run.entries() == [Stored(project: "Desk", start: start, end: reached - 3, source: "cli")])
                #expect(try run.firings() == [Firing("away", reached)])
            }
        }

        static let onlyLogind = "desk: idle from logind, lock and sleep from logind, devices from udev; "
            + "absent: NetworkManager (not on the system bus), UPower (not on the system bus)"

        /// Without Mutter or a ScreenSaver, logind's hint is the idle source,
        /// and its IdleSinceHint is the source's own time of the edge: ten
        /// minutes in the past, so `for: 10m` is reached at once.
        ///
        /// The daemon restarted within that idleness hears of it again at
        /// start, with the same time: it fires nothing twice.
        @Test func idleFromLogindTenMinutesAgoEndsTheEntryThenOnce() async throws {
            try await withDesk([.logind], attached: Self.onlyLogind, rules: """
                rules:
                  - id: away
                    when: {idle: {for: 10m}}
                    do: [{stop: {at: "{{trigger.idle_since}}"}}]
                """) { desk, run, start in
                let since = Int64(Date().timeIntervalSince1970) - 600 - 7
                try desk.sessionProperties(["IdleHint": .bool(true), "IdleSinceHint": .uint64(UInt64(since) * 1_000_000)])
                #expect(try await run.eventually { try run.entries().first?.end != nil })
                #expect(try run.entries() == [Stored(project: "Desk", start: start, end: since, source: "cli")])
                #expect(try run.firings() == [Firing("away", since + 600)])

                #expect(await run.terminate() == 0)
                try run.start("--verbose")
                #expect(await run.deskLine() == Self.onlyLogind)
                let again = "trackee run: debug: already fired: rule \"away\": idle 10m at \(Self.iso8601(since + 600))"
                #expect(await run.eventually { !run.logLines(containing: again).isEmpty }, "\(run.log)")
                #expect(try run.entries() == [Stored(project: "Desk", start: start, end: since, source: "cli")])
                #expect(try run.firings() == [Firing("away", since + 600)])
            }
        }

        // MARK: - Activity again

        /// `back` waits for 5 s of idleness: the first period (3 s to the idle
        /// watch, then 2 s more) fires it once; a second, shorter one does not,
        /// while `any` sees both ends.
        @Test func activityAgainAfterLongEnoughFiresBackOnce() async throws {
            try await withDesk(rules: """
                rules:
                  - id: away
                    when: {idle: {for: 3s}}
                    do: [{stop: {at: "{{trigger.idle_since}}"}}]
                  - id: back
                    when: {idle: {ended: true, after: 5s}}
                    do: [{notify: "Away {{trigger.idle_duration}}; timer stopped at {{trigger.idle_since}}"}]
                  - id: any
                    when: {idle: ended}
                    do: [{notify: "active"}]
                """) { desk, run, start in
                let reached = nextSecond()
                try desk.idletime(3000)
                #expect(try await run.eventually { try run.entries().first?.end != nil })
                _ = nextSecond()
                let active = nextSecond()
                try desk.idletime(0)
                #expect(try await run.eventually { try run.firings().count >= 3 })
                let again = nextSecond()
                try desk.idletime(3000)
                let activeAgain = nextSecond()
                try desk.idletime(0)
                #expect(try await run.eventually { try run.firings().count >= 5 })
                #expect(try run.firings() == [
                    Firing("away", reached), Firing("any", active), Firing("back", active),
                    Firing("away", again), Firing("any", activeAgain),
                ])
                #expect(try run.entries() == [Stored(project: "Desk", start: start, end: reached - 3, source: "cli")])
                let since = Self.iso8601(reached - 3)
                // The rules' order within one event; `idle_duration` as people read it.
                #expect(run.logLines(containing: "notify (") == [
                    Self.notified("Away <1m; timer stopped at \(since)"),
                    Self.notified("active"),
                    Self.notified("active"),
                ])
                #expect(try run.firingKeys(of: ["back", "any"]) == [
                    "any@idle:\(reached - 3):ended", "back@idle:\(reached - 3):ended", "any@idle:\(again - 3):ended",
                ])
            }
        }

        /// `2026-11-26T09:14:05Z`.
        static func iso8601(_ seconds: Int64) -> String {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(identifier: "UTC")
            return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        }

        // MARK: - Suspend

        /// The mock logs, in order, the inhibitor trackee takes, the suspend
        /// it announces with the entries running then, the inhibitor's release
        /// with the entries running then (0: the stop was committed first),
        /// the resume, and the new inhibitor taken after it.
        @Test func aSuspendsStopIsCommittedBeforeTheInhibitorIsReleased() async throws {
            try await withDesk(orderedLogind: true, rules: """
                rules:
                  - id: suspend
                    when: {sleep: suspend}
                    do: [stop]
                  - id: resume
                    when: {sleep: resume}
                    do: [{start: {project: Back}}]
                """) { desk, run, start in
                let suspended = nextSecond()
                try desk.prepare("PrepareForSleep", true)
                #expect(await run.eventually { run.orderLog.count >= 3 })
                let resumed = nextSecond()
                try desk.prepare("PrepareForSleep", false)
                #expect(try await run.eventually { try run.orderLog.count >= 5 && run.firings().count >= 2 })
                #expect(run.orderLog == [
                    "Inhibit sleep:shutdown delay",
                    "PrepareForSleep true: 1 running",
                    "released sleep:shutdown delay: 0 running",
                    "PrepareForSleep false: 0 running",
                    "Inhibit sleep:shutdown delay",
                ])
                #expect(try run.firings() == [Firing("suspend", suspended), Firing("resume", resumed)])
                #expect(try run.entries() == [
                    Stored(project: "Desk", start: start, end: suspended, source: "cli"),
                    Stored(project: "Back", start: resumed, end: nil, source: "rule:resume"),
                ])
                // The inhibitor held at exit goes with the daemon.
                #expect(await run.terminate() == 0)
                #expect(await run.eventually { run.orderLog.count >= 6 })
                #expect(run.orderLog.last == "released sleep:shutdown delay: 1 running")
            }
        }

        /// A shutdown the same way; cancelled, it fires nothing and the next
        /// one is held off again.
        @Test func aShutdownsStopIsCommittedBeforeTheInhibitorIsReleased() async throws {
            try await withDesk(orderedLogind: true, rules: """
                rules:
                  - id: shutdown
                    when: {sleep: shutdown}
                    do: [stop]
                """) { desk, run, start in
                let shutdown = nextSecond()
                try desk.prepare("PrepareForShutdown", true)
                #expect(await run.eventually { run.orderLog.count >= 3 })
                try desk.prepare("PrepareForShutdown", false)
                #expect(await run.eventually { run.orderLog.count >= 5 })
                #expect(run.orderLog == [
                    "Inhibit sleep:shutdown delay",
                    "PrepareForShutdown true: 1 running",
                    "released sleep:shutdown delay: 0 running",
                    "PrepareForShutdown false: 0 running",
                    "Inhibit sleep:shutdown delay",
                ])
                #expect(try run.firings() == [Firing("shutdown", shutdown)])
                #expect(try run.entries() == [Stored(project: "Desk", start: start, end: shutdown, source: "cli")])
            }
        }
    }
}
