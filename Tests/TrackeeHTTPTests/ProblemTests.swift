import Foundation
import Testing
import TrackeeTestSupport

/// Each refusal of issue 20 §3 through the socket, from one daemon whose
/// settings leave project creation off: the status, the problem body and
/// the headers that go with it, and a store left as it was.
@Suite struct ProblemTests {
    struct Case: CustomStringConvertible {
        var method: String
        var path: String
        /// "all", "read", "wrong" or nil for no Authorization header.
        var token: String?
        var body: String?
        var problem: JSONValue
        var headers: [String: String] = [:]

        var description: String { "\(method) \(path) \(body ?? "")" }
    }

    static let unreadable = "The request cannot be read"
    static let refused = "The request cannot be carried out"
    static let bearer = "Send a token made by `trackee tokens add` as Authorization: Bearer <token> "
        + "(OwnTracks: as HTTP Basic credentials, user = device)."

    static var cases: [Case] { [
        Case(method: "POST", path: "/v1/start", token: "all", body: #"{"project":"#,
             problem: problem(400, "bad-json", unreadable, "The body is not JSON.")),
        Case(method: "POST", path: "/v1/start", token: "all", body: #"["Docs"]"#,
             problem: problem(400, "bad-json", unreadable, "The body is JSON but not an object.")),
        Case(method: "POST", path: "/v1/start", token: "all", body: #"{"project":7}"#,
             problem: problem(400, "wrong-type", unreadable, #"The field "project" must be a string."#)),
        Case(method: "POST", path: "/v1/start", token: "all", body: #"{"project":"Docs","tags":"a"}"#,
             problem: problem(400, "wrong-type", unreadable, #"The field "tags" must be an array of strings."#)),
        Case(method: "POST", path: "/v1/start", token: "all", body: #"{"projct":"Docs"}"#,
             problem: problem(400, "unknown-field", unreadable,
                              #"The field "projct" is unknown here; the fields are at, client, description, idempotency_key, project, tags."#)),
        Case(method: "POST", path: "/v1/stop", token: "all", body: #"{"project":"Docs"}"#,
             problem: problem(400, "unknown-field", unreadable,
                              #"The field "project" is unknown here; the fields are at, idempotency_key."#)),
        Case(method: "POST", path: "/v1/start", token: "all", body: #"{"project":"Dcos"}"#,
             problem: problem(422, "unknown-project", refused,
                              #"The field "project": no project "Dcos"; create it with `trackee projects add`, or set create_projects: always."#)),
        Case(method: "POST", path: "/v1/start", token: "all", body: #"{"project":"  "}"#,
             problem: problem(422, "blank-name", refused,
                              #"The field "project" is blank; leave it out for a timer without a project."#)),
        Case(method: "GET", path: "/v1/entries?from=2026-11-09&to=2026-11-02", token: "read",
             problem: problem(400, "bad-time", unreadable,
                              #"The query parameter "to" is before "from"; give a "to" after the "from"."#)),
        Case(method: "GET", path: "/v1/timers", token: "all",
             problem: problem(404, "not-found", "No such resource", "There is no resource at /v1/timers.")),
        Case(method: "GET", path: "/v1/start", token: "all",
             problem: problem(405, "method-not-allowed", "Method not allowed", "/v1/start answers POST, not GET."),
             headers: ["Allow": "POST"]),
        // Authentication comes before routing: without a token, no 404 or 405.
        Case(method: "GET", path: "/v1/timers", token: nil,
             problem: problem(401, "unauthorized", "Credentials missing or wrong", bearer),
             headers: ["WWW-Authenticate": #"Bearer realm="trackee""#]),
        Case(method: "GET", path: "/v1/start", token: "wrong",
             problem: problem(401, "unauthorized", "Credentials missing or wrong", bearer),
             headers: ["WWW-Authenticate": #"Bearer realm="trackee""#]),
        Case(method: "DELETE", path: "/v1/status", token: "all",
             problem: problem(405, "method-not-allowed", "Method not allowed", "/v1/status answers GET, not DELETE."),
             headers: ["Allow": "GET"]),
        Case(method: "POST", path: "/v1/start", token: nil, body: #"{"project":"Docs"}"#,
             problem: problem(401, "unauthorized", "Credentials missing or wrong", bearer),
             headers: ["WWW-Authenticate": #"Bearer realm="trackee""#]),
        Case(method: "GET", path: "/v1/status", token: "wrong",
             problem: problem(401, "unauthorized", "Credentials missing or wrong", bearer),
             headers: ["WWW-Authenticate": #"Bearer realm="trackee""#]),
        Case(method: "POST", path: "/v1/start", token: "read", body: #"{"project":"Docs"}"#,
             problem: problem(403, "forbidden", "Scope not granted",
                              #"The token of device "hub" does not have the scope "start"."#)),
        Case(method: "POST", path: "/v1/focus", token: "read", body: #"{"mode":"deep"}"#,
             problem: problem(403, "forbidden", "Scope not granted",
                              #"The token of device "hub" does not have the scope "events"."#)),
    ] }

    @Test func eachRefusalIsItsProblemAndChangesNothing() async throws {
        let d = try await ServingDaemon.start(settings: [])
        defer { d.stop() }
        let tokens = [
            "all": try d.token("phone"), "read": try d.token("hub", scopes: "read"),
            "wrong": "trk_" + String(repeating: "0", count: 43),
        ]
        for c in Self.cases {
            let answer = try await d.curl(c.method, c.path, token: c.token.flatMap { tokens[$0] }, body: c.body)
            #expect(answer.status == c.problem["status"].int.map(Int.init), "\(c): \(answer)")
            #expect(answer.header("Content-Type") == "application/problem+json", "\(c)")
            #expect(try answer.json() == c.problem, "\(c)")
            for (name, value) in c.headers {
                #expect(answer.header(name) == value, "\(c): \(name)")
            }
        }
        #expect(try d.storedEntries() == [])
        #expect(try d.intents() == [])
        #expect(try d.rows("SELECT count(*) FROM project")[0][0] as Int == 0)
        // The daemon is still there, answering.
        let status = try await d.curl("GET", "/v1/status", token: tokens["read"])
        #expect(status.status == 200, "\(status)")
    }
}
