import Testing
@testable import TrackeeAPI
import TrackeeCore
import TrackeeStore

/// Failed authentications as an attacker makes them: each is logged with
/// the address it came from and none of its credentials; ten a minute
/// from one address, then 429 for that address only; an address taken
/// from X-Forwarded-For only when a trusted proxy wrote it; and a table
/// of addresses that a flood of new ones cannot grow without bound.
@Suite struct FailedAuthenticationTests {
    /// What an address over its failures gets, `retry` seconds before it
    /// may try again.
    static func limited(_ retry: Int) -> APIResponse {
        APIResponse(
            status: 429,
            headers: [("Content-Type", "application/problem+json"), ("Retry-After", "\(retry)")],
            body: Array(problem(
                429, "rate-limited", "Too many requests",
                "Too many failed authentications came from this address (10 a minute are allowed); retry in \(retry) s."
            ).utf8))
    }

    static let failed = "warning: http: authentication failed from"

    @Test func tenFailuresAMinuteThenTheAddressGets429WhileAnotherAddressDoesNot() async throws {
        let h = try Harness()
        for _ in 0..<10 {
            #expect(await h.send("GET", "/v1/status", token: "guess", peer: "203.0.113.7").status == 401)
        }
        // The eleventh is not even checked: right or wrong, the address waits.
        #expect(await h.send("GET", "/v1/status", token: "guess", peer: "203.0.113.7") == Self.limited(6))
        #expect(await h.send("GET", "/v1/status", peer: "203.0.113.7") == Self.limited(6))
        #expect(await h.send("GET", "/v1/nothing", token: nil, peer: "203.0.113.7") == Self.limited(6))
        // Ten failures were logged, the refused requests none.
        #expect(h.log.all == Array(
            repeating: "\(Self.failed) 203.0.113.7: a Bearer token that is not a token of this store", count: 10))

        // Another address is served as before, and can fail on its own.
        #expect(await h.send("GET", "/v1/status", peer: "203.0.113.8").status == 200)
        #expect(await h.send("GET", "/v1/status", token: "guess", peer: "203.0.113.8").status == 401)

        // Six seconds give one attempt back, and only one.
        h.clock.advance(seconds: 3)
        #expect(await h.send("GET", "/v1/status", peer: "203.0.113.7") == Self.limited(3))
        h.clock.advance(seconds: 3)
        #expect(await h.send("GET", "/v1/status", token: "guess", peer: "203.0.113.7").status == 401)
        #expect(await h.send("GET", "/v1/status", peer: "203.0.113.7") == Self.limited(6))
        // A minute later the whole burst is back.
        h.clock.advance(seconds: 60)
        #expect(await h.send("GET", "/v1/status", peer: "203.0.113.7").status == 200)
    }

    /// Requests that authenticate count nothing against their address,
    /// and 403s and 404s of a caller with a token are not failures.
    @Test func callersWithATokenAreNeverLimitedAsFailures() async throws {
        let h = try Harness()
        for _ in 0..<30 {
            #expect(await h.send("GET", "/v1/status", peer: "203.0.113.9").status == 200)
            #expect(await h.send("POST", "/v1/start", #"{"project":"Docs"}"#, token: "secret-read", peer: "203.0.113.9")
                .status == 403)
            #expect(await h.send("GET", "/v1/nothing", peer: "203.0.113.9").status == 404)
        }
        #expect(h.log.all == [])
        #expect(h.api.failures.count == 0)
    }

    /// A check that succeeds gives back what it took: nine failures, then
    /// any number of successes, leave the address its tenth failure.
    /// Credentials that could not be checked (the store failed) are not
    /// the caller's failure either.
    @Test func onlyFailuresCountAgainstTheAddress() async throws {
        let h = try Harness()
        for _ in 0..<9 {
            #expect(await h.send("GET", "/v1/status", token: "guess", peer: "203.0.113.7").status == 401)
        }
        for _ in 0..<20 {
            #expect(await h.send("GET", "/v1/status", peer: "203.0.113.7").status == 200)
            let broken = await h.send("GET", "/v1/status", token: "secret-broken", peer: "203.0.113.7")
            #expect(broken.status == 500)
            #expect(broken.text == problem(
                500, "internal", "The store failed", "The credentials could not be checked; the daemon's log says why."))
        }
        #expect(await h.send("GET", "/v1/status", token: "guess", peer: "203.0.113.7").status == 401)
        #expect(await h.send("GET", "/v1/status", peer: "203.0.113.7") == Self.limited(6))
        let failure = "\(Self.failed) 203.0.113.7: a Bearer token that is not a token of this store"
        #expect(h.log.all == Array(repeating: failure, count: 9)
            + Array(repeating: "error: http: the credentials could not be checked: Broken()", count: 20) + [failure])
    }

    /// One line per failure, with the address and why; no part of what
    /// was sent: not the token, not Basic's user or password, not the
    /// header's Base64.
    @Test func theFailureLineNamesTheAddressAndNoPartOfTheCredentials() async throws {
        let h = try Harness()
        let secret = "trk_Q7xZ9vK2mW4pR8tYb3Nc"
        // "mallory:trk_Q7xZ9vK2mW4pR8tYb3Nc"
        let basic = "bWFsbG9yeTp0cmtfUTd4Wjl2SzJtVzRwUjh0WWIzTmM="
        #expect(await h.send("GET", "/v1/status", token: nil, peer: "203.0.113.7").status == 401)
        #expect(await h.send("GET", "/v1/status", token: secret, peer: "203.0.113.7").status == 401)
        #expect(await h.send(
            "POST", "/v1/owntracks", "{}", token: nil, headers: [("Authorization", "Basic " + basic)], peer: "203.0.113.7"
        ).status == 401)
        #expect(await h.send(
            "GET", "/v1/status", token: nil, headers: [("Authorization", "Token " + secret)], peer: "2001:db8::7"
        ).status == 401)
        #expect(h.log.all == [
            "\(Self.failed) 203.0.113.7: no credentials",
            "\(Self.failed) 203.0.113.7: a Bearer token that is not a token of this store",
            "\(Self.failed) 203.0.113.7: Basic credentials that are not a token and its name",
            "\(Self.failed) 2001:db8::7: an Authorization header that is neither Bearer nor Basic credentials",
        ])
        let logged = h.log.all.joined(separator: "\n")
        for sent in [secret, basic, "mallory"] {
            for start in 0...(sent.count - 4) {
                let part = String(sent.dropFirst(start).prefix(4))
                #expect(!logged.contains(part), "the log holds \"\(part)\" of \(sent)")
            }
        }
    }

    /// Behind a trusted proxy, the address is the last one of
    /// X-Forwarded-For, the one the proxy wrote; from anyone else the
    /// header is not read, so forging it neither hides an address nor
    /// dodges its limit.
    @Test func aForwardedAddressIsBelievedFromATrustedProxyOnly() async throws {
        let h = try Harness(trustedProxies: ["127.0.0.1", "::1"])
        let cases: [(String, [(String, String)], String)] = [
            ("127.0.0.1", [("X-Forwarded-For", "198.51.100.9")], "198.51.100.9"),
            ("127.0.0.1", [("X-Forwarded-For", "10.9.9.9, 198.51.100.10")], "198.51.100.10"),
            ("127.0.0.1", [("X-Forwarded-For", "10.9.9.9"), ("x-forwarded-for", "198.51.100.11")], "198.51.100.11"),
            ("::1", [("X-Forwarded-For", "2001:DB8:0:0:0:0:0:12")], "2001:db8::12"),
            ("::ffff:127.0.0.1", [("X-Forwarded-For", "198.51.100.13")], "198.51.100.13"),
            ("127.0.0.1", [("X-Forwarded-For", "198.51.100.14:4711")], "127.0.0.1"),
            ("127.0.0.1", [], "127.0.0.1"),
            ("192.0.2.50", [("X-Forwarded-For", "198.51.100.15")], "192.0.2.50"),
            ("192.0.2.50", [("X-Real-IP", "198.51.100.16"), ("Forwarded", "for=198.51.100.16")], "192.0.2.50"),
        ]
        for (peer, headers, _) in cases {
            #expect(await h.send("GET", "/v1/status", token: nil, headers: headers, peer: peer).status == 401)
        }
        #expect(h.log.all == cases.map { "\(Self.failed) \($0.2): no credentials" })
        h.log.removeAll()

        // Ten failures relayed for one client limit that client only.
        for _ in 0..<10 {
            _ = await h.send("GET", "/v1/status", token: "guess", headers: [("X-Forwarded-For", "198.51.100.20")], peer: "127.0.0.1")
        }
        #expect(await h.send("GET", "/v1/status", headers: [("X-Forwarded-For", "198.51.100.20")], peer: "127.0.0.1")
            == Self.limited(6))
        #expect(await h.send("GET", "/v1/status", headers: [("X-Forwarded-For", "198.51.100.21")], peer: "127.0.0.1")
            .status == 200)

        // A client that forges a new X-Forwarded-For each time is still one address.
        for index in 0..<10 {
            _ = await h.send(
                "GET", "/v1/status", token: "guess", headers: [("X-Forwarded-For", "198.51.100.\(100 + index)")],
                peer: "192.0.2.60")
        }
        #expect(await h.send("GET", "/v1/status", headers: [("X-Forwarded-For", "198.51.100.99")], peer: "192.0.2.60")
            == Self.limited(6))
        #expect(h.log.all.suffix(10) == Array(repeating: "\(Self.failed) 192.0.2.60: a Bearer token that is not a token of this store", count: 10))
    }

    /// An IPv6 client commonly holds a whole /64: its addresses share one limit.
    @Test func ipv6AddressesAreLimitedByTheirSlash64() async throws {
        let h = try Harness()
        for index in 1...10 {
            #expect(await h.send("GET", "/v1/status", token: "guess", peer: "2001:db8:1:2::\(index)").status == 401)
        }
        #expect(await h.send("GET", "/v1/status", peer: "2001:db8:1:2:ffff:ffff:ffff:ffff") == Self.limited(6))
        #expect(await h.send("GET", "/v1/status", peer: "2001:db8:1:3::1").status == 200)
        #expect(h.log.all.last == "\(Self.failed) 2001:db8:1:2::10: a Bearer token that is not a token of this store")
    }

    @Test func addressesAreReadAsTheLogShowsThem() {
        let cases: [(String, String?, String?)] = [
            ("192.0.2.1", "192.0.2.1", "192.0.2.1"),
            (" 192.0.2.1 ", "192.0.2.1", "192.0.2.1"),
            ("::ffff:192.0.2.1", "192.0.2.1", "192.0.2.1"),
            ("2001:DB8::1", "2001:db8::1", "2001:db8::/64"),
            ("2001:db8:aa:bb:cc:dd:ee:ff", "2001:db8:aa:bb:cc:dd:ee:ff", "2001:db8:aa:bb::/64"),
            ("::1", "::1", "::/64"),
            ("192.0.2.1:80", nil, nil),
            ("[::1]", nil, nil),
            ("trackee.example.org", nil, nil),
            ("", nil, nil),
        ]
        for (text, shown, key) in cases {
            let address = ClientAddress(text)
            #expect(address?.text == shown, "\(text)")
            #expect(address?.key == key, "\(text)")
        }
    }

    /// The table keeps at most `keeping` keys: buckets that have filled
    /// up again go first, then the quarter least recently charged.
    @Test func theTableOfAddressesIsBounded() {
        let limit = RateLimit(perMinute: 10, keeping: 8)
        for index in 0..<8 {
            for _ in 0..<10 { #expect(limit.take("a\(index)", now: Double(index)) == nil) }
        }
        #expect(limit.count == 8)
        // Full: the two least recently charged (a0, a1) are forgotten.
        #expect(limit.take("b", now: 8) == nil)
        #expect(limit.count == 7)
        #expect(limit.peek("a0", now: 8) == nil)
        #expect(limit.peek("a1", now: 8) == nil)
        // a2's six seconds gave one back; a3 waits one more, a7 five.
        #expect(limit.peek("a2", now: 8) == nil)
        #expect(limit.peek("a3", now: 8) == 1)
        #expect(limit.peek("a7", now: 8) == 5)
        // A minute on, every bucket but the newest has filled up again
        // and makes room.
        #expect(limit.take("c", now: 68) == nil)
        #expect(limit.count == 8)
        #expect(limit.take("d", now: 68) == nil)
        #expect(limit.count == 2)
        #expect(limit.peek("c", now: 68) == nil)
        // However many keys come, it never holds more.
        for index in 0..<10_000 {
            _ = limit.take("flood\(index)", now: 70)
            #expect(limit.count <= 8)
        }
    }

    /// A burst of bad tokens from ever new addresses: the API's table
    /// stays at its bound, and an address that then fails ten times is
    /// limited as before.
    @Test func aBurstOfBadTokensFromNewAddressesLeavesTheTableBounded() async throws {
        let h = try Harness()
        for index in 0..<(HTTPSettings.keysKept + 1000) {
            let peer = "10.\(index >> 16 & 255).\(index >> 8 & 255).\(index & 255)"
            #expect(await h.send("GET", "/v1/status", token: "guess", peer: peer).status == 401)
        }
        #expect(h.api.failures.count <= HTTPSettings.keysKept)
        #expect(h.api.failures.count > HTTPSettings.keysKept / 2)
        for _ in 0..<10 { _ = await h.send("GET", "/v1/status", token: "guess", peer: "203.0.113.7") }
        #expect(await h.send("GET", "/v1/status", peer: "203.0.113.7") == Self.limited(6))
    }
}
