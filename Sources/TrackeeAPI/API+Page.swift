import TrackeeCore

/// What the web page (TrackeeWeb, linked only into `trackee-daemon`) asks
/// of the API it sits beside, so that its requests meet the API's limits
/// and take the API's one way to the store (``applyTimer(key:fingerprint:source:_:)``).
extension API {
    /// Whether the peer of `request` is one of the settings' trusted
    /// proxies, whose `X-Forwarded-Proto` and `X-Forwarded-For` are read.
    package func fromTrustedProxy(_ request: APIRequest) -> Bool {
        guard let peer = request.peer.flatMap(ClientAddress.init) else { return false }
        return trustedProxies.contains(peer.text)
    }

    /// Takes one request of the token `device` from its rate limit (the
    /// settings' `rate_limit`): 429 when it has none left.
    package func admit(device: String) throws(Problem) {
        if let rateLimit, let wait = rateLimit.take(device, now: Double(now().seconds)) {
            throw Problem.rateLimited(device: device, perMinute: rateLimit.perMinute, retryAfter: wait)
        }
    }

    /// The token a sign-in form gave, checked as a Bearer token is, under
    /// the same limit of failures per address: nil for a token that is
    /// none of the store's (logged with the address, never with what was
    /// typed), 429 for an address over its failures, 500 when the store
    /// cannot say.
    package func signIn(secret: String, _ request: APIRequest) throws(Problem) -> APIPrincipal? {
        try limitingFailures(of: request, unchecked: "The token could not be checked; the daemon's log says why.") {
            () throws -> Result<APIPrincipal, Authentication.Failure> in
            let principal = secret.isEmpty ? nil : try credentials.principal(bearer: secret)
            return principal.map { .success($0) } ?? .failure(.unknownToken)
        } failed: { _, address in
            log?.failedSignIn(from: address)
        }
    }

    /// Tells the caches the store changed here, at once rather than when
    /// inotify says so.
    package func changed() {
        generation?.advance()
    }
}
