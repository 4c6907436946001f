import Foundation
import Testing
import TrackeeAPI
import TrackeeCore
import TrackeeStore
@testable import TrackeeWeb

/// Signing in, sessions and signing out (issue 38 §3): the cookie's
/// flags, what the store keeps, failures limited and logged without the
/// token, sessions ended by sign-out, expiry and revocation.
@Suite struct WebSignInTests {
    @Test func withoutASessionTheRootIsTheSignInFormAndNothingElse() async throws {
        let h = try WebHarness()
        let answer = await h.send("GET", "/")
        #expect(answer.status == 200)
        #expect(answer.text.contains("<form id=\"sign-in\" class=\"sign-in\" method=\"post\" action=\"/sign-in\">"))
        #expect(!answer.text.contains("csrf-token"))
        #expect(!answer.text.contains("<script"))
        #expect(await h.send("GET", "/entries/1").header("Location") == "/")
        #expect(await h.send("GET", "/events").status == 401)
        #expect(await h.send("POST", "/timer/stop", form: [("csrf", "x")]).status == 403)
    }

    @Test func theRightTokenGivesAnHttpOnlyStrictCookieAndTheStoreKeepsOnlyItsHash() async throws {
        let h = try WebHarness()
        let answer = await h.send("POST", "/sign-in", form: [("token", h.phone)])
        #expect(answer.status == 303)
        #expect(answer.header("Location") == "/")
        let cookie = try #require(answer.header("Set-Cookie"))
        let secret = String(try #require(cookie.split(separator: ";").first).dropFirst("trackee_session=".count))
        #expect(cookie == "trackee_session=\(secret); Max-Age=2592000; Path=/; HttpOnly; SameSite=Strict")
        #expect(secret.hasPrefix("trs_") && secret.count == 47)
        let sessions = try h.store.sessions(now: h.clock.now)
        #expect(sessions.map(\.token) == ["phone"])
        #expect(sessions.map(\.expires) == [nine + 30 * 86_400])
        #expect(sessions.map(\.id) == [String(SHA256.hex(secret.utf8).prefix(8))])
        // The token is in no header of the answer, and the page served
        // to the session does not hold it.
        #expect(!answer.headers.contains { $0.1.contains(h.phone) })
        let page = await h.send("GET", "/", cookie: secret)
        #expect(page.status == 200)
        #expect(!page.text.contains(h.phone))
        #expect(page.text.contains("<span class=\"muted who\">phone</span>"))
    }

    @Test func behindTheDocumentedProxyOverTLSTheCookieIsSecure() async throws {
        let h = try WebHarness(trustedProxies: ["127.0.0.1"])
        let https = [("X-Forwarded-Proto", "https"), ("X-Forwarded-For", "198.51.100.4")]
        let answer = await h.send("POST", "/sign-in", form: [("token", h.phone)], headers: https, origin: "https://127.0.0.1:7777")
        #expect(answer.status == 303)
        #expect(answer.header("Set-Cookie")?.hasSuffix("; Path=/; HttpOnly; SameSite=Strict; Secure") == true)
        // The page over TLS is https://; its plain-HTTP origin is another.
        #expect(await h.send("POST", "/sign-in", form: [("token", h.phone)], headers: https).status == 403)
        // An untrusted peer cannot claim TLS.
        let stranger = await h.send(
            "POST", "/sign-in", form: [("token", h.phone)], headers: https, peer: "203.0.113.5")
        #expect(stranger.header("Set-Cookie")?.hasSuffix("SameSite=Strict") == true)
    }

    @Test func aWrongTokenIsRefusedAndLoggedWithTheAddressOnly() async throws {
        let h = try WebHarness()
        let typed = "trk_ThisIsNotTheTokenButLooksLikeOne0123456789abc"
        let answer = await h.send("POST", "/sign-in", form: [("token", typed)], peer: "203.0.113.9")
        #expect(answer.status == 401)
        #expect(answer.header("Set-Cookie") == nil)
        #expect(answer.text.contains(
            "<p class=\"alert\" role=\"alert\">That is not a token of this trackee, or it was revoked: check it with `trackee tokens list`.</p>"))
        #expect(!answer.text.contains(typed))
        #expect(h.log.all == ["warning: http: sign-in failed from 203.0.113.9: a token that is not a token of this store"])
        #expect(try h.store.sessions(now: h.clock.now).isEmpty)
    }

    @Test func failedSignInsAreLimitedPerAddress() async throws {
        let h = try WebHarness()
        for _ in 0..<HTTPSettings.failedAuthenticationsPerMinute {
            #expect(await h.send("POST", "/sign-in", form: [("token", "wrong")], peer: "203.0.113.9").status == 401)
        }
        let limited = await h.send("POST", "/sign-in", form: [("token", h.phone)], peer: "203.0.113.9")
        #expect(limited.status == 429)
        #expect(limited.header("Retry-After") == "6")
        #expect(limited.header("Set-Cookie") == nil)
        // Another address signs in.
        #expect(await h.send("POST", "/sign-in", form: [("token", h.phone)], peer: "198.51.100.7").status == 303)
        h.clock.advance(seconds: 6)
        #expect(await h.send("POST", "/sign-in", form: [("token", h.phone)], peer: "203.0.113.9").status == 303)
    }

    @Test func aTokenThatMayNotReadIsRefused() async throws {
        let h = try WebHarness()
        let button = try h.store.addToken(name: "button", scopes: [.start], now: nine)
        let answer = await h.send("POST", "/sign-in", form: [("token", button)])
        #expect(answer.status == 403)
        #expect(answer.text.contains(
            "The token button may not read (its scopes are start); the page needs read, and start, stop and cancel for its buttons."))
        #expect(try h.store.sessions(now: h.clock.now).isEmpty)
    }

    @Test func signingInAgainEndsTheSessionTheBrowserHad() async throws {
        let h = try WebHarness()
        let first = try await h.signIn()
        let again = await h.send("POST", "/sign-in", form: [("token", h.phone)], cookie: first)
        #expect(again.status == 303)
        let sessions = try h.store.sessions(now: h.clock.now)
        #expect(sessions.count == 1)
        #expect(sessions.first?.id != String(SHA256.hex(first.utf8).prefix(8)))
        #expect(await h.send("GET", "/", cookie: first).text.contains("<form id=\"sign-in\""))
    }

    @Test func signingOutEndsTheSessionAndClearsTheCookie() async throws {
        let h = try WebHarness()
        let cookie = try await h.signIn()
        let csrf = try await h.csrf(cookie)
        let out = await h.send("POST", "/sign-out", form: [("csrf", csrf)], cookie: cookie)
        #expect(out.status == 303)
        #expect(out.header("Set-Cookie") == "trackee_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict")
        #expect(try h.store.sessions(now: h.clock.now).isEmpty)
        #expect(await h.send("GET", "/", cookie: cookie).text.contains("<form id=\"sign-in\""))
    }

    @Test func aSessionExpiresAndEndsWithItsToken() async throws {
        let h = try WebHarness()
        let cookie = try await h.signIn()
        h.clock.advance(seconds: 30 * 86_400 - 1)
        #expect(await h.send("GET", "/", cookie: cookie).text.contains("csrf-token"))
        h.clock.advance(seconds: 1)
        #expect(await h.send("GET", "/", cookie: cookie).text.contains("<form id=\"sign-in\""))

        let second = try await h.signIn()
        #expect(await h.send("GET", "/", cookie: second).text.contains("csrf-token"))
        #expect(try h.store.revokeToken(name: "phone", now: h.clock.now))
        #expect(await h.send("GET", "/", cookie: second).text.contains("<form id=\"sign-in\""))
        #expect(try h.store.sessions(now: h.clock.now).isEmpty)
    }

    @Test func theTokensRateLimitAppliesToThePage() async throws {
        let h = try WebHarness(perMinute: 3)
        let cookie = try await h.signIn()
        for _ in 0..<3 { #expect(await h.send("GET", "/", cookie: cookie).status == 200) }
        let limited = await h.send("GET", "/", cookie: cookie)
        #expect(limited.status == 429)
        #expect(limited.header("Retry-After") == "20")
    }
}
