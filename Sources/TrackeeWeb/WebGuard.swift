import TrackeeAPI
import TrackeeCore
import TrackeeStore

/// The page's safety, in one place: the session cookie, the CSRF token
/// derived from it, the origin a state-changing request must come from,
/// and the headers every answer carries.
///
/// The session's secret lives only in an `HttpOnly` cookie and, as its
/// SHA-256, in the store (`web_session`); the token a person signed in
/// with is never stored in the browser. The CSRF token is the SHA-256 of
/// a fixed prefix and the session's secret: the server derives it again
/// for each request rather than keeping it, and only a page served to
/// that session holds it (in its forms and a `<meta>`, never a cookie).
enum WebGuard {
    static let cookieName = "trackee_session"

    /// What every answer of the page carries. No script but the page's
    /// own file, no style but its own sheet, nothing fetched from another
    /// host, no framing, no referrer (under which a browser sends `Origin:
    /// null` with the page's own posts: ``crossSite`` takes that).
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        + "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    static let headers: [(String, String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]

    /// A request with a session: whose it is, and what its forms carry.
    struct SignedIn {
        var secretHash: String
        var session: WebSession
        var token: APIToken
        var csrf: String

        var device: String { token.name }
        var scopes: Set<TokenScope> { Set(token.scopes) }
    }

    /// The session cookie's value in `request`'s `Cookie` headers.
    static func cookie(_ request: APIRequest) -> String? {
        for (name, value) in request.headers where name.lowercased() == "cookie" {
            for pair in value.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, String(parts[0]).trimmingWhitespace() == cookieName {
                    return String(parts[1]).trimmingWhitespace()
                }
            }
        }
        return nil
    }

    /// The session of `request`, or nil: no cookie, or one the store does
    /// not know, that expired, or whose token was revoked.
    static func signedIn(_ request: APIRequest, store: Store, now: Instant) throws -> SignedIn? {
        guard let secret = cookie(request), secret.utf8.count <= 128 else { return nil }
        let hash = SHA256.hex(secret.utf8)
        guard let found = try store.session(secretHash: hash, now: now) else { return nil }
        return SignedIn(secretHash: hash, session: found.session, token: found.token, csrf: csrf(secret))
    }

    /// The CSRF token of the session whose secret is `secret`.
    static func csrf(_ secret: String) -> String {
        SHA256.hex(("trackee-web-csrf:" + secret).utf8)
    }

    /// Whether the request carries the session's CSRF token, in the form's
    /// `csrf` field or the `X-CSRF-Token` header.
    static func carriesCSRF(_ request: APIRequest, form: WebForm, of signed: SignedIn) -> Bool {
        guard let given = form["csrf"] ?? request.header("X-CSRF-Token") else { return false }
        return constantTimeEquals(Array(given.utf8), Array(signed.csrf.utf8))
    }

    /// Whether the request reached the proxy over TLS: the peer is one of
    /// `trusted_proxies` and its last `X-Forwarded-Proto` says `https`.
    /// `trackee run` itself speaks plain HTTP only.
    static func isSecure(_ request: APIRequest, api: API) -> Bool {
        api.fromTrustedProxy(request) && request.lastListElement("X-Forwarded-Proto")?.lowercased() == "https"
    }

    /// Why a state-changing request is refused as coming from another
    /// site, or nil when it comes from the page. A browser's
    /// `Sec-Fetch-Site`, when sent, must say `same-origin`. Its `Origin`
    /// must be the page's own (the scheme, and the `Host` it was asked
    /// of), or `null`: under the page's `Referrer-Policy: no-referrer` a
    /// browser sends `null` for the page's own posts, and then
    /// `Sec-Fetch-Site`, which it sends to loopback and https:// pages,
    /// says where the post came from; without it (plain HTTP beyond
    /// loopback), the cookie, which a browser sends to no other site's
    /// post (`SameSite=Strict`), and the session's CSRF token decide. A
    /// request without `Origin` is no browser's post, and is refused.
    static func crossSite(_ request: APIRequest, secure: Bool) -> String? {
        if let site = request.header("Sec-Fetch-Site"), site.lowercased() != "same-origin" {
            return "The request came from another site (Sec-Fetch-Site: \(site.prefix(20))); the page's forms are sent from the page only."
        }
        guard let origin = request.header("Origin") else {
            return "The request has no Origin header; the page's forms are sent by a browser, which gives one."
        }
        guard let host = request.header("Host"), !host.isEmpty else {
            return "The request has no Host header."
        }
        let own = (secure ? "https://" : "http://") + host.lowercased()
        guard origin.lowercased() == own || origin == "null" else {
            return "The request came from another origin (\(origin.prefix(80))), not \(own); the page's forms are sent from the page only."
        }
        return nil
    }

    /// The `Set-Cookie` value that gives the browser `secret` for
    /// `seconds`, or ends the session's cookie (nil).
    static func setCookie(_ secret: String?, seconds: Int64, secure: Bool) -> String {
        let value = secret.map { "\(cookieName)=\($0); Max-Age=\(seconds)" } ?? "\(cookieName)=; Max-Age=0"
        return value + "; Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }
}
