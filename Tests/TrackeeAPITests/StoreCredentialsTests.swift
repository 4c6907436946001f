import Foundation
import Testing
import TrackeeAPI
import TrackeeCore
import TrackeeStore

/// The API on the store's own tokens, as `trackee tokens add` makes them:
/// a revoked token is refused on its next request, a `read` token cannot
/// start a timer, and OwnTracks' Basic user must be the token's name.
@Suite struct StoreCredentialsTests {
    func api(_ h: Harness) -> API {
        let clock = h.clock
        return API(store: h.store, zone: .utc, createsProjects: true, now: { clock.now },
                   credentials: StoreCredentials(store: h.store, now: { clock.now }), daemon: h.daemon)
    }

    func send(_ api: API, _ method: String, _ path: String, _ body: String, _ authorization: String) async -> APIResponse {
        await api.answer(APIRequest(method: method, path: path, query: [], headers: [("Authorization", authorization)],
                                    body: Array(body.utf8)))
    }

    @Test func aRevokedTokenIsRefusedOnItsNextRequest() async throws {
        let h = try Harness()
        let api = api(h)
        let secret = try h.store.addToken(name: "phone", scopes: TokenScope.allCases, now: nine)
        let started = await send(api, "POST", "/v1/start", #"{"project":"Docs"}"#, "Bearer " + secret)
        #expect(started.status == 200)
        #expect(try h.store.running()?.source == "http:phone")
        #expect(try h.store.tokens().first?.lastUsed == nine)
        #expect(try h.store.revokeToken(name: "phone", now: nine + 60))
        let refused = await send(api, "POST", "/v1/stop", "{}", "Bearer " + secret)
        #expect(refused.status == 401)
        #expect(try h.store.running()?.project == "Docs")
    }

    @Test func aReadTokenCannotStartATimer() async throws {
        let h = try Harness()
        let api = api(h)
        let secret = try h.store.addToken(name: "dashboard", scopes: [.read], now: nine)
        #expect(await send(api, "POST", "/v1/start", #"{"project":"Docs"}"#, "Bearer " + secret).status == 403)
        #expect(try h.store.running() == nil)
        #expect(await send(api, "GET", "/v1/status", "", "Bearer " + secret).status == 200)
    }

    @Test func ownTracksBasicUserMustBeTheTokensName() async throws {
        let h = try Harness()
        let api = api(h)
        let secret = try h.store.addToken(name: "phone", scopes: [.owntracks], now: nine)
        let location = #"{"_type":"location","lat":50.0,"lon":14.0,"tst":1795165200,"acc":10}"#
        let basic = { (user: String) in "Basic " + Data("\(user):\(secret)".utf8).base64EncodedString() }
        let answered = await send(api, "POST", "/v1/owntracks", location, basic("phone"))
        #expect(answered.status == 200)
        #expect(answered.body == Array("[]".utf8))
        #expect(h.daemon.inputs.count == 1)
        #expect(h.daemon.sources == [.http(device: "phone")])
        #expect(await send(api, "POST", "/v1/owntracks", location, basic("tablet")).status == 401)
        #expect(h.daemon.inputs.count == 1)
    }
}
