import Foundation
import Testing
import TrackeeTestSupport

/// Idempotency keys over the wire (the IETF httpapi draft): a repeat is
/// answered with the first answer's bytes, another body under the same
/// key is refused, and a key is one key whether it came over HTTP or
/// from `trackee start --key`.
@Suite struct IdempotencyWireTests {
    @Test func aRepeatGetsTheFirstAnswerByteForByteAndAnotherBody422() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let phone = try d.token("phone")
        let body = #"{"project":"Docs","description":"from the watch"}"#

        let first = try await d.curl("POST", "/v1/start", token: phone, body: body, headers: ["Idempotency-Key: watch-1"])
        #expect(first.status == 200, "\(first)")
        #expect(try first.json()["key"] == "watch-1")
        #expect(try first.json()["outcome"] == "started")
        // A switch in between: the repeat still answers what the first did.
        #expect(try d.run("start", "-p", "Mail").status == 0)
        let repeated = try await d.curl("POST", "/v1/start", token: phone, body: body, headers: ["Idempotency-Key: watch-1"])
        #expect(repeated.status == first.status)
        #expect(repeated.body == first.body)
        #expect(repeated.header("Content-Type") == "application/json")

        let other = try await d.curl(
            "POST", "/v1/start", token: phone, body: #"{"project":"Other"}"#, headers: ["Idempotency-Key: watch-1"])
        #expect(other.status == 422, "\(other)")
        #expect(try other.json() == problem(
            422, "idempotency-key-reused", "The request cannot be carried out",
            #"The idempotency key "watch-1" was used before for another request; use a new key for a new request."#))

        #expect(try d.storedEntries() == ["1 Docs http:phone", "2 Mail cli running"])
        #expect(try d.intents() == ["http:phone start started watch-1", "cli start switched -"])
    }

    @Test func aKeyFromHTTPAndFromStartKeyIsOneIntent() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let phone = try d.token("phone")

        // HTTP first, then the CLI with the same key: a replay.
        let served = try await d.curl(
            "POST", "/v1/start", token: phone, body: #"{"project":"Docs"}"#, headers: ["Idempotency-Key: shared-1"])
        #expect(served.status == 200, "\(served)")
        let cli = try d.run("start", "-p", "Docs", "--key", "shared-1", "--json")
        #expect(cli.status == 0, "\(cli)")
        #expect(try cli.json()["replayed"] == true)
        #expect(try cli.json()["outcome"] == "started")
        #expect(try cli.json()["entry"]["id"] == 1)

        // The CLI first, then HTTP with its key: a replay too, answered
        // as the CLI's intent went.
        #expect(try d.run("stop", "--key", "shared-2").status == 0)
        let again = try await d.curl("POST", "/v1/stop", token: phone, body: "{}", headers: ["Idempotency-Key: shared-2"])
        #expect(again.status == 200, "\(again)")
        #expect(try again.json()["replayed"] == true)
        #expect(try again.json()["outcome"] == "stopped")
        #expect(try again.json()["entry"]["id"] == 1)

        #expect(try d.storedEntries() == ["1 Docs http:phone"])
        let firsts = try d.rows("SELECT key, source FROM intent_log WHERE replay_of IS NULL ORDER BY id")
        #expect(firsts.map { "\($0[0] as String) \($0[1] as String)" } == ["shared-1 http:phone", "shared-2 cli"])
    }

    /// The draft's sf-string form, `"key"`, and the bare form many clients
    /// send are the same key; so is a body's `idempotency_key`.
    @Test func aQuotedKeyABareKeyAndABodyKeyAreTheSameKey() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let phone = try d.token("phone")
        let body = #"{"project":"Docs"}"#

        let quoted = try await d.curl("POST", "/v1/start", token: phone, body: body, headers: [#"Idempotency-Key: "k-42""#])
        #expect(quoted.status == 200, "\(quoted)")
        #expect(try quoted.json()["key"] == "k-42")
        let bare = try await d.curl("POST", "/v1/start", token: phone, body: body, headers: ["Idempotency-Key: k-42"])
        #expect(bare.status == 200)
        #expect(bare.body == quoted.body)

        // A Shortcut's static body carries its key.
        let shortcut = #"{"project":"Mail","idempotency_key":"2026-11-26 mail"}"#
        let fromBody = try await d.curl("POST", "/v1/start", token: phone, body: shortcut)
        #expect(fromBody.status == 200, "\(fromBody)")
        #expect(try fromBody.json()["key"] == "2026-11-26 mail")
        let fromBodyAgain = try await d.curl("POST", "/v1/start", token: phone, body: shortcut)
        #expect(fromBodyAgain.body == fromBody.body)

        #expect(try d.intents() == ["http:phone start started k-42", "http:phone start switched 2026-11-26 mail"])
    }
}
