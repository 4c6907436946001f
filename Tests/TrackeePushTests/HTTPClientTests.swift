import Foundation
import Testing
import TrackeePush
import TrackeeTestSupport

/// The libcurl client against the fake Clockify: connection reuse, and
/// above all that a create is never sent twice, whatever the connection
/// did before.
@Suite struct HTTPClientTests {
    /// The fake Clockify's first workspace.
    let workspace = "6650a1b2c3d4e5f600000002"

    func request(_ fake: FakeTimeServiceProcess, _ method: String, _ path: String, body: String? = nil,
                 fresh: Bool = false, timeout: Double = 10) -> HTTPRequest {
        HTTPRequest(method: method, url: fake.baseURL + path,
                    headers: [("X-Api-Key", fake.token), ("Content-Type", "application/json")],
                    body: body.map { Array($0.utf8) }, timeout: timeout, fresh: fresh)
    }

    func entryBody(_ description: String) -> String {
        #"{"start":"2026-11-23T08:00:00Z","end":"2026-11-23T09:00:00Z","description":"\#(description)"}"#
    }

    /// Connection numbers of the logged requests, in order.
    func connections(_ fake: FakeTimeServiceProcess) throws -> [Int] {
        try fake.requests().map { $0["connection"] as? Int ?? -1 }
    }

    @Test func requestsThatAreNotFreshShareOneConnectionAndFreshOnesGetTheirOwn() throws {
        let fake = try FakeTimeServiceProcess(service: "clockify", token: secretToken)
        let http = HTTPClient()
        let user = try http.send(request(fake, "GET", "/user"))
        #expect(user.status == 200)
        #expect(user.headers["content-type"] == "application/json")
        #expect(user.headers["server"] == "fake-time-service/1")
        let created = try http.send(request(fake, "POST", "/workspaces/\(workspace)/time-entries",
                                            body: entryBody("first"), fresh: true))
        #expect(created.status == 201)
        let id = try #require(try JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any])["id"] as? String
        let replaced = try http.send(request(fake, "PUT", "/workspaces/\(workspace)/time-entries/\(try #require(id))",
                                             body: entryBody("replaced")))
        #expect(replaced.status == 200)
        let deleted = try http.send(request(fake, "DELETE", "/workspaces/\(workspace)/time-entries/\(try #require(id))"))
        #expect(deleted.status == 204)
        #expect(deleted.body == [])
        let second = try http.send(request(fake, "POST", "/workspaces/\(workspace)/time-entries",
                                           body: entryBody("second"), fresh: true))
        #expect(second.status == 201)

        #expect(try fake.log() == [
            "GET /user 200", "POST /workspaces/\(workspace)/time-entries 201",
            "PUT /workspaces/\(workspace)/time-entries/\(id!) 200",
            "DELETE /workspaces/\(workspace)/time-entries/\(id!) 204", "POST /workspaces/\(workspace)/time-entries 201",
        ])
        let c = try connections(fake)
        #expect(c[0] == c[2] && c[2] == c[3])
        #expect(Set(c).count == 3)
    }

    @Test func anErrorStatusIsAnAnswerWithItsRetryAfterHeader() throws {
        let fake = try FakeTimeServiceProcess(service: "clockify", token: secretToken)
        try fake.fail(["match": "^GET .*/user$", "mode": "retry_after", "retry_after": 7])
        let response = try HTTPClient().send(request(fake, "GET", "/user"))
        #expect(response.status == 429)
        #expect(response.headers["retry-after"] == "7")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"message":"Too many requests","code":429}"#)
    }

    @Test func aFreshPostDroppedAfterItWasStoredFailsAndIsNotSentAgain() throws {
        let fake = try FakeTimeServiceProcess(service: "clockify", token: secretToken)
        try fake.fail(["match": "^POST .*/time-entries$", "mode": "drop_after_store"])
        let http = HTTPClient()
        let dropped = httpFailure {
            try http.send(request(fake, "POST", "/workspaces/\(workspace)/time-entries", body: entryBody("once"), fresh: true))
        }
        #expect(dropped?.kind == .closedWithoutAnswer)
        #expect(try fake.log() == ["POST /workspaces/\(workspace)/time-entries dropped"])
        #expect(try fake.stored("time_entries").map { $0["description"] as? String } == ["once"])
    }

    @Test func aFreshPostAfterAKeepAliveRequestIsStillSentOnce() throws {
        let fake = try FakeTimeServiceProcess(service: "clockify", token: secretToken)
        let http = HTTPClient()
        #expect(try http.send(request(fake, "GET", "/user")).status == 200)
        try fake.fail(["match": "^POST .*/time-entries$", "mode": "drop_after_store"])
        let dropped = httpFailure {
            try http.send(request(fake, "POST", "/workspaces/\(workspace)/time-entries", body: entryBody("once"), fresh: true))
        }
        #expect(dropped?.kind == .closedWithoutAnswer)
        #expect(try fake.log() == ["GET /user 200", "POST /workspaces/\(workspace)/time-entries dropped"])
        #expect(try fake.stored("time_entries").map { $0["description"] as? String } == ["once"])
        // The kept connection still serves the next request.
        #expect(try http.send(request(fake, "GET", "/user")).status == 200)
        let c = try connections(fake)
        #expect(c[0] == c[2])
        #expect(c[1] != c[0])
    }

    /// Why creates are `fresh`: this pins libcurl's own resend (7.88,
    /// "Connection died, retrying a fresh connect"), which stores the entry
    /// twice and reports success. Should a libcurl stop doing it, this test
    /// fails and `fresh` merely costs a connection per create.
    @Test func aPostOnAReusedConnectionThatDiesIsSentAgainByLibcurl() throws {
        let fake = try FakeTimeServiceProcess(service: "clockify", token: secretToken)
        let http = HTTPClient()
        #expect(try http.send(request(fake, "GET", "/user")).status == 200)
        try fake.fail(["match": "^POST .*/time-entries$", "mode": "drop_after_store"])
        let resent = try http.send(request(fake, "POST", "/workspaces/\(workspace)/time-entries", body: entryBody("twice")))
        #expect(resent.status == 201)
        #expect(try fake.log() == [
            "GET /user 200", "POST /workspaces/\(workspace)/time-entries dropped",
            "POST /workspaces/\(workspace)/time-entries 201",
        ])
        #expect(try fake.stored("time_entries").map { $0["description"] as? String } == ["twice", "twice"])
    }

    @Test func aRefusedConnectionCannotConnect() throws {
        let fake = try FakeTimeServiceProcess(service: "clockify", token: secretToken)
        try fake.down(mode: "refuse")
        let refused = httpFailure { try HTTPClient().send(request(fake, "GET", "/user")) }
        #expect(refused?.kind == .cannotConnect)
        #expect(refused?.description.hasPrefix("could not connect (") == true)
        #expect(try fake.log() == [])
    }

    @Test func aServerThatClosesEveryRequestUnansweredClosesWithoutAnswer() throws {
        let fake = try FakeTimeServiceProcess(service: "clockify", token: secretToken)
        try fake.down(mode: "close")
        let closed = httpFailure { try HTTPClient().send(request(fake, "GET", "/user")) }
        #expect(closed?.kind == .closedWithoutAnswer)
        #expect(try fake.log() == ["GET /user closed"])
    }

    @Test func aHangingServerTimesOut() throws {
        let fake = try FakeTimeServiceProcess(service: "clockify", token: secretToken)
        try fake.fail(["match": "^GET .*/user$", "mode": "hang", "seconds": 30])
        let hung = httpFailure { try HTTPClient().send(request(fake, "GET", "/user", timeout: 1)) }
        #expect(hung?.kind == .timedOut)
        #expect(try fake.log() == ["GET /user hung"])
    }

    @Test func aHeaderWithALineBreakIsRefusedWithoutShowingItsValue() throws {
        let fake = try FakeTimeServiceProcess(service: "clockify", token: secretToken)
        var bad = request(fake, "GET", "/user")
        bad.headers = [("X-Api-Key", secretToken + "\n")]
        let refused = httpFailure { try HTTPClient().send(bad) }
        #expect(refused == HTTPFailure(.other, "the X-Api-Key header holds a line break"))
        #expect(try fake.log() == [])
    }
}
