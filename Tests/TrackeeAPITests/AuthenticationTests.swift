import Testing
@testable import TrackeeAPI
import TrackeeCore
import TrackeeStore

/// Bearer tokens and Basic credentials through `APICredentials`: 401 with
/// a challenge, 403 for a scope not granted, and no secret in an answer.
@Suite struct AuthenticationTests {
    /// The one 401: both challenges, one sentence, no secret.
    static let unauthenticated = APIResponse(
        status: 401,
        headers: [
            ("Content-Type", "application/problem+json"), ("WWW-Authenticate", #"Bearer realm="trackee""#),
            ("WWW-Authenticate", #"Basic realm="trackee", charset="UTF-8""#),
        ],
        body: Array(problem(
            401, "unauthorized", "Credentials missing or wrong",
            "Send a token made by `trackee tokens add` as Authorization: Bearer <token> "
                + "(OwnTracks: as HTTP Basic credentials, user = device).").utf8))

    @Test func missingOrWrongCredentialsAre401WithBothChallenges() async throws {
        let h = try Harness()
        for (headers, label) in [
            ([(String, String)](), "none"),
            ([("Authorization", "Bearer wrong-secret-123")], "wrong"),
            // "phone:wrong"
            ([("Authorization", "Basic cGhvbmU6d3Jvbmc=")], "wrong basic"),
            ([("Authorization", "Bearer")], "empty"),
            ([("Authorization", "Token secret-all")], "other scheme"),
        ] {
            let answer = await h.send("POST", "/v1/start", #"{"project":"Docs"}"#, token: nil, headers: headers)
            #expect(answer == Self.unauthenticated, "\(label): \(answer.status) \(answer.headers) \(answer.text)")
        }
        #expect(try h.store.running() == nil)
    }

    /// Right credentials of the other scheme: only a caller with a token
    /// gets this far, so the answer names the route's scheme.
    @Test func rightCredentialsOfTheOtherSchemeAre401WithTheRoutesChallenge() async throws {
        let h = try Harness()
        // "phone:ot-secret": right, but Basic, and /v1/start takes Bearer.
        let basic = await h.send(
            "POST", "/v1/start", #"{"project":"Docs"}"#, token: nil, headers: [("Authorization", "Basic cGhvbmU6b3Qtc2VjcmV0")])
        #expect(basic.status == 401)
        #expect(basic.headers.filter { $0.0 == "WWW-Authenticate" }.map(\.1) == [#"Bearer realm="trackee""#])
        #expect(basic.text == problem(
            401, "unauthorized", "Credentials missing or wrong",
            "Send a token made by `trackee tokens add` as Authorization: Bearer <token>."))
        #expect(try h.store.running() == nil)
        // Not a failed authentication: nothing logged, nothing counted.
        #expect(h.log.all == [])
        #expect(h.api.failures.count == 0)
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
        #expect(bearer.headers.filter { $0.0 == "WWW-Authenticate" }.map(\.1) == [#"Basic realm="trackee", charset="UTF-8""#])
        #expect(bearer.text == problem(
            401, "unauthorized", "Credentials missing or wrong",
            "Send a token made by `trackee tokens add` as HTTP Basic credentials (user = device)."))
        // "phone:wrong"
        let wrong = await h.send(
            "POST", "/v1/owntracks", #"{"_type":"lwt","tst":1}"#, token: nil,
            headers: [("Authorization", "Basic cGhvbmU6d3Jvbmc=")])
        #expect(wrong == Self.unauthenticated)
        #expect(h.daemon.inputs == [])
    }

    /// Without a token, an unknown path or a known path's other method is
    /// the one 401, byte for byte what any other request without a token
    /// gets: nothing tells a stranger which routes exist.
    @Test func withoutATokenUnknownPathsAndOtherMethodsAreThe401() async throws {
        let h = try Harness()
        var peer = 0
        for (method, path) in [
            ("GET", "/v1/nothing"), ("GET", "/v1/start"), ("DELETE", "/v1/status"), ("POST", "/v1/events/stream"),
            ("GET", "/"), ("GET", "/v1/owntracks"), ("POST", "/v1/start"), ("POST", "/v1/owntracks"),
            ("GET", "/v1/openapi.json"),
        ] {
            for credentials in [
                [], [("Authorization", "Bearer wrong-secret-123")], [("Authorization", "Basic cGhvbmU6d3Jvbmc=")],
            ] {
                // Each from an address of its own, so the failures' limit is not what answers.
                peer += 1
                let answer = await h.send(method, path, token: nil, headers: credentials, peer: "192.0.2.\(peer)")
                #expect(answer == Self.unauthenticated, "\(method) \(path) \(credentials): \(answer.status) \(answer.text)")
            }
        }
    }

    @Test func withATokenUnknownPathsAre404AndOtherMethods405WithAllow() async throws {
        let h = try Harness()
        let missing = await h.send("GET", "/v1/nothing")
        #expect(missing.status == 404)
        #expect(missing.text == problem(404, "not-found", "No such resource", "There is no resource at /v1/nothing."))
        let wrong = await h.send("GET", "/v1/start")
        #expect(wrong.status == 405)
        #expect(wrong.header("Allow") == "POST")
        #expect(wrong.header("Content-Type") == "application/problem+json")
        #expect(wrong.text == problem(405, "method-not-allowed", "Method not allowed", "/v1/start answers POST, not GET."))
        #expect(await h.send("DELETE", "/v1/status").header("Allow") == "GET")
        // A read token learns the routes as well: it may read openapi.json.
        #expect(await h.send("GET", "/v1/nothing", token: "secret-read").status == 404)
    }
}
