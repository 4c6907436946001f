import Testing
import TrackeeTestSupport

/// start, stop, cancel and idempotency keys, through the built binary.
@Suite struct IntentCommandTests {
    @Test func startCreatesClientAndProjectAndSaysSo() throws {
        let t = try Sandbox(now: "2026-11-20 10:00")
        let r = try t.run("start", "-p", "Docs", "-c", "Acme", "writing")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.lines == [
            "created client \"Acme\"",
            "created project \"Docs\"",
            "started Docs (Acme) · writing at 10:00",
        ])

        let status = try t.run("status", "--json", now: "2026-11-20 10:20").json()
        #expect(status["running"]["id"] == 1)
        #expect(status["running"]["project"] == "Docs")
        #expect(status["running"]["client"] == "Acme")
        #expect(status["running"]["description"] == "writing")
        #expect(status["running"]["start"] == "2026-11-20T10:00:00+01:00")
        #expect(status["running"]["end"] == .absent)
        #expect(status["running"]["running"] == true)
        #expect(status["running"]["source"] == "cli")
        #expect(status["elapsed_seconds"] == 1200)

        let clients = try t.run("clients", "--json").json()
        #expect(clients.elements.count == 1)
        #expect(clients[0]["name"] == "Acme")
        #expect(clients[0]["projects"] == 1)
        #expect(clients[0]["entries"] == 1)
    }

    @Test func startWithTheSameParametersIsUnchangedAndKeepsTheOriginalStart() throws {
        let t = try Sandbox(now: "2026-11-20 10:00")
        #expect(try t.run("start", "-p", "Docs", "-c", "Acme", "writing").status == 0)

        let again = try t.run("start", "-p", "Docs", "-c", "Acme", "writing", "--json", now: "2026-11-20 10:30")
        #expect(again.status == 0)
        let json = try again.json()
        #expect(json["outcome"] == "unchanged")
        #expect(json["replayed"] == false)
        #expect(json["created"] == [])
        #expect(json["previous"] == .absent)
        #expect(json["entry"]["id"] == 1)
        #expect(json["entry"]["start"] == "2026-11-20T10:00:00+01:00")
        #expect(json["entry"]["duration_seconds"] == 1800)
        #expect(json["entry"]["running"] == true)

        let text = try t.run("start", "-p", "Docs", "-c", "Acme", "writing", now: "2026-11-20 10:45")
        #expect(text.status == 0)
        #expect(text.lines == ["unchanged: Docs (Acme) · writing running since 10:00 (0:45)"])

        let log = try t.run("log", "--json").json()
        #expect(log["days"].elements.count == 1)
        #expect(log["days"][0]["entries"].elements.map(\.["id"]) == [1])
    }

    @Test func startWithOtherParametersSwitchesAndSavesTheFirstEntry() throws {
        let t = try Sandbox(now: "2026-11-20 10:00")
        #expect(try t.run("start", "-p", "Docs").status == 0)

        let r = try t.run("start", "-p", "Mail", "--json", now: "2026-11-20 11:00")
        #expect(r.status == 0)
        let json = try r.json()
        #expect(json["outcome"] == "switched")
        #expect(json["replayed"] == false)
        #expect(json["created"] == ["project \"Mail\""])
        #expect(json["previous"]["id"] == 1)
        #expect(json["previous"]["project"] == "Docs")
        #expect(json["previous"]["start"] == "2026-11-20T10:00:00+01:00")
        #expect(json["previous"]["end"] == "2026-11-20T11:00:00+01:00")
        #expect(json["previous"]["duration_seconds"] == 3600)
        #expect(json["previous"]["running"] == false)
        #expect(json["entry"]["id"] == 2)
        #expect(json["entry"]["project"] == "Mail")
        #expect(json["entry"]["start"] == "2026-11-20T11:00:00+01:00")
        #expect(json["entry"]["running"] == true)

        let text = try t.run("start", "-p", "Docs", "review", now: "2026-11-20 11:20")
        #expect(text.status == 0)
        #expect(text.lines == ["switched: saved Mail (0:20), started Docs · review at 11:20"])

        let log = try t.run("log", "--json").json()
        let entries = log["days"][0]["entries"].elements
        #expect(entries.map(\.["id"]) == [3, 2, 1])
        #expect(entries.map(\.["end"]) == [.absent, "2026-11-20T11:20:00+01:00", "2026-11-20T11:00:00+01:00"])
    }

    @Test func stopSavesTheRunningEntry() throws {
        let t = try Sandbox(now: "2026-11-20 10:00")
        #expect(try t.run("start", "-p", "Docs").status == 0)

        let r = try t.run("stop", now: "2026-11-20 11:30")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.lines == ["stopped Docs at 11:30 after 1:30"])

        let status = try t.run("status", "--json", now: "2026-11-20 12:00").json()
        #expect(status["running"] == .absent)
        #expect(status["today_seconds"] == 5400)
        let entry = try t.run("log", "--json").json()["days"][0]["entries"][0]
        #expect(entry["id"] == 1)
        #expect(entry["end"] == "2026-11-20T11:30:00+01:00")
        #expect(entry["duration_seconds"] == 5400)
        #expect(entry["running"] == false)
    }

    @Test func stopWithNothingRunningIsUnchangedAndSucceeds() throws {
        let t = try Sandbox()
        let r = try t.run("stop")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.lines == ["unchanged: no timer running"])

        let json = try t.run("stop", "--json")
        #expect(json.status == 0)
        #expect(try json.json() == .object(["created": [], "outcome": "unchanged", "replayed": false]))
    }

    @Test func cancelDiscardsTheRunningEntry() throws {
        let t = try Sandbox(now: "2026-11-20 10:00")
        #expect(try t.run("start", "-p", "Docs", "draft").status == 0)

        let r = try t.run("cancel", now: "2026-11-20 10:20")
        #expect(r.status == 0)
        #expect(r.lines == ["cancelled Docs · draft, started 10:00; 0:20 discarded"])
        #expect(try t.run("log", "--json").json() == .object(["days": []]))
        #expect(try t.run("status", "--json").json()["running"] == .absent)
    }

    @Test func cancelWithNothingRunningIsUnchangedAndSucceeds() throws {
        let t = try Sandbox()
        let r = try t.run("cancel")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.lines == ["unchanged: no timer running"])
        let json = try t.run("cancel", "--json")
        #expect(json.status == 0)
        #expect(try json.json() == .object(["created": [], "outcome": "unchanged", "replayed": false]))
    }

    @Test func aRepeatedKeyReportsTheFirstOutcomeAndChangesNothing() throws {
        let t = try Sandbox(now: "2026-11-20 10:00")
        let first = try t.run("start", "-p", "Docs", "--key", "K")
        #expect(first.lines == ["created project \"Docs\"", "started Docs at 10:00"])
        #expect(try t.run("stop", now: "2026-11-20 10:30").lines == ["stopped Docs at 10:30 after 0:30"])

        let replay = try t.run("start", "-p", "Docs", "--key", "K", "--json", now: "2026-11-20 10:40")
        #expect(replay.status == 0)
        let json = try replay.json()
        #expect(json["outcome"] == "started")
        #expect(json["replayed"] == true)
        #expect(json["key"] == "K")
        #expect(json["created"] == [])
        #expect(json["entry"]["id"] == 1)
        #expect(json["entry"]["end"] == "2026-11-20T10:30:00+01:00")

        let text = try t.run("start", "-p", "Docs", "--key", "K", now: "2026-11-20 10:50")
        #expect(text.status == 0)
        #expect(text.lines == ["started Docs at 10:00 — key \"K\" was applied before; nothing changed"])

        #expect(try t.run("status", "--json", now: "2026-11-20 10:50").json()["running"] == .absent)
        let log = try t.run("log", "--json").json()
        #expect(log["days"][0]["entries"].elements.map(\.["id"]) == [1])
    }

    @Test func aKeyOnStopIsAppliedOnce() throws {
        let t = try Sandbox(now: "2026-11-20 10:00")
        #expect(try t.run("start", "-p", "Docs").status == 0)
        let first = try t.run("stop", "--key", "evening", "--json", now: "2026-11-20 11:00").json()
        #expect(first["outcome"] == "stopped")
        #expect(first["replayed"] == false)
        #expect(try t.run("start", "-p", "Mail", now: "2026-11-20 11:30").status == 0)

        let second = try t.run("stop", "--key", "evening", "--json", now: "2026-11-20 12:00").json()
        #expect(second["outcome"] == "stopped")
        #expect(second["replayed"] == true)
        #expect(second["entry"]["id"] == 1)
        // Mail still runs: the replayed stop did not touch it.
        let status = try t.run("status", "--json", now: "2026-11-20 12:00").json()
        #expect(status["running"]["id"] == 2)
        #expect(status["running"]["project"] == "Mail")
    }

    @Test func anAmbiguousProjectNameWithoutClientIsRefused() throws {
        let t = try Sandbox()
        #expect(try t.run("add", "-p", "Web", "-c", "Acme", "--from", "08:00", "--to", "09:00").status == 0)
        #expect(try t.run("add", "-p", "Web", "-c", "Globex", "--from", "09:00", "--to", "10:00").status == 0)

        let r = try t.run("start", "-p", "Web")
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == failure("project \"Web\" exists under several clients (\"Acme\", \"Globex\"); add --client to choose one"))
        #expect(try t.run("status", "--json").json()["running"] == .absent)

        let chosen = try t.run("start", "-p", "Web", "-c", "Globex")
        #expect(chosen.status == 0)
        #expect(chosen.lines == ["started Web (Globex) at 12:00"])
    }
}
