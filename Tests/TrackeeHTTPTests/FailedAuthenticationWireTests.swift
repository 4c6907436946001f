import Foundation
import Testing
import TrackeeTestSupport

/// A stranger against the running daemon: without a token every path and
/// method is the same 401; its failures are logged with its address and
/// limited per address; X-Forwarded-For counts from a trusted proxy only;
/// and `access_log: true` writes one line per request.
@Suite struct FailedAuthenticationWireTests {
    static var unauthenticated: JSONValue {
        problem(
            401, "unauthorized", "Credentials missing or wrong",
            "Send a token made by `trackee tokens add` as Authorization: Bearer <token> "
                + "(OwnTracks: as HTTP Basic credentials, user = device).")
    }
    static let failed = "trackee run: warning: http: authentication failed from"
    static let unknownToken = "a Bearer token that is not a token of this store"

    /// The daemon's lines of the HTTP API's log (not its listening line),
    /// with the access lines' milliseconds as `T`.
    static func httpLines(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.contains(": http: ") && !$0.contains("listening on") }
            .map { $0.replacingOccurrences(of: #" [0-9]+\.[0-9] ms$"#, with: " T ms", options: .regularExpression) }
    }

    /// The values of every header `name` of an answer, in order.
    static func headers(_ answer: Answer, _ name: String) -> [String] {
        answer.headerText.components(separatedBy: "\r\n").filter { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    @Test func withoutATokenEveryPathAndMethodIsTheSame401AndEachRequestIsALine() async throws {
        let d = try await ServingDaemon.start(http: ["access_log: true"])
        defer { d.stop() }
        let phone = try d.token("phone")
        let wrong = "trk_" + String(repeating: "Q7xZ9vK2", count: 5) + "mW4"
        let strangers: [(String, String, [String], [String])] = [
            ("GET", "/v1/nothing", [], []),
            ("DELETE", "/v1/status", [], []),
            ("GET", "/v1/start", ["Authorization: Bearer \(wrong)"], []),
            ("GET", "/v1/owntracks", [], ["-u", "phone:\(wrong)"]),
            ("POST", "/v1/start?project=Docs", [], []),
        ]
        for (method, path, headers, options) in strangers {
            let answer = try await d.curl(method, path, headers: headers, options: options)
            #expect(answer.status == 401, "\(method) \(path): \(answer)")
            #expect(try answer.json() == Self.unauthenticated, "\(method) \(path)")
            #expect(answer.header("Content-Type") == "application/problem+json")
            #expect(Self.headers(answer, "WWW-Authenticate") == [
                #"Bearer realm="trackee""#, #"Basic realm="trackee", charset="UTF-8""#,
            ], "\(method) \(path)")
            #expect(Self.headers(answer, "Allow") == [])
        }
        // With a token, the routes are no secret.
        #expect(try await d.curl("GET", "/v1/nothing", token: phone).status == 404)
        #expect(try await d.curl("DELETE", "/v1/status", token: phone).status == 405)
        #expect(try await d.curl("GET", "/v1/status", token: phone).status == 200)
        let tooLarge = try await d.python("raw_client.py", ["too-large", phone])
        #expect(tooLarge["answer"]["status"] == 413, "\(tooLarge)")

        #expect(await eventually(within: 10) { Self.httpLines(d.stderrSoFar).count == 14 }, "\(d.stderrSoFar)")
        let lines = Self.httpLines(d.stderrSoFar)
        #expect(lines == [
            "\(Self.failed) 127.0.0.1: no credentials",
            "trackee run: info: http: GET - 401 - T ms",
            "\(Self.failed) 127.0.0.1: no credentials",
            "trackee run: info: http: DELETE /v1/status 401 - T ms",
            "\(Self.failed) 127.0.0.1: \(Self.unknownToken)",
            "trackee run: info: http: GET /v1/start 401 - T ms",
            "\(Self.failed) 127.0.0.1: Basic credentials that are not a token and its name",
            "trackee run: info: http: GET /v1/owntracks 401 - T ms",
            "\(Self.failed) 127.0.0.1: no credentials",
            "trackee run: info: http: POST /v1/start 401 - T ms",
            "trackee run: info: http: GET - 404 phone T ms",
            "trackee run: info: http: DELETE /v1/status 405 phone T ms",
            "trackee run: info: http: GET /v1/status 200 phone T ms",
            "trackee run: info: http: POST /v1/start 413 - T ms",
        ])
        // No part of a token, right or wrong, is in the log.
        let stderr = d.stderrSoFar
        for secret in [phone, wrong] {
            let random = String(secret.dropFirst("trk_".count))
            for start in 0...(random.count - 8) {
                let part = String(random.dropFirst(start).prefix(8))
                #expect(!stderr.contains(part), "the log holds \"\(part)\"")
            }
        }
        #expect(!stderr.contains("project=Docs"))
    }

    /// Ten bad tokens on one connection, then the right one, in one curl:
    /// ten 401s, then 429 for the address, right token or not, while
    /// another address (127.0.0.2, also loopback) is served.
    @Test func failuresFromOneAddressAreLimitedAndAnotherAddressIsServed() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let phone = try d.token("phone")
        let headerFile = try d.sandbox.write("", to: "curl/limited.headers")
        let bodyFile = try d.sandbox.write("", to: "curl/limited.body")
        let guesses = Array(repeating: ["-o", "/dev/null", d.url("/v1/status")], count: 10).flatMap { $0 }
        let begun = Date()
        let burst = try await ChildProcess.run(
            Curl.executable,
            ["-sS", "-w", "%{http_code} ", "-H", "Authorization: Bearer trk_guess"] + guesses
                + ["--next", "-sS", "-w", "%{http_code}", "-H", "Authorization: Bearer \(phone)", "-D", headerFile,
                   "-o", bodyFile, d.url("/v1/status")],
            in: d.sandbox)
        let elapsed = Int(Date().timeIntervalSince(begun).rounded(.up))
        #expect(burst.stdout == String(repeating: "401 ", count: 10) + "429", "\(burst)")
        let limited = Answer(
            status: 429, headerText: String(decoding: try d.sandbox.bytes(headerFile), as: UTF8.self),
            body: try d.sandbox.bytes(bodyFile), exitStatus: burst.status, stderr: burst.stderr)
        let retry = try #require(Int(limited.header("Retry-After") ?? ""), "\(limited.headerText)")
        // Six seconds a failure, less the whole seconds the burst took.
        #expect((max(1, 6 - elapsed)...6).contains(retry), "Retry-After: \(retry) after \(elapsed) s")
        #expect(try limited.json() == problem(
            429, "rate-limited", "Too many requests",
            "Too many failed authentications came from this address (10 a minute are allowed); retry in \(retry) s."))

        let other = ["--interface", "127.0.0.2"]
        #expect(try await d.curl("GET", "/v1/status", token: phone, options: other).status == 200)
        #expect(try await d.curl("GET", "/v1/status", token: "trk_guess", options: other).status == 401)
        #expect(await eventually(within: 10) { Self.httpLines(d.stderrSoFar).count == 11 }, "\(d.stderrSoFar)")
        #expect(Self.httpLines(d.stderrSoFar) == Array(
            repeating: "\(Self.failed) 127.0.0.1: \(Self.unknownToken)", count: 10)
            + ["\(Self.failed) 127.0.0.2: \(Self.unknownToken)"])
    }

    /// Forty wrong tokens from one address at once, on forty connections:
    /// the limit is counted before the tokens are checked, not after, so
    /// no more than ten are checked however many arrive together.
    @Test func failuresSentAtOnceAreLimitedAsExactlyAsOneByOne() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let guessed = try await d.python("raw_client.py", ["guess-at-once", "40"])
        let statuses = guessed["statuses"].elements.map { $0.int ?? 0 }
        #expect(statuses.count == 40)
        #expect(statuses.filter { $0 == 401 }.count == 10, "\(statuses)")
        #expect(statuses.filter { $0 == 429 }.count == 30, "\(statuses)")
        #expect(await eventually(within: 10) { Self.httpLines(d.stderrSoFar).count == 10 }, "\(d.stderrSoFar)")
        #expect(Self.httpLines(d.stderrSoFar) == Array(repeating: "\(Self.failed) 127.0.0.1: \(Self.unknownToken)", count: 10))
    }

    /// `trusted_proxies: ["127.0.0.2"]`: a request from 127.0.0.2 is the
    /// address its X-Forwarded-For ends with; from 127.0.0.1 the header is
    /// not read.
    @Test func forwardedForCountsFromATrustedProxyOnly() async throws {
        let d = try await ServingDaemon.start(http: [#"trusted_proxies: ["127.0.0.2"]"#])
        defer { d.stop() }
        let forwarded = ["X-Forwarded-For: 192.0.2.1, 198.51.100.7"]
        #expect(try await d.curl("GET", "/v1/status", headers: forwarded).status == 401)
        #expect(try await d.curl("GET", "/v1/status", headers: forwarded, options: ["--interface", "127.0.0.2"]).status == 401)
        #expect(try await d.curl("GET", "/v1/status", options: ["--interface", "127.0.0.2"]).status == 401)
        #expect(await eventually(within: 10) { Self.httpLines(d.stderrSoFar).count == 3 }, "\(d.stderrSoFar)")
        #expect(Self.httpLines(d.stderrSoFar) == [
            "\(Self.failed) 127.0.0.1: no credentials",
            "\(Self.failed) 198.51.100.7: no credentials",
            "\(Self.failed) 127.0.0.2: no credentials",
        ])
    }
}
