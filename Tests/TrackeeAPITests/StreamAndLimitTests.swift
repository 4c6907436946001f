import Foundation
import Testing
@testable import TrackeeAPI
import TrackeeCore
import TrackeeStore

/// The per-token rate limit, and the event stream's route and frames.
@Suite struct StreamAndLimitTests {
    @Test func aTokenOverItsRateGets429WithRetryAfterAndAnotherTokenDoesNot() async throws {
        let h = try Harness(perMinute: 3)
        for _ in 0..<3 { #expect(await h.send("GET", "/v1/status").status == 200) }
        let refused = await h.send("GET", "/v1/status")
        #expect(refused.status == 429)
        #expect(refused.header("Retry-After") == "20")
        #expect(refused.text == problem(
            429, "rate-limited", "Too many requests",
            "The token of device \"phone\" may make 3 requests a minute; retry in 20 s."))
        // Another device has its own bucket.
        #expect(await h.send("GET", "/v1/status", token: "secret-read").status == 200)
        // 20 s later one request's worth has come back, and only one.
        h.clock.advance(seconds: 20)
        #expect(await h.send("GET", "/v1/status").status == 200)
        #expect(await h.send("GET", "/v1/status").status == 429)
    }

    @Test func wrongCredentialsAreRefusedBeforeTheLimitCounts() async throws {
        let h = try Harness(perMinute: 1)
        #expect(await h.send("GET", "/v1/status", token: "nope").status == 401)
        #expect(await h.send("GET", "/v1/status").status == 200)
    }

    @Test func theStreamRouteOpensAStreamForAReadToken() async throws {
        let h = try Harness()
        let answer = await h.send("GET", "/v1/events/stream", token: "secret-read")
        #expect(answer.status == 200)
        #expect(answer.eventCursor == EventStream.Cursor(intent: 0, firing: 0))
        #expect(answer.header("Content-Type") == "text/event-stream")
        #expect(answer.body.isEmpty)
        #expect(await h.send("GET", "/v1/events/stream", token: nil).status == 401)
        #expect(await h.send("POST", "/v1/events/stream").status == 405)
    }

    @Test func framesFollowTheIntentLogAndTheLedgerPastTheCursor() throws {
        let h = try Harness()
        _ = try h.store.apply(Intent(.start(TimerParameters(project: "Before")), at: nine), now: nine)
        var cursor = try EventStream.end(of: h.store)
        #expect(try EventStream.frames(after: &cursor, store: h.store, zone: .utc, now: nine).isEmpty)

        let ten = nine + 3600
        _ = try h.store.fire(
            key: FiringKey(rule: "standup", occurrence: "2026-11-20T10:00"), occurred: ten, trigger: "schedule",
            description: "standup at 10:00", intents: [Intent(.start(TimerParameters(project: "Meetings")), at: ten, source: .rule("standup"))],
            now: ten)
        _ = try h.store.apply(Intent(.start(TimerParameters(project: "Meetings")), at: ten + 60), now: ten + 60)
        _ = try h.store.apply(Intent(.stop, at: ten + 120, source: .http(device: "phone"), key: "k1"), now: ten + 120)

        let frames = try EventStream.frames(after: &cursor, store: h.store, zone: .utc, now: ten + 120)
        #expect(frames.count == 3)
        #expect(frames[0] == """
            id: f1
            event: fired
            data: {"description":"standup at 10:00","occurred":"2026-11-20T10:00:00Z","rule":"standup","trigger":"schedule"}


            """)
        #expect(frames[1].hasPrefix("id: i2\nevent: switched\ndata: {\"entry\":{"))
        #expect(frames[1].contains(#""project":"Meetings""#))
        #expect(frames[1].contains(#""source":"rule:standup""#))
        #expect(frames[1].contains(#""key":null"#))
        #expect(frames[1].contains(#""previous":{"#))
        #expect(frames[2].hasPrefix("id: i4\nevent: stopped\ndata: {\"entry\":{"))
        #expect(frames[2].contains(#""key":"k1","outcome":"stopped","previous":null,"source":"http:phone"}"#))
        // The unchanged start (i3) made no frame; the cursor moved past all.
        #expect(cursor == EventStream.Cursor(intent: 4, firing: 1, step: 1))
        #expect(try EventStream.frames(after: &cursor, store: h.store, zone: .utc, now: ten + 120).isEmpty)

        // The web page's stream also hears of the journal's steps: the
        // newest once, whatever made them, an edit and an undo too.
        #expect(try EventStream.changes(after: &cursor, store: h.store) == ["id: s6\nevent: changed\ndata: {\"step\":6}\n\n"])
        #expect(try EventStream.changes(after: &cursor, store: h.store).isEmpty)
        _ = try h.store.edit(1, EntryChanges(description: "edited"), now: ten + 180)
        _ = try h.store.undo(now: ten + 240)
        #expect(try EventStream.changes(after: &cursor, store: h.store) == ["id: s8\nevent: changed\ndata: {\"step\":8}\n\n"])
        #expect(cursor == EventStream.Cursor(intent: 4, firing: 1, step: 8))
        #expect(try EventStream.frames(after: &cursor, store: h.store, zone: .utc, now: ten + 240).isEmpty)
    }
}
