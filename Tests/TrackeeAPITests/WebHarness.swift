import Foundation
import Logging
import Synchronization
import TrackeeAPI
import TrackeeAutomation
import TrackeeCore
import TrackeeStore
@testable import TrackeeWeb

/// The page's origin in these tests, as a browser at http://127.0.0.1:7777 sends it.
let host = "127.0.0.1:7777"
let origin = "http://127.0.0.1:7777"

/// Rules as a daemon would report them.
struct FixedRules: WebRules {
    var outlook = RulesOutlook()
    func outlook(count: Int) async -> RulesOutlook { outlook }
}

/// The page on a real store in a fresh temporary directory (removed
/// when the harness is released), its tokens the store's own.
final class WebHarness: Sendable {
    let directory: URL
    let store: Store
    let clock = ManualClock(nine)
    let api: API
    let page: WebPage
    let log = LogLines()
    /// The secret of the token `phone` (every scope).
    let phone: String

    init(perMinute: Int? = nil, trustedProxies: [String] = [], createsProjects: Bool = true,
         rules: RulesOutlook = RulesOutlook()) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackee-web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try Store(path: directory.appendingPathComponent("t.sqlite3").path)
        let clock = self.clock
        phone = try store.addToken(name: "phone", scopes: TokenScope.allCases, now: nine - 3600)
        api = API(
            store: store, zone: .utc, createsProjects: createsProjects, now: { clock.now },
            credentials: StoreCredentials(store: store, now: { clock.now }), daemon: FakeDaemon(), perMinute: perMinute,
            trustedProxies: trustedProxies, log: APILog(logger: log.logger, access: false))
        page = WebPage(api: api, sessionDays: 30, rules: FixedRules(outlook: rules))
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A request as a browser on the page's origin sends it: `Host`, and
    /// for a post `Origin` and a form body; `cookie` is the session's.
    func send(
        _ method: String, _ path: String, form: [(String, String)] = [], cookie: String? = nil,
        headers: [(String, String)] = [], query: [(String, String)] = [], peer: String? = "127.0.0.1",
        origin sentOrigin: String? = origin
    ) async -> APIResponse {
        var all: [(String, String)] = [("Host", host)]
        if method == "POST" {
            if let sentOrigin { all.append(("Origin", sentOrigin)) }
            all.append(("Content-Type", "application/x-www-form-urlencoded"))
        }
        if let cookie { all.append(("Cookie", "theme=dark; \(WebGuard.cookieName)=\(cookie)")) }
        all += headers
        return await page.answer(APIRequest(
            method: method, path: path, query: query, headers: all, body: Array(Self.encode(form).utf8), peer: peer))
    }

    static func encode(_ form: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return form.map { name, value in
            name.addingPercentEncoding(withAllowedCharacters: allowed)! + "="
                + value.addingPercentEncoding(withAllowedCharacters: allowed)!
        }.joined(separator: "&")
    }

    /// Signs in with `secret` and returns the session cookie's value.
    func signIn(_ secret: String? = nil) async throws -> String {
        let answer = await send("POST", "/sign-in", form: [("token", secret ?? phone)])
        guard answer.status == 303, let cookie = answer.header("Set-Cookie"),
              let value = cookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last
        else { throw Failed("sign-in answered \(answer.status): \(answer.text)") }
        return String(value)
    }

    /// The page's CSRF token for the session `cookie`, read from its
    /// `<meta>` as the script reads it.
    func csrf(_ cookie: String) async throws -> String {
        let page = await send("GET", "/", cookie: cookie).text
        guard let range = page.range(of: "<meta name=\"csrf-token\" content=\"") else { throw Failed("no csrf meta") }
        return String(page[range.upperBound...].prefix(64))
    }

    struct Failed: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
