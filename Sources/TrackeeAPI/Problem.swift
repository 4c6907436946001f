import Foundation

/// An error answer as RFC 9457 describes it (`application/problem+json`):
/// every failure of the API is one of these, turned into bytes in one
/// place. `detail` is one sentence; it never holds a secret.
struct Problem: Error, Equatable {
    var status: Int
    /// The last part of the `type` URI: `bad-json`, `unknown-field` …
    var kind: String
    var title: String
    var detail: String
    var headers: [(String, String)] = []

    static func == (a: Problem, b: Problem) -> Bool {
        a.status == b.status && a.kind == b.kind && a.detail == b.detail
    }

    var response: APIResponse {
        struct Body: Encodable {
            var type: String
            var title: String
            var status: Int
            var detail: String
        }
        let body = Body(type: Problem.typePrefix + kind, title: title, status: status, detail: detail)
        return APIResponse(
            status: status, headers: [("Content-Type", "application/problem+json")] + headers, body: JSONBytes.encode(body))
    }

    /// Where the problem types live; a URN, since nothing is served there.
    static let typePrefix = "urn:trackee:problem:"

    static func notFound(_ path: String) -> Problem {
        Problem(status: 404, kind: "not-found", title: "No such resource", detail: "There is no resource at \(path).")
    }

    static func methodNotAllowed(_ method: String, path: String, allowed: [String]) -> Problem {
        Problem(
            status: 405, kind: "method-not-allowed", title: "Method not allowed",
            detail: "\(path) answers \(allowed.joined(separator: ", ")), not \(method).",
            headers: [("Allow", allowed.joined(separator: ", "))])
    }

    static func unauthorized(_ challenge: String) -> Problem {
        Problem(
            status: 401, kind: "unauthorized", title: "Credentials missing or wrong",
            detail: "Send a token made by `trackee tokens add` as " + (challenge.hasPrefix("Basic")
                ? "HTTP Basic credentials (user = device)." : "Authorization: Bearer <token>."),
            headers: [("WWW-Authenticate", challenge)])
    }

    static func forbidden(scope: String, device: String) -> Problem {
        Problem(
            status: 403, kind: "forbidden", title: "Scope not granted",
            detail: "The token of device \"\(device)\" does not have the scope \"\(scope)\".")
    }

    /// The body is not what the route reads (bad JSON, a wrong type, an
    /// unknown field): 400.
    static func badRequest(_ kind: String, _ detail: String) -> Problem {
        Problem(status: 400, kind: kind, title: "The request cannot be read", detail: detail)
    }

    /// The request is readable but cannot be carried out: 422.
    static func unprocessable(_ kind: String, _ detail: String) -> Problem {
        Problem(status: 422, kind: kind, title: "The request cannot be carried out", detail: detail)
    }

    static func keyReused(_ key: String) -> Problem {
        unprocessable(
            "idempotency-key-reused",
            "The idempotency key \"\(key)\" was used before for another request; use a new key for a new request.")
    }

    static func keyInFlight(_ key: String) -> Problem {
        Problem(
            status: 409, kind: "idempotency-key-in-flight", title: "A request with this key is being answered",
            detail: "A request with the idempotency key \"\(key)\" is still being answered; retry later with the same key.")
    }

    static func internalError(_ detail: String) -> Problem {
        Problem(status: 500, kind: "internal", title: "The store failed", detail: detail)
    }
}

/// The JSON encoding every answer uses: sorted keys and unescaped slashes,
/// as the CLI's `--json` output, so both give the same bytes.
enum JSONBytes {
    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The views hold strings, numbers and bools only.
        return [UInt8]((try? encoder.encode(value)) ?? Data("null".utf8))
    }
}
