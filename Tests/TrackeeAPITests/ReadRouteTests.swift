import Foundation
import Testing
import TrackeeAPI
import TrackeeCore
import TrackeeStore

/// `GET /v1/status` and `/v1/entries`: the CLI's fields, and nothing in
/// the store changes.
@Suite struct ReadRouteTests {
    @Test func statusHasTheFieldsOfStatusJSON() async throws {
        let h = try Harness()
        #expect(await h.send("GET", "/v1/status").text == #"{"today_seconds":0,"week_seconds":0}"#)
        _ = try h.store.add(TimerParameters(project: "Mail"), start: nine - 7200, end: nine - 3600, now: nine)
        _ = await h.send("POST", "/v1/start", #"{"project":"Docs"}"#)
        h.clock.advance(seconds: 900)
        let answer = await h.send("GET", "/v1/status")
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == "application/json")
        #expect(answer.text == #"{"elapsed_seconds":900,"running":{"billable":false,"description":"","duration_seconds":900,"id":2,"project":"Docs","running":true,"source":"http:phone","start":"2026-11-20T09:00:00Z","tags":[]},"today_seconds":4500,"week_seconds":4500}"#)
    }

    @Test func entriesAreTheExportJSON() async throws {
        let h = try Harness()
        _ = try h.store.add(TimerParameters(project: "Mail", tags: ["x"]), start: nine - 7200, end: nine - 3600, now: nine)
        _ = try h.store.add(TimerParameters(project: "Docs"), start: nine - 3000, end: nine - 600, now: nine)
        let all = await h.send("GET", "/v1/entries")
        #expect(all.status == 200)
        #expect(all.text == """
            [
            {"id":1,"start":"2026-11-20T07:00:00+00:00","end":"2026-11-20T08:00:00+00:00","duration_seconds":3600,"project":"Mail","client":"","description":"","tags":["x"],"billable":false,"rate":null,"source":"cli"},
            {"id":2,"start":"2026-11-20T08:10:00+00:00","end":"2026-11-20T08:50:00+00:00","duration_seconds":2400,"project":"Docs","client":"","description":"","tags":[],"billable":false,"rate":null,"source":"cli"}
            ]

            """)
        let later = await h.send("GET", "/v1/entries", query: [("from", "2026-11-20T08:00:00+00:00"), ("to", "09:00")])
        #expect(later.text == """
            [
            {"id":2,"start":"2026-11-20T08:10:00+00:00","end":"2026-11-20T08:50:00+00:00","duration_seconds":2400,"project":"Docs","client":"","description":"","tags":[],"billable":false,"rate":null,"source":"cli"}
            ]

            """)
    }

    @Test func badEntryQueriesAre400() async throws {
        let h = try Harness()
        let backwards = await h.send("GET", "/v1/entries", query: [("from", "09:00"), ("to", "08:00")])
        #expect(backwards.text == problem(
            400, "bad-time", "The request cannot be read",
            "The query parameter \"to\" is before \"from\"; give a \"to\" after the \"from\"."))
        let unknown = await h.send("GET", "/v1/entries", query: [("since", "09:00")])
        #expect(unknown.text == problem(
            400, "unknown-field", "The request cannot be read",
            "The query parameter \"since\" is unknown here; the parameters are from, to."))
        let bad = await h.send("GET", "/v1/entries", query: [("from", "teatime")])
        #expect(bad.status == 400)
        #expect(bad.text.hasPrefix(#"{"detail":"The query parameter \"from\": "#))
    }

    @Test func getChangesNothingInTheStore() async throws {
        let h = try Harness()
        _ = await h.send("POST", "/v1/start", #"{"project":"Docs"}"#, headers: [("Idempotency-Key", "k")])
        let before = try h.files()
        h.clock.advance(seconds: 40 * 86_400)
        for path in ["/v1/status", "/v1/entries", "/v1/openapi.json"] {
            #expect(await h.send("GET", path).status == 200, "\(path)")
        }
        let after = try h.files()
        #expect(Set(after.keys) == ["t.sqlite3", "t.sqlite3-wal"])
        #expect(Set(after.keys) == Set(before.keys))
        for name in before.keys.sorted() { #expect(after[name] == before[name], "\(name)") }
        #expect(try h.store.httpAnswer(key: "k") != nil)
    }
}
