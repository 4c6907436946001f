import Foundation
import TrackeeCore

/// An error answer as RFC 9457 describes it (`application/problem+json`):
/// every failure of the API is one of these, turned into bytes in one
/// place. `detail` is one sentence; it never holds a secret.
package struct Problem: Error, Equatable {
    package var status: Int
    /// The last part of the `type` URI: `bad-json`, `unknown-field` …
    package var kind: String
    package var title: String
    package var detail: String
    package var headers: [(String, String)] = []

    package init(status: Int, kind: String, title: String, detail: String, headers: [(String, String)] = []) {
        self.status = status
        self.kind = kind
        self.title = title
        self.detail = detail
        self.headers = headers
    }

    package static func == (a: Problem, b: Problem) -> Bool {
        a.status == b.status && a.kind == b.kind && a.detail == b.detail
    }

    package var response: APIResponse {
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

    package static func notFound(_ path: String) -> Problem {
        Problem(status: 404, kind: "not-found", title: "No such resource", detail: "There is no resource at \(path).")
    }

    package static func methodNotAllowed(_ method: String, path: String, allowed: [String]) -> Problem {
        Problem(
            status: 405, kind: "method-not-allowed", title: "Method not allowed",
            detail: "\(path) answers \(allowed.joined(separator: ", ")), not \(method).",
            headers: [("Allow", allowed.joined(separator: ", "))])
    }

    /// 401 for a request whose credentials are missing or wrong: the
    /// same answer whatever its path and method (authentication comes
    /// before routing), with both challenges, since it is not known yet
    /// which route it meant.
    static let unauthenticated = Problem(
        status: 401, kind: "unauthorized", title: "Credentials missing or wrong",
        detail: "Send a token made by `trackee tokens add` as Authorization: Bearer <token> "
            + "(OwnTracks: as HTTP Basic credentials, user = device).",
        headers: [
            ("WWW-Authenticate", Authentication.bearerChallenge), ("WWW-Authenticate", Authentication.basicChallenge),
        ])

    /// 401 for right credentials of the scheme `challenge` does not name,
    /// which only a caller with a token sees.
    static func unauthorized(_ challenge: String) -> Problem {
        Problem(
            status: 401, kind: "unauthorized", title: "Credentials missing or wrong",
            detail: "Send a token made by `trackee tokens add` as " + (challenge.hasPrefix("Basic")
                ? "HTTP Basic credentials (user = device)." : "Authorization: Bearer <token>."),
            headers: [("WWW-Authenticate", challenge)])
    }

    static func forbidden(scope: TokenScope, device: String) -> Problem {
        Problem(
            status: 403, kind: "forbidden", title: "Scope not granted",
            detail: "The token of device \"\(device)\" does not have the scope \"\(scope.rawValue)\".")
    }

    /// The body is not what the route reads (bad JSON, a wrong type, an
    /// unknown field): 400.
    package static func badRequest(_ kind: String, _ detail: String) -> Problem {
        Problem(status: 400, kind: kind, title: "The request cannot be read", detail: detail)
    }

    /// The request is readable but cannot be carried out: 422.
    package static func unprocessable(_ kind: String, _ detail: String) -> Problem {
        Problem(status: 422, kind: kind, title: "The request cannot be carried out", detail: detail)
    }

    static func keyReused(_ key: String) -> Problem {
        unprocessable(
            "idempotency-key-reused",
            "The idempotency key \"\(key)\" was used before for another request; use a new key for a new request.")
    }

    package static func keyInFlight(_ key: String) -> Problem {
        Problem(
            status: 409, kind: "idempotency-key-in-flight", title: "A request with this key is being answered",
            detail: "A request with the idempotency key \"\(key)\" is still being answered; retry later with the same key.")
    }

    package static func internalError(_ detail: String) -> Problem {
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

extension Problem {
    /// 413: the server answers this before reading the body.
    static func tooLarge(limit: Int) -> Problem {
        Problem(
            status: 413, kind: "too-large", title: "The body is too large",
            detail: "Bodies are at most \(limit) bytes; this connection is closed.")
    }

    /// 408: a request that did not arrive in time.
    static func timeout(seconds: Int) -> Problem {
        Problem(
            status: 408, kind: "timeout", title: "The request took too long",
            detail: "A request must arrive within \(seconds) s; this connection is closed.")
    }

    /// 503: more connections are open than the server takes.
    static func busy(limit: Int) -> Problem {
        Problem(
            status: 503, kind: "busy", title: "Too many connections",
            detail: "The server holds at most \(limit) connections; retry shortly.",
            headers: [("Retry-After", "1")])
    }

    /// 429: the token's requests came faster than its rate.
    package static func rateLimited(device: String, perMinute: Int, retryAfter: Int) -> Problem {
        Problem(
            status: 429, kind: "rate-limited", title: "Too many requests",
            detail: "The token of device \"\(device)\" may make \(perMinute) requests a minute; retry in \(retryAfter) s.",
            headers: [("Retry-After", "\(retryAfter)")])
    }
}

extension Problem {
    /// 429: too many failed authentications from one address; its
    /// requests are refused, whatever credentials they carry, until the
    /// limit lets one through again.
    package static func failuresLimited(perMinute: Int, retryAfter: Int) -> Problem {
        Problem(
            status: 429, kind: "rate-limited", title: "Too many requests",
            detail: "Too many failed authentications came from this address (\(perMinute) a minute are allowed); "
                + "retry in \(retryAfter) s.",
            headers: [("Retry-After", "\(retryAfter)")])
    }
}

/// Answers the server writes itself, outside any route: they are problems
/// like the routes' own, made in the same place.
public enum ServerAnswer {
    public static func tooLarge(limit: Int) -> APIResponse { Problem.tooLarge(limit: limit).response }
    public static func timeout(seconds: Int) -> APIResponse { Problem.timeout(seconds: seconds).response }
    public static func busy(limit: Int) -> APIResponse { Problem.busy(limit: limit).response }
    /// 400 for a request HTTP itself cannot read.
    public static func malformed() -> APIResponse {
        Problem.badRequest("malformed", "The request is not valid HTTP/1.1; this connection is closed.").response
    }
}
