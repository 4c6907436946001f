import Testing
@testable import TrackeeAPI
import TrackeeCore
import TrackeeStore

/// `http: {access_log: true}`: one info line per request, with the
/// method, the route (never the path a client sent, nor its query), the
/// status, the token's name (never the token) and the milliseconds from
/// the request's arrival to its answer; nothing without the setting.
@Suite struct AccessLogTests {
    @Test func eachRequestIsOneLineOfMethodRouteStatusTokenNameAndTime() async throws {
        let h = try Harness(accessLog: true)
        #expect(await h.send("GET", "/v1/status").status == 200)
        #expect(await h.send("POST", "/v1/start", #"{"project":"Docs"}"#, token: "secret-read").status == 403)
        #expect(await h.send(
            "GET", "/v1/entries", token: "secret-read", query: [("from", "2026-11-01"), ("to", "2026-11-08")]).status == 200)
        #expect(await h.send("GET", "/v1/events/stream", token: "secret-read").status == 200)
        #expect(await h.send("GET", "/v1/nothing/4711").status == 404)
        #expect(await h.send("DELETE", "/v1/status").status == 405)
        #expect(await h.send("GET", "/v1/status", token: "trk_Q7xZ9vK2mW4pR8tYb3Nc", peer: "203.0.113.7").status == 401)
        #expect(await h.send("GET", "/v1/nothing/4711", token: nil, peer: "203.0.113.7").status == 401)
        #expect(await h.send("get /v1/status HTTP/1.1\r\nX", "/v1/status", token: nil).status == 401)
        #expect(h.log.all == [
            "info: http: GET /v1/status 200 phone 2.3 ms",
            "info: http: POST /v1/start 403 dashboard 2.3 ms",
            "info: http: GET /v1/entries 200 dashboard 2.3 ms",
            "info: http: GET /v1/events/stream 200 dashboard 2.3 ms",
            "info: http: GET - 404 phone 2.3 ms",
            "info: http: DELETE /v1/status 405 phone 2.3 ms",
            "warning: http: authentication failed from 203.0.113.7: a Bearer token that is not a token of this store",
            "info: http: GET /v1/status 401 - 2.3 ms",
            "warning: http: authentication failed from 203.0.113.7: no credentials",
            "info: http: GET - 401 - 2.3 ms",
            "warning: http: authentication failed from unknown: no credentials",
            "info: http: - /v1/status 401 - 2.3 ms",
        ])
    }

    /// A 429 is a request answered like any other; the server's own
    /// refusals (413, 408, 503) come through `refused`.
    @Test func limitedAndRefusedRequestsHaveTheirLineToo() async throws {
        let h = try Harness(perMinute: 1, accessLog: true)
        #expect(await h.send("GET", "/v1/status").status == 200)
        #expect(await h.send("GET", "/v1/status").status == 429)
        h.api.refused(method: "POST", path: "/v1/start", status: 413, arrived: arrival)
        h.api.refused(method: "POST", path: "/v1/unknown", status: 503, arrived: nil)
        #expect(h.log.all == [
            "info: http: GET /v1/status 200 phone 2.3 ms",
            "info: http: GET /v1/status 429 phone 2.3 ms",
            "info: http: POST /v1/start 413 - 2.3 ms",
            "info: http: POST - 503 - 0.0 ms",
        ])
    }

    @Test func withoutTheSettingOnlyFailuresAreLogged() async throws {
        let h = try Harness()
        #expect(await h.send("GET", "/v1/status").status == 200)
        #expect(await h.send("GET", "/v1/nothing").status == 404)
        #expect(await h.send("GET", "/v1/status", token: "wrong", peer: "192.0.2.1").status == 401)
        h.api.refused(method: "POST", path: "/v1/start", status: 413, arrived: arrival)
        #expect(h.log.all == [
            "warning: http: authentication failed from 192.0.2.1: a Bearer token that is not a token of this store",
        ])
    }

    /// The time is rounded to a tenth of a millisecond, from the request's
    /// arrival or, without one, from when the API took it.
    @Test func theTimeIsInMillisecondsToATenth() {
        for (elapsed, shown) in [
            (UInt64(0), "0.0"), (49_999, "0.0"), (50_000, "0.1"), (1_000_000, "1.0"), (12_345_678, "12.3"),
            (10_000_000_000, "10000.0"),
        ] {
            let log = LogLines()
            APILog(logger: log.logger, access: true, ticks: { 7_000_000_000 + elapsed })
                .served(method: "GET", path: "/v1/status", status: 200, device: "phone", started: 7_000_000_000)
            #expect(log.all == ["info: http: GET /v1/status 200 phone \(shown) ms"], "\(elapsed)")
        }
        // A clock read before the arrival (never, on a monotonic clock) is 0.
        let log = LogLines()
        APILog(logger: log.logger, access: true, ticks: { 5 })
            .served(method: "GET", path: "/v1/status", status: 200, device: nil, started: 6)
        #expect(log.all == ["info: http: GET /v1/status 200 - 0.0 ms"])
    }
}
