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

/// The page on ``Harness``'s real store, its tokens the store's own.
final class WebHarness: Sendable {
    let base: Harness
    let page: WebPage
    /// The secret of the token `phone` (every scope).
    let phone: String

    var store: Store { base.store }
    var clock: ManualClock { base.clock }
    var api: API { base.api }
    var log: LogLines { base.log }

    init(perMinute: Int? = nil, trustedProxies: [String] = [], createsProjects: Bool = true,
         rules: RulesOutlook = RulesOutlook()) throws {
        base = try Harness(createsProjects: createsProjects, perMinute: perMinute, trustedProxies: trustedProxies, storeTokens: true)
        phone = try base.store.addToken(name: "phone", scopes: TokenScope.allCases, now: nine - 3600)
        page = WebPage(api: base.api, sessionDays: 30, rules: FixedRules(outlook: rules))
    }

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
