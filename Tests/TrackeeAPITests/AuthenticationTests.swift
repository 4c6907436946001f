import Testing
import TrackeeAPI
import TrackeeCore
import TrackeeStore

/// Bearer tokens and Basic credentials through `APICredentials`: 401 with
/// a challenge, 403 for a scope not granted, and no secret in an answer.
@Suite struct AuthenticationTests {
    @Test func missingOrWrongCredentialsAre401WithAChallenge() async throws {
        let h = try Harness()
        for (headers, label) in [
            ([(String, String)](), "none"),
            ([("Authorization", "Bearer wrong-secret-123")], "wrong"),
            ([("Authorization", "Basic cGhvbmU6b3Qtc2VjcmV0")], "other scheme"),
            ([("Authorization", "Bearer")], "empty"),
        ] {
            let answer = await h.send("POST", "/v1/start", #"{"project":"Docs"}"#, token: nil, headers: headers)
            #expect(answer.status == 401, "\(label)")
            #expect(answer.header("WWW-Authenticate") == #"Bearer realm="trackee""#, "\(label)")
            #expect(answer.text == problem(
                401, "unauthorized", "Credentials missing or wrong",
                "Send a token made by `trackee tokens add` as Authorization: Bearer <token>."), "\(label)")
            #expect(!answer.text.contains("secret") && !answer.headers.contains { $0.1.contains("secret") }, "\(label)")
        }
        #expect(try h.store.running() == nil)
    }

    @Test func aScopeNotGrantedIs403AndNamesNoSecret() async throws {
        let h = try Harness()
        let answer = await h.send("POST", "/v1/start", #"{"project":"Docs"}"#, token: "secret-read")
        #expect(answer.status == 403)
        #expect(answer.text == problem(
            403, "forbidden", "Scope not granted", "The token of device \"dashboard\" does not have the scope \"start\"."))
        #expect(!answer.text.contains("secret"))
        #expect(try h.store.running() == nil)
        #expect(await h.send("GET", "/v1/status", token: "secret-read").status == 200)
        #expect(await h.send("POST", "/v1/focus", #"{"mode":"work"}"#, token: "secret-read").status == 403)
    }

    @Test func ownTracksTakesBasicAndRefusesBearer() async throws {
        let h = try Harness()
        let bearer = await h.send("POST", "/v1/owntracks", #"{"_type":"lwt","tst":1}"#)
        #expect(bearer.status == 401)
        #expect(bearer.header("WWW-Authenticate") == #"Basic realm="trackee", charset="UTF-8""#)
        // "phone:wrong"
        let wrong = await h.send(
            "POST", "/v1/owntracks", #"{"_type":"lwt","tst":1}"#, token: nil,
            headers: [("Authorization", "Basic cGhvbmU6d3Jvbmc=")])
        #expect(wrong.status == 401)
        #expect(h.daemon.lines == [])
    }

    @Test func unknownPathsAre404AndOtherMethods405WithAllow() async throws {
        let h = try Harness()
        let missing = await h.send("GET", "/v1/nothing", token: nil)
        #expect(missing.status == 404)
        #expect(missing.text == problem(404, "not-found", "No such resource", "There is no resource at /v1/nothing."))
        let wrong = await h.send("GET", "/v1/start", token: nil)
        #expect(wrong.status == 405)
        #expect(wrong.header("Allow") == "POST")
        #expect(wrong.header("Content-Type") == "application/problem+json")
        #expect(wrong.text == problem(405, "method-not-allowed", "Method not allowed", "/v1/start answers POST, not GET."))
        #expect(await h.send("DELETE", "/v1/status").header("Allow") == "GET")
    }
}
