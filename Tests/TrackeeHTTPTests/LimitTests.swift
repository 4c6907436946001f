import Foundation
import Testing
import TrackeeTestSupport

/// The server's own limits, met by clients that misbehave: too large a
/// body, too slow a client, too many connections, too many requests.
@Suite struct LimitTests {
    /// Asserts a problem answer of the raw client: its status, its type,
    /// `Connection: close`, and the connection then closed.
    func expectClosed(_ run: JSONValue, _ status: Int, _ kind: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let answer = run["answer"]
        #expect(answer["status"].int == Int64(status), "\(run)", sourceLocation: sourceLocation)
        #expect(answer["headers"]["content-type"] == "application/problem+json", "\(run)", sourceLocation: sourceLocation)
        #expect(answer["headers"]["connection"].string?.lowercased() == "close", "\(run)", sourceLocation: sourceLocation)
        let body = try parsedJSON(answer["body"].string ?? "")
        #expect(body["type"] == .string("urn:trackee:problem:\(kind)"), "\(run)", sourceLocation: sourceLocation)
        #expect(body["status"].int == Int64(status), sourceLocation: sourceLocation)
        #expect(body["detail"].string?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(run["closed"] == true, "\(run)", sourceLocation: sourceLocation)
    }

    /// 70000 bytes announced and none sent: the answer comes at once, and
    /// the connection closes; a chunked body that passes 64 KiB is cut
    /// off the same way. Nothing is started.
    @Test func bodiesOver64KiBAreRefusedWithoutBeingRead() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let phone = try d.token("phone")

        let announced = try await d.python("raw_client.py", ["too-large", phone])
        try expectClosed(announced, 413, "too-large")
        #expect((announced["seconds"].number ?? 99) < 5, "\(announced)")

        let chunked = try await d.python("raw_client.py", ["chunked-too-large", phone])
        try expectClosed(chunked, 413, "too-large")

        #expect(try d.storedEntries() == [])
        #expect(try await d.curl("GET", "/v1/status", token: phone).status == 200)
    }

    /// Headers sent a byte every 200 ms, and a body cut off halfway: each
    /// connection is closed 10 s after it was opened, the body's with a
    /// 408 first.
    @Test func slowClientsAreCutOffAfterTenSeconds() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let phone = try d.token("phone")

        // Both at once, so the test takes ten seconds, not twenty.
        let slow = try ChildProcess(Python.executable, [Python.script("raw_client.py"), String(d.port), "slow-headers"],
                                    in: d.sandbox)
        let half = try ChildProcess(Python.executable, [Python.script("raw_client.py"), String(d.port), "half-body", phone],
                                    in: d.sandbox)
        defer {
            slow.stop()
            half.stop()
        }
        let headers = try parsedJSON(try await slow.finish().stdout)
        let body = try parsedJSON(try await half.finish().stdout)

        #expect(headers["closed"] == true, "\(headers)")
        let headerSeconds = headers["seconds"].number ?? 0
        #expect(headerSeconds >= 9.9 && headerSeconds <= 12.5, "\(headers)")
        #expect((headers["sent"].int ?? 0) < (headers["length"].int ?? 0), "\(headers)")
        // Half a head came: the 408 is written before the close.
        try expectClosed(headers, 408, "timeout")

        try expectClosed(body, 408, "timeout")
        let bodySeconds = body["seconds"].number ?? 0
        #expect(bodySeconds >= 9.9 && bodySeconds <= 12.5, "\(body)")
        #expect(try d.storedEntries() == [])
    }

    @Test func aConnectionOverMaxConnectionsGets503() async throws {
        let d = try await ServingDaemon.start(http: ["max_connections: 4"])
        defer { d.stop() }
        let hub = try d.token("hub", scopes: "read")
        let run = try await d.python("raw_client.py", ["crowd", hub, "4"])
        #expect(run["held"] == [200, 200, 200, 200], "\(run)")
        let refused = run["refused"]
        #expect(refused["answer"]["status"] == 503, "\(run)")
        #expect(refused["closed"] == true, "\(run)")
        let body = try parsedJSON(refused["answer"]["body"].string ?? "")
        #expect(body["type"] == "urn:trackee:problem:busy")
        // One held connection closed, a new one is served again.
        #expect(run["after_close"] == 200, "\(run)")
    }

    /// One request a minute: the second, within the minute, is refused.
    /// (A rate of 5 left 12 s between refills, and six curls under the
    /// whole suite's load once took longer than that.)
    @Test func theSecondQuickRequestOverRateLimit1Gets429WithRetryAfter() async throws {
        let d = try await ServingDaemon.start(http: ["rate_limit: 1"])
        defer { d.stop() }
        let hub = try d.token("hub", scopes: "read")
        let other = try d.token("other", scopes: "read")
        let first = try await d.curl("GET", "/v1/status", token: hub)
        let second = try await d.curl("GET", "/v1/status", token: hub)
        #expect(first.status == 200)
        #expect(second.status == 429, "\(second)")
        #expect(try second.json()["type"] == "urn:trackee:problem:rate-limited")
        let retry = Int(second.header("Retry-After") ?? "") ?? 0
        #expect(retry >= 1 && retry <= 60, "Retry-After: \(second.header("Retry-After") ?? "none")")
        // The limit is the token's: another device is still served.
        #expect(try await d.curl("GET", "/v1/status", token: other).status == 200)
    }
}
