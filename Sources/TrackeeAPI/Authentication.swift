import Foundation

/// Finds who a request comes from, before any route runs, so a handler
/// cannot forget it. Secrets go only to ``APICredentials``; no problem
/// detail repeats them.
enum Authentication {
    static let bearerChallenge = "Bearer realm=\"trackee\""
    static let basicChallenge = "Basic realm=\"trackee\", charset=\"UTF-8\""

    /// The principal allowed to call `route`, or the problem: 401 for
    /// missing or wrong credentials, 403 for a scope not granted.
    static func principal(
        for route: Route, request: APIRequest, credentials: any APICredentials
    ) throws(Problem) -> APIPrincipal {
        let challenge = route.credentials == .basic ? basicChallenge : bearerChallenge
        guard let authorization = request.header("Authorization") else { throw Problem.unauthorized(challenge) }
        let principal: APIPrincipal?
        do {
            switch route.credentials {
            case .bearer:
                guard let secret = value(authorization, scheme: "bearer"), !secret.isEmpty else {
                    throw Problem.unauthorized(challenge)
                }
                principal = try credentials.principal(bearer: secret)
            case .basic:
                guard let encoded = value(authorization, scheme: "basic"),
                      let decoded = Data(base64Encoded: encoded).flatMap({ String(data: $0, encoding: .utf8) }),
                      let colon = decoded.firstIndex(of: ":")
                else { throw Problem.unauthorized(challenge) }
                principal = try credentials.principal(
                    basicUser: String(decoded[..<colon]), password: String(decoded[decoded.index(after: colon)...]))
            }
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem.internalError("The credentials could not be checked; the daemon's log says why.")
        }
        guard let principal else { throw Problem.unauthorized(challenge) }
        guard principal.scopes.contains(route.scope) else {
            throw Problem.forbidden(scope: route.scope, device: principal.device)
        }
        return principal
    }

    /// The credentials after `scheme` (compared case-insensitively) in an
    /// Authorization header.
    private static func value(_ header: String, scheme: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == scheme else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }
}
