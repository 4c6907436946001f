import Foundation
import GRDB
import Synchronization
import Testing
@testable import TrackeeAPI
import TrackeeCore
import TrackeeStore

/// Idempotency keys: the first answer stored with the intent and repeated
/// byte for byte; another body 422; a key in flight 409; one key space
/// with `trackee start --key`.
@Suite struct IdempotencyTests {
    @Test func aRepeatGetsTheFirstAnswerByteForByte() async throws {
        let h = try Harness()
        let body = #"{"project":"Docs"}"#
        let first = await h.send("POST", "/v1/start", body, headers: [("Idempotency-Key", #""k-1""#)])
        #expect(first.status == 200)
        #expect(first.text == #"{"created":["project \"Docs\""],"entry":{"billable":false,"description":"","duration_seconds":0,"id":1,"project":"Docs","running":true,"source":"http:phone","start":"2026-11-20T09:00:00Z","tags":[]},"key":"k-1","outcome":"started","replayed":false}"#)
        h.clock.advance(seconds: 300)
        // Bare or quoted, the key is the same key.
        let again = await h.send("POST", "/v1/start", body, headers: [("idempotency-key", "k-1")])
        #expect(again == first)
        #expect(try h.store.entryCount() == 1)
    }

    @Test func theKeyMayComeInTheBody() async throws {
        let h = try Harness()
        let body = #"{"project":"Docs","idempotency_key":"shortcut-7"}"#
        let first = await h.send("POST", "/v1/start", body)
        #expect(first.status == 200)
        #expect(first.text.contains(#""key":"shortcut-7""#))
        _ = await h.send("POST", "/v1/stop")
        let again = await h.send("POST", "/v1/start", body)
        #expect(again == first)
        #expect(try h.store.running() == nil)
    }

    @Test func theSameKeyForAnotherBodyIs422() async throws {
        let h = try Harness()
        _ = await h.send("POST", "/v1/start", #"{"project":"Docs"}"#, headers: [("Idempotency-Key", "k-2")])
        let other = await h.send("POST", "/v1/start", #"{"project":"Mail"}"#, headers: [("Idempotency-Key", "k-2")])
        #expect(other.status == 422)
        #expect(other.text == problem(
            422, "idempotency-key-reused", "The request cannot be carried out",
            "The idempotency key \"k-2\" was used before for another request; use a new key for a new request."))
        let otherPath = await h.send("POST", "/v1/stop", #"{"project":"Docs"}"#, headers: [("Idempotency-Key", "k-2")])
        #expect(otherPath.status == 400)
        let stopWithKey = await h.send("POST", "/v1/stop", "", headers: [("Idempotency-Key", "k-2")])
        #expect(stopWithKey.status == 422)
        #expect(try h.store.running()?.project == "Docs")
    }

    @Test func headerAndBodyKeysThatDifferAreRefused() async throws {
        let h = try Harness()
        let answer = await h.send(
            "POST", "/v1/start", #"{"idempotency_key":"a"}"#, headers: [("Idempotency-Key", "b")])
        #expect(answer.status == 400)
        #expect(answer.text == problem(
            400, "bad-idempotency-key", "The request cannot be read",
            "The Idempotency-Key header and the field \"idempotency_key\" give different keys."))
        let unclosed = await h.send("POST", "/v1/start", "", headers: [("Idempotency-Key", "\"abc")])
        #expect(unclosed.status == 400)
        #expect(try h.store.running() == nil)
    }

    @Test func aKeyTheCLIUsedReplaysAndIsThenStored() async throws {
        let h = try Harness()
        let cli = try h.store.apply(
            Intent(.start(TimerParameters(project: "Docs")), at: nine, source: .cli, key: "morning"), now: nine)
        #expect(cli.outcome == .started)
        _ = try h.store.apply(Intent(.stop, at: nine + 60, source: .cli), now: nine + 60)
        h.clock.advance(seconds: 120)
        let answer = await h.send("POST", "/v1/start", #"{"project":"Docs"}"#, headers: [("Idempotency-Key", "morning")])
        #expect(answer.status == 200)
        #expect(answer.text == #"{"created":[],"entry":{"billable":false,"description":"","duration_seconds":60,"end":"2026-11-20T09:01:00Z","id":1,"project":"Docs","running":false,"source":"cli","start":"2026-11-20T09:00:00Z","tags":[]},"key":"morning","outcome":"started","replayed":true}"#)
        #expect(try h.store.running() == nil)
        #expect(try h.store.httpAnswer(key: "morning")?.body == answer.body)
    }

    @Test func aKeyInFlightIs409() async throws {
        let h = try Harness()
        // Another connection holds the store's write lock, so the first
        // request waits inside its transaction with its key claimed.
        let blocker = try DatabaseQueue(path: h.store.path)
        let locked = Mutex(false)
        let release = Mutex(false)
        let holder = Thread {
            try? blocker.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                locked.withLock { $0 = true }
                while !release.withLock({ $0 }) { usleep(1000) }
                try db.execute(sql: "COMMIT")
            }
        }
        holder.start()
        while !locked.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }

        let first = Task { await h.send("POST", "/v1/start", #"{"project":"Docs"}"#, headers: [("Idempotency-Key", "k-3")]) }
        while !h.api.keysInFlight.holds("k-3") { try await Task.sleep(for: .milliseconds(1)) }
        let second = await h.send("POST", "/v1/start", #"{"project":"Docs"}"#, headers: [("Idempotency-Key", "k-3")])
        #expect(second.status == 409)
        #expect(second.text == problem(
            409, "idempotency-key-in-flight", "A request with this key is being answered",
            "A request with the idempotency key \"k-3\" is still being answered; retry later with the same key."))
        release.withLock { $0 = true }
        let answer = await first.value
        #expect(answer.status == 200)
        #expect(!h.api.keysInFlight.holds("k-3"))
        let third = await h.send("POST", "/v1/start", #"{"project":"Docs"}"#, headers: [("Idempotency-Key", "k-3")])
        #expect(third == answer)
        try blocker.close()
    }

    @Test func theAnswerIsStoredInTheIntentsTransaction() async throws {
        struct RenderFailed: Error {}
        let h = try Harness()
        let intent = Intent(.start(TimerParameters(project: "Docs")), at: nine, source: .http(device: "phone"), key: "t-1")
        #expect(throws: StoreError.self) {
            try h.store.apply(intent, now: nine, fingerprint: "f") { _ in throw RenderFailed() }
        }
        #expect(try h.store.running() == nil)
        #expect(try h.store.entryCount() == 0)
        #expect(try h.store.httpAnswer(key: "t-1") == nil)
        let (result, answer) = try h.store.apply(intent, now: nine, fingerprint: "f") { _ in (201, [1, 2]) }
        #expect(result?.outcome == .started)
        #expect(answer == HTTPAnswer(fingerprint: "f", status: 201, body: [1, 2]))
        let (again, stored) = try h.store.apply(intent, now: nine, fingerprint: "g") { _ in (500, []) }
        #expect(again == nil)
        #expect(stored == HTTPAnswer(fingerprint: "f", status: 201, body: [1, 2]))
        #expect(try h.store.entryCount() == 1)
    }

    @Test func answersOlderThanThirtyDaysArePurgedOnWrite() async throws {
        let h = try Harness()
        _ = await h.send("POST", "/v1/start", #"{"project":"Docs"}"#, headers: [("Idempotency-Key", "old")])
        h.clock.advance(seconds: 30 * 86_400 + 1)
        #expect(try h.store.httpAnswer(key: "old") != nil)
        _ = await h.send("POST", "/v1/stop", "", headers: [("Idempotency-Key", "new")])
        #expect(try h.store.httpAnswer(key: "old") == nil)
        #expect(try h.store.httpAnswer(key: "new")?.status == 200)
        // The ledger still holds the key: it replays, as `--key` would.
        let late = await h.send("POST", "/v1/start", #"{"project":"Docs"}"#, headers: [("Idempotency-Key", "old")])
        #expect(late.text.hasSuffix(#""key":"old","outcome":"started","replayed":true}"#))
        #expect(try h.store.running() == nil)
    }
}

/// Keys on the routes whose lines the daemon carries out.
@Suite struct EventKeyTests {
    @Test func aKeyedEventIsTakenOnceAndItsAnswerRepeated() async throws {
        let h = try Harness()
        let first = await h.send("POST", "/v1/focus", #"{"mode":"work","idempotency_key":"f-1"}"#)
        #expect(first.status == 202)
        let again = await h.send("POST", "/v1/focus", #"{"mode":"work","idempotency_key":"f-1"}"#)
        #expect(again == first)
        #expect(h.daemon.inputs == [.event(.focus(mode: "work", state: .on, time: nil))])
        let other = await h.send("POST", "/v1/events", #"{"type":"session","state":"locked"}"#, headers: [("Idempotency-Key", "f-1")])
        #expect(other.status == 422)
        #expect(h.daemon.inputs.count == 1)
    }

    @Test func aRefusedEventIsNotStoredSoARetryIsJudgedAgain() async throws {
        let h = try Harness()
        let body = #"{"type":"session","state":"lockd"}"#
        #expect(await h.send("POST", "/v1/events", body, headers: [("Idempotency-Key", "e-1")]).status == 422)
        #expect(await h.send("POST", "/v1/events", body, headers: [("Idempotency-Key", "e-1")]).status == 422)
        #expect(h.daemon.inputs.isEmpty)
        #expect(try h.store.httpAnswer(key: "e-1") == nil)
    }

    @Test func aKeyWhoseLineTheDaemonHoldsIs409() async throws {
        let h = try Harness(daemon: FakeDaemon(gated: true))
        let body = #"{"type":"session","state":"locked"}"#
        let first = Task { await h.send("POST", "/v1/events", body, headers: [("Idempotency-Key", "e-2")]) }
        while h.daemon.inputs.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
        let second = await h.send("POST", "/v1/events", body, headers: [("Idempotency-Key", "e-2")])
        #expect(second.status == 409)
        #expect(second.header("Content-Type") == "application/problem+json")
        h.daemon.open()
        #expect(await first.value.status == 202)
        let third = await h.send("POST", "/v1/events", body, headers: [("Idempotency-Key", "e-2")])
        #expect(third.status == 202)
        #expect(h.daemon.inputs.count == 1)
    }
}
