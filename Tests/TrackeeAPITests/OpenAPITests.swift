import Foundation
import Testing
@testable import TrackeeAPI
import TrackeeCore
import TrackeeStore

/// openapi.json, served at `GET /v1/openapi.json`, describes exactly the
/// routes the API answers, with every status they answer.
@Suite struct OpenAPITests {
    /// The served document's operations: "METHOD path" → documented statuses.
    func operations(_ h: Harness) async throws -> [String: Set<Int>] {
        let answer = await h.send("GET", "/v1/openapi.json")
        #expect(answer.status == 200)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var operations: [String: Set<Int>] = [:]
        for (path, methods) in paths {
            for (method, operation) in methods {
                let responses = try #require((operation as? [String: Any])?["responses"] as? [String: Any])
                operations["\(method.uppercased()) \(path)"] = Set(responses.keys.compactMap { Int($0) })
            }
        }
        return operations
    }

    @Test func itsOperationsAreExactlyTheRoutes() async throws {
        let h = try Harness()
        let documented = try await operations(h)
        #expect(Set(documented.keys) == Set(Route.all.map { "\($0.method) \($0.path)" }))
        #expect(documented.count == 13)
    }

    @Test func everyStatusAnAnswerHasIsDocumented() async throws {
        let h = try Harness()
        let documented = try await operations(h)
        let basic = [("Authorization", "Basic cGhvbmU6b3Qtc2VjcmV0")]
        let requests: [(String, String, String, String?, [(String, String)], Int)] = [
            ("POST", "/v1/start", #"{"project":"Docs"}"#, "secret-all", [("Idempotency-Key", "a")], 200),
            ("POST", "/v1/start", #"{"project":"Mail"}"#, "secret-all", [("Idempotency-Key", "a")], 422),
            ("POST", "/v1/start", "{", "secret-all", [], 400),
            ("POST", "/v1/start", "", nil, [], 401),
            ("POST", "/v1/start", "", "secret-read", [], 403),
            ("GET", "/v1/start", "", "secret-all", [], 405),
            ("POST", "/v1/stop", #"{"at":"09:00"}"#, "secret-all", [], 200),
            ("POST", "/v1/stop", #"{"at":1}"#, "secret-all", [], 400),
            ("POST", "/v1/cancel", "", "secret-all", [], 200),
            ("POST", "/v1/cancel", "", "secret-read", [], 403),
            ("GET", "/v1/status", "", "secret-read", [], 200),
            ("GET", "/v1/status", "", nil, [], 401),
            ("POST", "/v1/status", "", "secret-read", [], 405),
            ("GET", "/v1/entries", "", "secret-read", [], 200),
            ("GET", "/v1/reports/summary", "", "secret-read", [], 200),
            ("GET", "/v1/reports/detailed", "", "secret-read", [("Accept", "text/csv")], 200),
            ("GET", "/v1/reports/weekly", "", "secret-read", [("Accept", "image/png")], 406),
            ("GET", "/v1/reports/weekly", "", "secret-all", [("Accept", "application/pdf")], 406),
            ("POST", "/v1/reports/summary", "", "secret-read", [], 405),
            ("POST", "/v1/focus", #"{"mode":"work"}"#, "secret-all", [], 202),
            ("POST", "/v1/focus", #"{"mode":3}"#, "secret-all", [], 400),
            ("POST", "/v1/focus", #"{"mode":"nap","state":"of"}"#, "secret-all", [], 422),
            ("POST", "/v1/events", #"{"type":"nap"}"#, "secret-all", [], 422),
            ("POST", "/v1/events", #"{"type":"session","state":"locked"}"#, "secret-all", [], 202),
            ("POST", "/v1/events", "[]", "secret-all", [], 400),
            ("POST", "/v1/owntracks", #"{"_type":"lwt"}"#, nil, basic, 200),
            ("POST", "/v1/owntracks", "{}", nil, basic, 400),
            ("POST", "/v1/owntracks", "{}", "secret-all", [], 401),
            ("GET", "/v1/openapi.json", "", "secret-read", [], 200),
        ]
        for (method, path, body, token, headers, status) in requests {
            let answer = await h.send(method, path, body, token: token, headers: headers)
            #expect(answer.status == status, "\(method) \(path) \(body)")
            let route = Route.all.first { $0.path == path }!
            let codes = documented["\(route.method) \(path)"] ?? []
            #expect(codes.contains(answer.status), "\(method) \(path) answered \(answer.status), not documented")
        }
    }
}
