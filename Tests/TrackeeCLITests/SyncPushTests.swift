import Foundation
import GRDB
import Glibc
import Testing
import TrackeeTestSupport

/// `trackee sync` against the fake Clockify and Toggl Track servers
/// (Tests/Servers), through the built binaries (`trackee` and the
/// `trackee-sync` next to it): pushing what rules recorded, exactly once
/// through SIGKILLs and lost answers, a week offline, edits, deletions,
/// undo and conflicts, and a refused token that no output repeats.
@Suite(.serialized) struct SyncPushTests {
    static let token = "sync-test-secret-7f3a9c"

    /// A sandbox whose settings push to `server` (target "work"), since
    /// 2026-11-01, creating missing projects, with a quota of
    /// `requestsPerHour` (nil: the default, 30; the tests that are not
    /// about quotas state one no push of theirs reaches).
    static func sandbox(_ server: FakeTimeServiceProcess, token: String = token, now: String = "2026-11-23 12:00",
                        requestsPerHour: Int? = 100_000) throws -> Sandbox {
        let t = try Sandbox(now: now)
        try FileManager.default.createDirectory(atPath: t.path("config/trackee"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: t.path("home/.config/trackee"), withIntermediateDirectories: true)
        try t.write(token + "\n", to: "home/.config/trackee/service.token")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: t.path("home/.config/trackee/service.token"))
        try t.write("""
            sync:
              work:
                service: \(server.service)
                workspace: My Company
                token_file: ~/.config/trackee/service.token
                since: 2026-11-01
                create_missing: true
                url: \(server.baseURL)
            """ + (requestsPerHour.map { "\n    requests_per_hour: \($0)" } ?? "") + "\ncreate_projects: always\n",
            to: "config/trackee/config.yaml")
        return t
    }

    /// `start|end|description` of every finished local entry, by start.
    static func local(_ t: Sandbox) throws -> [String] {
        let db = try DatabaseQueue(path: t.storePath)
        return try db.read { db in
            try Row.fetchAll(db, sql: "SELECT start, \"end\", description FROM entry WHERE \"end\" IS NOT NULL ORDER BY start, id")
                .map { "\($0[0] as Int64)|\($0[1] as Int64)|\($0[2] as String)" }
        }
    }

    /// `start|end|description` of every entry the server holds, by start.
    static func remote(_ server: FakeTimeServiceProcess) throws -> [String] {
        let entries = try server.state()["time_entries"] as? [[String: Any]] ?? []
        return entries.map { e -> (Int64, String) in
            let (start, end): (String, String)
            if let interval = e["timeInterval"] as? [String: Any] {
                start = interval["start"] as? String ?? ""
                end = interval["end"] as? String ?? ""
            } else {
                start = e["start"] as? String ?? ""
                end = e["stop"] as? String ?? ""
            }
            let s = epoch(start)
            return (s, "\(s)|\(epoch(end))|\(e["description"] as? String ?? "")")
        }.sorted { $0 < $1 }.map(\.1)
    }

    /// Seconds since 1970 of `2026-11-23T08:00:00Z` or `…+00:00`.
    static func epoch(_ text: String) -> Int64 {
        let f = ISO8601DateFormatter()
        return Int64(f.date(from: text.replacingOccurrences(of: "+00:00", with: "Z"))?.timeIntervalSince1970 ?? -1)
    }

    /// Runs `sql` on the sandbox's store, with SQLite directly.
    static func sql(_ t: Sandbox, _ sql: String, _ arguments: StatementArguments) throws {
        var config = Configuration()
        config.busyMode = .timeout(10)
        try DatabaseQueue(path: t.storePath, configuration: config).write { try $0.execute(sql: sql, arguments: arguments) }
    }

    /// Requests the server logged for `method` on paths matching `path`.
    static func logged(_ server: FakeTimeServiceProcess, _ method: String, _ path: String) throws -> [[String: Any]] {
        try server.requests().filter { ($0["method"] as? String) == method && (($0["path"] as? String) ?? "").contains(path) }
    }

    /// Rules that record one entry per visit to "office", and a CSV track
    /// of `visits` visits of five minutes, one every ten minutes from
    /// 2026-11-10 08:00 UTC.
    static func recordVisits(_ t: Sandbox, _ visits: Int) throws {
        try t.write("""
            places:
              office: {lat: 50.0, lon: 14.0, radius: 100}
            rules:
              - id: arrive
                when: {arrive: office, for: 1m}
                do: [{start: {project: Office, client: Acme, description: visit}}]
              - id: leave
                when: {leave: office, for: 1m}
                do: [stop]
            """.replacingOccurrences(of: "do: [stop]", with: "do: [{stop: {}}]"), to: "rules.yaml")
        var csv = "time,lat,lon,accuracy\n"
        let base = 1_794_297_600  // 2026-11-10T08:00:00Z
        for v in 0..<visits {
            for minute in 0..<10 {
                let at = base + v * 600 + minute * 60
                let inside = minute >= 1 && minute <= 5
                csv += "\(at),\(inside ? 50.0 : 50.01),14.0,10\n"
            }
        }
        try t.write(csv, to: "track.csv")
        let r = try t.run("feed", "--rules", t.path("rules.yaml"), "--format", "csv", t.path("track.csv"))
        #expect(r.status == 0, "\(r)")
    }

    @Test func aUsedUpQuotaHoldsTheRestBackAndSyncStatusSaysUntilWhen() throws {
        let server = try FakeTimeServiceProcess(service: "toggl", token: Self.token)
        // The default quota, Toggl's Free plan: 30 workspace requests an hour.
        let t = try Self.sandbox(server, now: "2026-11-23 12:00", requestsPerHour: nil)
        try server.setClock(Self.epoch("2026-11-23T11:00:00Z"))  // 12:00 in Prague
        try server.setQuota(workspace: 30, user: 30)
        for i in 0..<40 {
            let from = String(format: "2026-11-20 %02d:%02d", 8 + i / 6, i % 6 * 10)
            let to = String(format: "2026-11-20 %02d:%02d", 8 + i / 6, i % 6 * 10 + 5)
            #expect(try t.run("add", "--from", from, "--to", to, "entry \(i)").status == 0)
        }
        let r = try t.run("sync")
        #expect(r.status == 75, "\(r)")
        #expect(r.lines == ["work: pushed 30, adopted 0, failed 0, conflicts 0, still queued 10; waiting for Toggl Track's "
                            + "hourly quota (30 requests) until 2026-11-23T13:00:00+01:00; the rest goes then"])
        let status = try t.run("sync", "status")
        #expect(status.lines == ["work (toggl): 10 queued, 0 failed, 0 in conflict, 30 held there; last success "
                                 + "2026-11-23T12:00:00+01:00; waiting for Toggl Track's hourly quota until 13:00; "
                                 + "0 of 30 requests left this hour (28 of 30 for /me)"])
        let json = try t.run("sync", "status", "--json").json()
        #expect(json[0]["quota"] == (try parsedJSON("""
            {"requests_per_hour": 30, "left": 0, "user_left": 28, "waiting_until": "2026-11-23T13:00:00+01:00"}
            """)))
        #expect(json[0]["retry_at"] == .string("2026-11-23T13:00:00+01:00"))
        // Before then nothing goes out; nothing was set aside.
        let before = try server.requests().count
        #expect(try t.run("sync", now: "2026-11-23 12:59").status == 75)
        #expect(try server.requests().count == before)
        try server.setClock(Self.epoch("2026-11-23T12:00:00Z"))
        let rest = try t.run("sync", now: "2026-11-23 13:00")
        #expect(rest.status == 0, "\(rest)")
        #expect(rest.lines == ["work: pushed 10, adopted 0, failed 0, conflicts 0, still queued 0"])
        #expect(try Self.remote(server).count == 40)
        let quota = try server.state()["quota"] as? [String: [String: Any]] ?? [:]
        #expect(quota["workspace"]?["refused"] as? Int == 0)
        #expect(quota["user"]?["refused"] as? Int == 0)
        #expect(try t.run("sync", "status", now: "2026-11-23 13:05").lines
            == ["work (toggl): 0 queued, 0 failed, 0 in conflict, 40 held there; last success 2026-11-23T13:00:00+01:00; "
                + "20 of 30 requests left this hour"])
    }

    /// A push that waits for the quota inside the run (a wait of a minute
    /// or less): meanwhile `sync status`, from another process, says until
    /// when, and counts the requests this run has sent so far; once the
    /// wait is over and the push done, the wait is gone.
    @Test func syncStatusShowsAWaitInsideAPushAndTheRequestsSentSoFar() async throws {
        let server = try FakeTimeServiceProcess(service: "toggl", token: Self.token)
        let t = try Self.sandbox(server, requestsPerHour: 10)
        for i in 0..<3 {
            #expect(try t.run("add", "--from", "2026-11-20 1\(i):00", "--to", "2026-11-20 1\(i):30",
                              "entry \(i)").status == 0)
        }
        // The real clock, as a pinned one never lets a wait end. The hour
        // holds ten workspace requests of an earlier run, the oldest of
        // them leaving it in 30 seconds: long enough for a loaded machine
        // to start the push and look before the wait is over.
        t.now = ""
        let until = Int64(Date().timeIntervalSince1970) + 30
        try Self.sql(t, "INSERT INTO sync_request (target, scope, at, count) VALUES ('work', 'workspace', ?, 10)",
                     [until - 3600])
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "Europe/Prague")
        let waitingUntil = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(until)))
        let push = try t.launch(["sync"])
        defer { push.stop() }
        // Who the token is and the workspace (/me, /me/workspaces) went
        // out, then the first create waits.
        var during: JSONValue = .absent
        #expect(try await TrackeeTestSupport.eventually(within: 25, every: .milliseconds(100)) {
            during = try t.run("sync", "status", "--json").json()
            return during[0]["quota"]["waiting_until"] != .absent
        })
        let human = try t.run("sync", "status")
        #expect(push.process.isRunning)
        #expect(during[0]["quota"] == (try parsedJSON("""
            {"requests_per_hour": 10, "left": 0, "user_left": 28, "waiting_until": "\(waitingUntil)"}
            """)))
        #expect(during[0]["retry_at"] == .string(waitingUntil))
        #expect(during[0]["queued"] == .number(3))
        #expect(human.lines == ["work (toggl): 3 queued, 0 failed, 0 in conflict, 0 held there; never pushed; waiting for Toggl Track's "
                                + "hourly quota until \(String(waitingUntil.dropFirst(11).prefix(5))); "
                                + "0 of 10 requests left this hour (28 of 30 for /me)"])
        let r = try await push.finish()
        #expect(r.status == 0, "\(r)")
        #expect(r.lines == ["work: pushed 3, adopted 0, failed 0, conflicts 0, still queued 0"])
        #expect(Int64(Date().timeIntervalSince1970) >= until)
        let after = try t.run("sync", "status", "--json").json()
        #expect(after[0]["quota"] == (try parsedJSON("""
            {"requests_per_hour": 10, "left": 7, "user_left": 28}
            """)))
        #expect(after[0]["retry_at"] == .absent)
        #expect(after[0]["last_error"] == .absent)
        #expect(try Self.remote(server).count == 3)
    }

    @Test func aThousandEntriesRecordedByRulesArePushedOnce() throws {
        let server = try FakeTimeServiceProcess(service: "clockify", token: Self.token)
        let t = try Self.sandbox(server)
        try Self.recordVisits(t, 1000)
        let local = try Self.local(t)
        #expect(local.count == 1000)
        let r = try t.run("sync")
        #expect(r.status == 0, "\(r)")
        #expect(r.lines == ["work: pushed 1000, adopted 0, failed 0, conflicts 0, still queued 0"])
        #expect(try Self.remote(server) == local)
        #expect(try Self.logged(server, "POST", "/time-entries").count == 1000)
        // The project and its client were created once, there.
        let state = try server.state()
        #expect((state["projects"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Office"])
        #expect((state["clients"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Acme"])
        // Nothing left: a second sync sends nothing.
        let again = try t.run("sync")
        #expect(again.lines == ["work: pushed 0, adopted 0, failed 0, conflicts 0, still queued 0"])
        #expect(try Self.logged(server, "POST", "/time-entries").count == 1000)
        #expect(try t.run("sync", "status").lines.first?.hasPrefix("work (clockify): 0 queued, 0 failed, 0 in conflict, 1000 held there; last success ") == true)
    }

    @Test func fiftySIGKILLsWhilePushingLeaveExactlyTheLocalEntriesThere() throws {
        let server = try FakeTimeServiceProcess(service: "toggl", token: Self.token)
        let t = try Self.sandbox(server)
        try Self.recordVisits(t, 300)
        let local = try Self.local(t)
        #expect(local.count == 300)
        var random = SeededGenerator(seed: 20261123)
        var killed = 0
        for round in 0..<50 {
            // Every fifth round, a create is stored and its answer lost as
            // well; creates take 20 ms each, so the kill lands mid-push.
            if round % 5 == 0 { try server.fail(["match": "^POST .*/time_entries$", "mode": "drop_after_store", "times": 1]) }
            try server.fail(["match": "^POST .*/time_entries$", "mode": "delay", "seconds": 0.02, "times": 25])
            // Two hours apart, so the backoff a lost answer starts has passed.
            let running = try t.launch(["sync"], now: String(format: "2026-11-%02d %02d:00", 24 + round / 12, round % 12 * 2))
            usleep(UInt32(random.int(5_000...400_000)))
            running.signal(SIGKILL)
            let run = try running.wait()
            if run.status == -SIGKILL || run.status == 128 + SIGKILL || run.status == SIGKILL { killed += 1 }
        }
        // Push what is left: each lost answer still queued stops a run
        // (status 75) until its backoff ends, an hour later at most.
        var runs: [Int32] = []
        for hour in 10...23 {
            runs.append(try t.run("sync", now: "2026-11-29 \(hour):00").status)
            if runs.last == 0 { break }
        }
        #expect(runs.last == 0, "\(runs)")
        #expect(runs.dropLast().allSatisfy { $0 == 75 }, "\(runs)")
        #expect(killed >= 25)
        let remote = try Self.remote(server)
        #expect(remote.count == 300)
        #expect(Set(remote).count == 300)
        #expect(remote == local)
        #expect(try t.run("sync", "status", now: "2026-11-29 23:30").lines.first?.hasPrefix("work (toggl): 0 queued, 0 failed, 0 in conflict, 300 held there") == true)
    }

    @Test func aWeekOfflineThenEverythingArrivesInOrderWithBackoff() throws {
        let server = try FakeTimeServiceProcess(service: "clockify", token: Self.token)
        let t = try Self.sandbox(server, now: "2026-11-16 08:00")
        try server.down(mode: "close")
        var onTheHour: [Int] = []
        var minuteLater: [Int] = []
        // Seven days, an entry a day, and `trackee sync` twice an hour
        // (at :00 and :01) from 10:00 to 23:00 each day.
        for day in 16...22 {
            #expect(try t.run("add", "--from", "2026-11-\(day) 09:00", "--to", "2026-11-\(day) 10:00", "day \(day)").status == 0)
            for hour in 10...23 {
                for minute in [0, 1] {
                    let before = try server.requests().count
                    let r = try t.run("sync", now: "2026-11-\(day) \(hour):0\(minute)")
                    #expect(r.status == 75 || r.status == 0, "\(r)")
                    let made = try server.requests().count - before
                    if minute == 0 { onTheHour.append(made) } else { minuteLater.append(made) }
                }
            }
        }
        // One request per run at most while it is down (the first one
        // fails); a minute later nothing is due once the backoff has grown
        // past a minute (after the seventh try), and never more than an
        // hour passes between tries.
        // (Tries 1, 3 and 5 come a minute after 0, 2 and 4; then the
        // backoff, 64 s less up to a fifth, decides 13:01; after that no
        // run a minute after a try is due.)
        #expect(onTheHour.allSatisfy { $0 == 1 }, "\(onTheHour)")
        #expect(minuteLater.prefix(3) == [1, 1, 1], "\(minuteLater)")
        #expect(minuteLater.dropFirst(4).allSatisfy { $0 == 0 }, "\(minuteLater)")
        let status = try t.run("sync", "status", now: "2026-11-23 08:00")
        #expect(status.lines.first?.hasPrefix("work (clockify): 7 queued, 0 failed, 0 in conflict, 0 held there; never pushed; last error ") == true)
        try server.up()
        let r = try t.run("sync", now: "2026-11-23 09:00")
        #expect(r.status == 0, "\(r)")
        #expect(r.lines == ["work: pushed 7, adopted 0, failed 0, conflicts 0, still queued 0"])
        // In the order they were made.
        let creates = try Self.logged(server, "POST", "/time-entries").filter { ($0["status"] as? Int) == 201 }
        let bodies = creates.compactMap { $0["body"] as? [String: Any] }
        #expect(bodies.compactMap { $0["description"] as? String } == (16...22).map { "day \($0)" })
        #expect(try Self.remote(server) == Self.local(t))
    }

    @Test func editsDeletionsAndUndoFollowAndARemoteDeletionIsAConflict() throws {
        let server = try FakeTimeServiceProcess(service: "toggl", token: Self.token)
        let t = try Self.sandbox(server)
        #expect(try t.run("add", "--from", "2026-11-20 09:00", "--to", "2026-11-20 10:00", "first").status == 0)
        #expect(try t.run("add", "--from", "2026-11-20 11:00", "--to", "2026-11-20 12:00", "second").status == 0)
        #expect(try t.run("sync").status == 0)
        #expect(try Self.remote(server) == Self.local(t))
        #expect(try t.run("edit", "1", "--description", "first, edited").status == 0)
        #expect(try t.run("delete", "2").status == 0)
        #expect(try t.run("sync").lines == ["work: pushed 2, adopted 0, failed 0, conflicts 0, still queued 0"])
        #expect(try Self.remote(server).map { $0.split(separator: "|").last.map(String.init) ?? "" } == ["first, edited"])
        #expect(try t.run("undo").status == 0)
        #expect(try t.run("sync").lines == ["work: pushed 1, adopted 0, failed 0, conflicts 0, still queued 0"])
        #expect(try Self.remote(server) == Self.local(t))
        // Deleted there, edited here: a conflict, not a silent re-create.
        try server.reset()
        #expect(try t.run("edit", "1", "--description", "first, again").status == 0)
        let conflicted = try t.run("sync")
        #expect(conflicted.status == 65)
        #expect(conflicted.lines == ["work: pushed 0, adopted 0, failed 0, conflicts 1, still queued 0; see trackee sync status"])
        let status = try t.run("sync", "status").lines
        #expect(status.first?.hasPrefix("work (toggl): 0 queued, 0 failed, 1 in conflict, 2 held there") == true)
        #expect(Array(status.dropFirst()) == [
            "  entry 1: conflict: the service no longer has this entry (404)",
            "settle them with trackee sync resolve ENTRY --keep local|remote",
        ])
        #expect(try t.run("sync", "resolve", "1", "--keep", "local").lines == ["entry 1: kept the local side for work; it is queued again"])
        #expect(try t.run("sync").lines == ["work: pushed 1, adopted 0, failed 0, conflicts 0, still queued 0"])
        #expect(try Self.remote(server).map { $0.split(separator: "|").last.map(String.init) ?? "" } == ["first, again"])
    }

    @Test func theDaemonPushesChangesByItselfAndCatchesUpWhenTheServiceReturns() async throws {
        let server = try FakeTimeServiceProcess(service: "clockify", token: Self.token)
        let t = try Self.sandbox(server)
        t.now = ""  // the daemon runs on the real clock, so do these commands
        let daemon = try t.launch(["run"])
        defer { daemon.stop() }
        func eventually(_ seconds: Double = 60, _ condition: () throws -> Bool) async rethrows -> Bool {
            try await TrackeeTestSupport.eventually(within: seconds, every: .milliseconds(100), condition)
        }
        #expect(try t.run("add", "--from", "2026-11-20 09:00", "--to", "2026-11-20 10:00", "by hand").status == 0)
        #expect(try await eventually { try Self.remote(server).count == 1 })
        // Down: a change waits, with backoff; up again, it arrives.
        try server.down(mode: "refuse")
        #expect(try t.run("add", "--from", "2026-11-20 11:00", "--to", "2026-11-20 12:00", "while down").status == 0)
        #expect(try await eventually { (try t.run("sync", "status").lines.first ?? "").contains("last error") })
        try server.up()
        #expect(try await eventually(90) { try Self.remote(server).count == 2 })
        #expect(try Self.remote(server) == Self.local(t))
        daemon.signal(SIGTERM)
        let r = try await daemon.finish()
        #expect(r.status == 0, "\(r)")
        #expect(!r.stderr.contains(Self.token))
    }

    @Test func checkSaysWhoTheTokenIsAndWhichProjectsAPushWouldCreate() throws {
        let server = try FakeTimeServiceProcess(service: "clockify", token: Self.token)
        let t = try Self.sandbox(server)
        #expect(try t.run("add", "-p", "Office", "-c", "Acme", "--from", "2026-11-20 09:00", "--to", "2026-11-20 10:00", "a").status == 0)
        #expect(try t.run("add", "-p", "Docs", "--from", "2026-11-20 11:00", "--to", "2026-11-20 12:00", "b").status == 0)
        let workspace = (try server.state()["workspaces"] as? [[String: Any]])?.first?["id"] as? String ?? "?"
        let r = try t.run("sync", "check")
        #expect(r.status == 0, "\(r)")
        #expect(r.lines == [
            "work (clockify): authenticated as Ada Lovelace <ada@example.com>, workspace \"My Company\" (\(workspace))",
            "work: would create: Office (Acme), Docs",
        ])
        let json = try t.run("sync", "check", "--json")
        #expect(try json.json() == parsedJSON("""
            [{"create_missing": true, "email": "ada@example.com", "missing_projects": ["Office (Acme)", "Docs"],
              "service": "clockify", "target": "work", "user": "Ada Lovelace", "workspace": "My Company",
              "workspace_id": "\(workspace)"}]
            """))
        // It sent nothing: no entry, no project.
        #expect((try server.state()["time_entries"] as? [Any])?.count == 0)
        #expect((try server.state()["projects"] as? [Any])?.count == 0)
        // A push creates them, and then check finds nothing missing.
        #expect(try t.run("sync").status == 0)
        #expect(try t.run("sync", "check").lines.last == "work: every project the queued entries need exists there")
    }

    @Test func aRefusedTokenStopsWithOneSentenceKeepsTheQueueAndIsNeverShown() throws {
        let server = try FakeTimeServiceProcess(service: "clockify", token: "the-right-token")
        let t = try Self.sandbox(server, token: Self.token)
        var outputs: [String] = []
        #expect(try t.run("add", "--from", "2026-11-20 09:00", "--to", "2026-11-20 10:00", "work").status == 0)
        let r = try t.run("sync")
        outputs += [r.stdout, r.stderr]
        #expect(r.status == 77)
        #expect(r.lines == [
            "work: pushed 0, adopted 0, failed 0, conflicts 0, still queued 1; stopped: Clockify did not accept the token (HTTP 401: Full authentication is required to access this resource); fix the token and run trackee sync again",
        ])
        for args in [["sync", "status"], ["sync", "status", "--json"], ["sync", "--json"], ["sync", "check"], ["sync", "check", "--json"],
                     ["sync", "--dry-run"]] {
            let run = try t.run(args)
            outputs += [run.stdout, run.stderr]
        }
        #expect(try t.run("sync", "status").lines.first?.hasPrefix("work (clockify): 1 queued, 0 failed, 0 in conflict, 0 held there; never pushed; last error ") == true)
        for file in try FileManager.default.contentsOfDirectory(atPath: t.path("store")) {
            outputs.append(String(decoding: try Data(contentsOf: URL(fileURLWithPath: t.path("store/" + file))), as: UTF8.self))
        }
        #expect(outputs.filter { $0.contains(Self.token) }.isEmpty)
        #expect(try server.requests().count > 0)
    }
}
