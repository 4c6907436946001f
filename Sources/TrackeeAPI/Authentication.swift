import Foundation

/// Finds who a request comes from, before it is routed, so a handler
/// cannot forget it and a caller without credentials learns nothing of
/// the routes: whatever its path and method, it gets the same 401.
/// Secrets go only to ``APICredentials``; no problem detail and no log
/// line repeats them.
enum Authentication {
    static let bearerChallenge = "Bearer realm=\"trackee\""
    static let basicChallenge = "Basic realm=\"trackee\", charset=\"UTF-8\""

    /// A caller whose credentials are right, and how it sent them.
    struct Caller: Sendable {
        var principal: APIPrincipal
        var scheme: Route.Credentials
    }

    /// Why credentials were refused, as the log says it (never the
    /// credentials themselves).
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// No Authorization header.
        case missing
        /// An Authorization header of another scheme, empty, or not Base64.
        case unreadable
        /// A Bearer token no token of the store is (or a revoked one).
        case unknownToken
        /// Basic credentials whose password is no token, or a token of
        /// another name.
        case unknownBasic

        var description: String {
            switch self {
            case .missing: "no credentials"
            case .unreadable: "an Authorization header that is neither Bearer nor Basic credentials"
            case .unknownToken: "a Bearer token that is not a token of this store"
            case .unknownBasic: "Basic credentials that are not a token and its name"
            }
        }
    }

    /// The caller of `request`, or why its credentials are refused; a
    /// throw only when they could not be checked (the credentials' error).
    static func caller(of request: APIRequest, credentials: any APICredentials) throws -> Result<Caller, Failure> {
        guard let authorization = request.header("Authorization") else { return .failure(.missing) }
        if let secret = value(authorization, scheme: "bearer") {
            guard !secret.isEmpty else { return .failure(.unreadable) }
            guard let principal = try credentials.principal(bearer: secret) else { return .failure(.unknownToken) }
            return .success(Caller(principal: principal, scheme: .bearer))
        }
        guard let encoded = value(authorization, scheme: "basic"),
              let decoded = Data(base64Encoded: encoded).flatMap({ String(data: $0, encoding: .utf8) }),
              let colon = decoded.firstIndex(of: ":")
        else { return .failure(.unreadable) }
        guard let principal = try credentials.principal(
            basicUser: String(decoded[..<colon]), password: String(decoded[decoded.index(after: colon)...]))
        else { return .failure(.unknownBasic) }
        return .success(Caller(principal: principal, scheme: .basic))
    }

    /// Whether `caller` may call `route`: 401 (with the route's own
    /// challenge) for credentials of the other scheme, 403 for a scope
    /// not granted. Only a caller whose credentials are right gets here,
    /// so saying what the route takes tells no stranger anything.
    static func authorize(_ caller: Caller, for route: Route) throws(Problem) {
        guard caller.scheme == route.credentials else {
            throw Problem.unauthorized(route.credentials == .basic ? basicChallenge : bearerChallenge)
        }
        guard caller.principal.scopes.contains(route.scope) else {
            throw Problem.forbidden(scope: route.scope, device: caller.principal.device)
        }
    }

    /// The credentials after `scheme` (compared case-insensitively) in an
    /// Authorization header.
    private static func value(_ header: String, scheme: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.first?.lowercased() == scheme else { return nil }
        return parts.count == 2 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : ""
    }
}
