import Foundation
import GRDB
import Testing
import TrackeeTestSupport

/// `trackee history` (why a timer started or stopped) and `add --key`,
/// through the built binary.
@Suite struct HistoryCommandTests {
    /// A morning: a start by hand, a schedule rule switching to Meetings at
    /// 09:30, a keyed start given twice, and a focus rule stopping it.
    static func morning() throws -> Sandbox {
        let t = try Sandbox(now: "2026-11-23 09:00")
        try FileManager.default.createDirectory(atPath: t.path("config/trackee"), withIntermediateDirectories: true)
        try t.write("""
            rules:
              - id: standup
                when: {at: "09:30"}
                do: [{start: {project: Meetings, description: standup}}]
              - id: deep-stop
                when: {focus: deep}
                do: [{stop: {}}]
            """, to: "config/trackee/rules.yaml")
        #expect(try t.run("start", "-p", "Docs", "user guide", "-t", "writing").status == 0)
        #expect(try t.run("tick", now: "2026-11-23 09:29").status == 0)
        #expect(try t.run("tick", now: "2026-11-23 09:31").status == 0)
        #expect(try t.run("start", "-p", "Docs", "--key", "k1", now: "2026-11-23 09:40").status == 0)
        #expect(try t.run("start", "-p", "Docs", "--key", "k1", now: "2026-11-23 09:41").status == 0)
        #expect(try t.run("focus", "set", "deep", now: "2026-11-23 09:50").status == 0)
        t.now = "2026-11-23 09:55"
        return t
    }

    @Test func eachIntentWithItsSourceTriggerOutcomeAndEntryNewestFirst() throws {
        let t = try Self.morning()
        let r = try t.run("history")
        #expect(r.status == 0, "\(r)")
        #expect(r.lines == [
            "#5  2026-11-23 09:50  rule:deep-stop  stop  stopped #3  (focus deep on)",
            "#4  2026-11-23 09:41  cli  start Docs  applied before (key \"k1\", as #3: switched) #3",
            "#3  2026-11-23 09:40  cli  start Docs  switched #3",
            "#2  2026-11-23 09:30  rule:standup  start Meetings · standup  switched #2  (schedule 09:30)",
            "#1  2026-11-23 09:00  cli  start Docs · user guide · #writing  started #1",
        ])
    }

    @Test func pagesAndSources() throws {
        let t = try Self.morning()
        #expect(try t.run("history", "--limit", "2").lines == [
            "#5  2026-11-23 09:50  rule:deep-stop  stop  stopped #3  (focus deep on)",
            "#4  2026-11-23 09:41  cli  start Docs  applied before (key \"k1\", as #3: switched) #3",
            "older: trackee history --before 4",
        ])
        #expect(try t.run("history", "--before", "4", "--source", "cli").lines == [
            "#3  2026-11-23 09:40  cli  start Docs  switched #3",
            "#1  2026-11-23 09:00  cli  start Docs · user guide · #writing  started #1",
        ])
        #expect(try t.run("history", "--source", "rule:standup").lines.count == 1)
        #expect(try t.run("history", "--source", "rule").lines.map { String($0.prefix(2)) } == ["#5", "#2"])
        #expect(try t.run("history", "--source", "nobody").lines == ["no intents from nobody"])
        let empty = try t.run("history", "--source", " ")
        #expect(empty.status == 64)
        #expect(empty.stderr.contains("--source is empty"))
    }

    /// The web page's intents carry `web:` and the token's name, as the
    /// HTTP API's carry `http:`; the page writes them, so here two of the
    /// morning's intents are given those sources directly.
    @Test func theWebPagesSourceShowsAndFilters() throws {
        let t = try Self.morning()
        let queue = try DatabaseQueue(path: t.storePath)
        try queue.write { db in
            try db.execute(sql: "UPDATE intent_log SET source = 'web:phone' WHERE id = 3")
            try db.execute(sql: "UPDATE intent_log SET source = 'http:phone' WHERE id = 1")
        }
        try queue.close()
        #expect(try t.run("history", "--source", "web:phone").lines == [
            "#3  2026-11-23 09:40  web:phone  start Docs  switched #3",
        ])
        #expect(try t.run("history", "--source", "web").lines == [
            "#3  2026-11-23 09:40  web:phone  start Docs  switched #3",
        ])
        #expect(try t.run("history", "--source", "http").lines == [
            "#1  2026-11-23 09:00  http:phone  start Docs · user guide · #writing  started #1",
        ])
        #expect(try t.run("history", "--source", "web:tablet").lines == ["no intents from web:tablet"])
        #expect(try t.run("history", "--source", "cli").lines == [
            "#4  2026-11-23 09:41  cli  start Docs  applied before (key \"k1\", as #3: switched) #3",
        ])
        #expect(try t.run("history", "--limit", "3").lines == [
            "#5  2026-11-23 09:50  rule:deep-stop  stop  stopped #3  (focus deep on)",
            "#4  2026-11-23 09:41  cli  start Docs  applied before (key \"k1\", as #3: switched) #3",
            "#3  2026-11-23 09:40  web:phone  start Docs  switched #3",
            "older: trackee history --before 3",
        ])
        let json = try t.run("history", "--json", "--source", "web:phone").json()
        #expect(json == (try parsedJSON("""
            {"intents": [
              {"action": "start", "applied": "2026-11-23T09:40:00+01:00", "entry": 3, "id": 3, "key": "k1",
               "outcome": "switched", "parameters": {"description": "", "project": "Docs", "tags": []}, "previous_entry": 2,
               "replayed": false, "source": "web:phone", "time": "2026-11-23T09:40:00+01:00"}]}
            """)))
    }

    @Test func jsonHasEveryField() throws {
        let t = try Self.morning()
        let r = try t.run("history", "--json", "--source", "rule")
        #expect(try r.json() == parsedJSON("""
            {"intents": [
              {"action": "stop", "applied": "2026-11-23T09:50:00+01:00", "entry": 3, "id": 5, "key": "deep-stop@focus:1#0",
               "outcome": "stopped", "replayed": false, "rule": "deep-stop", "source": "rule:deep-stop",
               "time": "2026-11-23T09:50:00+01:00", "trigger": "focus deep on"},
              {"action": "start", "applied": "2026-11-23T09:31:00+01:00", "entry": 2, "id": 2, "key": "standup@at:1795422600#0",
               "outcome": "switched", "parameters": {"description": "standup", "project": "Meetings", "tags": []},
               "previous_entry": 1, "replayed": false, "rule": "standup", "source": "rule:standup",
               "time": "2026-11-23T09:30:00+01:00", "trigger": "schedule 09:30"}]}
            """))
        let replay = try t.run("history", "--json", "--limit", "1", "--before", "5").json()
        #expect(replay == (try parsedJSON("""
            {"intents": [
              {"action": "start", "applied": "2026-11-23T09:41:00+01:00", "entry": 3, "id": 4, "key": "k1", "outcome": "switched",
               "parameters": {"description": "", "project": "Docs", "tags": []}, "previous_entry": 2, "replay_of": 3,
               "replayed": true, "source": "cli", "time": "2026-11-23T09:41:00+01:00"}],
             "next_before": 4}
            """)))
    }

    @Test func addWithAKeyAddsOnceAndReportsTheFirstEntry() throws {
        let t = try Sandbox(now: "2026-11-23 12:00")
        let first = try t.run("add", "-p", "Docs", "--from", "8:00", "--to", "8:30", "imported", "--key", "imp-1")
        #expect(first.status == 0)
        #expect(first.lines == ["created project \"Docs\"", "added #1 Docs · imported 08:00–08:30 (0:30)"])
        // A retry, even with other values, adds nothing.
        let again = try t.run("add", "-p", "Other", "--from", "9:00", "--to", "9:30", "x", "--key", "imp-1")
        #expect(again.status == 0)
        #expect(again.lines == ["added #1 Docs · imported 08:00–08:30 (0:30) — key \"imp-1\" was applied before; nothing changed"])
        let json = try t.run("add", "-p", "Other", "--from", "9:00", "--to", "9:30", "x", "--key", "imp-1", "--json").json()
        #expect(json == (try parsedJSON("""
            {"action": "added", "created": [], "key": "imp-1", "replayed": true,
             "entry": {"billable": false, "description": "imported", "duration_seconds": 1800,
                       "end": "2026-11-23T08:30:00+01:00", "id": 1, "project": "Docs", "running": false, "source": "cli",
                       "start": "2026-11-23T08:00:00+01:00", "tags": []}}
            """)))
        // Another key adds another entry; the projects list never saw "Other".
        #expect(try t.run("add", "-p", "Docs", "--from", "9:00", "--to", "9:30", "--key", "imp-2").lines
                == ["added #2 Docs 09:00–09:30 (0:30)"])
        #expect(try t.run("projects", "list").stdout.contains("Other") == false)
        // Deleted since: the key still adds nothing, and says so.
        #expect(try t.run("delete", "1").status == 0)
        let gone = try t.run("add", "-p", "Docs", "--from", "8:00", "--to", "8:30", "imported", "--key", "imp-1")
        #expect(gone.status == 0)
        #expect(gone.lines == ["added #1 (its entry has since been deleted) — key \"imp-1\" was applied before; nothing changed"])
        #expect(try t.run("add", "--from", "8:00", "--to", "8:30", "--key", "imp-1", "--json").json() == parsedJSON("""
            {"action": "added", "created": [], "entry_id": 1, "key": "imp-1", "replayed": true}
            """))
        #expect(try t.run("log").lines.filter { $0.contains("#") }.count == 1)
    }
}
