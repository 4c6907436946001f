import TrackeeCore

/// Who a request comes from: the device its token was made for, and what
/// the token may do (`start`, `stop`, `cancel`, `read`, `events`,
/// `owntracks`).
public struct APIPrincipal: Sendable, Equatable {
    public var device: String
    public var scopes: Set<TokenScope>

    public init(device: String, scopes: Set<TokenScope>) {
        self.device = device
        self.scopes = scopes
    }
}

/// Where credentials are checked: the store's tokens in the daemon, a
/// table in tests. Nil means the credentials are wrong; a throw means they
/// could not be checked.
public protocol APICredentials: Sendable {
    /// The principal of an `Authorization: Bearer` secret.
    func principal(bearer secret: String) throws -> APIPrincipal?
    /// The principal of HTTP Basic credentials (OwnTracks: user = device).
    func principal(basicUser: String, password: String) throws -> APIPrincipal?
}
