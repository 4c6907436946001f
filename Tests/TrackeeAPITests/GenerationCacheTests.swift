import Foundation
import Testing
@testable import TrackeeAPI
import TrackeeCore
import TrackeeStore

/// Reads kept per store generation: the status once per change and
/// second, a token once per change (and a minute at most).
@Suite struct GenerationCacheTests {
    @Test func theStatusIsKeptUntilTheStoreChangesOrTheSecondTurns() async throws {
        let generation = StoreGeneration()
        let h = try Harness(generation: generation)
        let first = await h.send("GET", "/v1/status")
        #expect(first.text == #"{"today_seconds":0,"week_seconds":0}"#)
        // Another process starts a timer; until the watch tells, the kept
        // answer stands.
        _ = try h.store.apply(Intent(.start(TimerParameters(project: "Docs")), at: nine - 60), now: nine)
        #expect(await h.send("GET", "/v1/status").body == first.body)
        generation.advance()
        let changed = await h.send("GET", "/v1/status")
        #expect(changed.text.contains(#""elapsed_seconds":60"#))
        // The next second reads again: the running entry's time moved on.
        h.clock.advance(seconds: 1)
        #expect(await h.send("GET", "/v1/status").text.contains(#""elapsed_seconds":61"#))
    }

    @Test func theAPIsOwnWritesAdvanceTheGeneration() async throws {
        let generation = StoreGeneration()
        let h = try Harness(generation: generation)
        #expect(generation.value == 0)
        _ = await h.send("GET", "/v1/status")
        #expect(generation.value == 0)
        #expect(await h.send("POST", "/v1/start", #"{"project":"Docs"}"#).status == 200)
        #expect(generation.value == 1)
        // Read straight after its own write: the new timer.
        #expect(await h.send("GET", "/v1/status").text.contains(#""project":"Docs""#))
    }

    @Test func aRevokedTokenIsRefusedOnceTheStoreHasChanged() throws {
        let generation = StoreGeneration()
        let h = try Harness()
        let credentials = StoreCredentials(store: h.store, now: { nine }, generation: generation)
        let secret = try h.store.addToken(name: "phone", scopes: [.read], now: nine)
        #expect(try credentials.principal(bearer: secret)?.device == "phone")
        #expect(try credentials.principal(bearer: "trk_wrong") == nil)
        #expect(try h.store.revokeToken(name: "phone", now: nine))
        // The revocation is a change of the store; the watch advances.
        generation.advance()
        #expect(try credentials.principal(bearer: secret) == nil)
        // Without a generation every request reads the store.
        let uncached = StoreCredentials(store: h.store, now: { nine })
        #expect(try uncached.principal(bearer: secret) == nil)
    }

    @Test func aKeptTokenIsReadAgainAfterAMinuteSoItsUseIsRecorded() throws {
        let generation = StoreGeneration()
        let h = try Harness()
        let clock = ManualClock(nine)
        let credentials = StoreCredentials(store: h.store, now: { clock.now }, generation: generation)
        let secret = try h.store.addToken(name: "phone", scopes: [.read], now: nine)
        #expect(try credentials.principal(bearer: secret) != nil)
        #expect(try h.store.tokens().first?.lastUsed == nine)
        clock.advance(seconds: 59)
        #expect(try credentials.principal(bearer: secret) != nil)
        #expect(try h.store.tokens().first?.lastUsed == nine)
        clock.advance(seconds: 1)
        #expect(try credentials.principal(bearer: secret) != nil)
        #expect(try h.store.tokens().first?.lastUsed == nine + 60)
    }
}
