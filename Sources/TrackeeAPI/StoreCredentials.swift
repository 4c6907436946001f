import TrackeeCore
import TrackeeStore

/// The store's tokens as the API's credentials: a Bearer secret is a
/// token made by `trackee tokens add`; OwnTracks' Basic user is the
/// token's name and its password the token, so a phone cannot post under
/// another device's name.
public struct StoreCredentials: APICredentials {
    let store: Store
    let now: @Sendable () -> Instant

    public init(store: Store, now: @escaping @Sendable () -> Instant) {
        self.store = store
        self.now = now
    }

    public func principal(bearer secret: String) throws -> APIPrincipal? {
        try store.authenticate(secret: secret, now: now()).map(Self.principal)
    }

    public func principal(basicUser: String, password: String) throws -> APIPrincipal? {
        guard let token = try store.authenticate(secret: password, now: now()), token.name == basicUser else { return nil }
        return Self.principal(token)
    }

    static func principal(_ token: APIToken) -> APIPrincipal {
        APIPrincipal(device: token.name, scopes: Set(token.scopes.map(\.rawValue)))
    }
}
