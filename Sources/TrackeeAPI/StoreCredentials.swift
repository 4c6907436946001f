import TrackeeCore
import TrackeeStore

/// The store's tokens as the API's credentials: a Bearer secret is a
/// token made by `trackee tokens add`; OwnTracks' Basic user is the
/// token's name and its password the token, so a phone cannot post under
/// another device's name.
///
/// Given a ``StoreGeneration``, a token read is kept until the store next
/// changes (a `tokens revoke` is a change) or for a minute at most, so
/// `last_used` is still recorded once a minute; the cache is keyed by the
/// secret's SHA-256, as the store is, never by the secret.
public struct StoreCredentials: APICredentials {
    let store: Store
    let now: @Sendable () -> Instant
    let generation: StoreGeneration?
    private let cache = GenerationCache<String, Read>(limit: 1024)

    struct Read: Sendable {
        var token: APIToken?
        var at: Instant
    }

    public init(store: Store, now: @escaping @Sendable () -> Instant, generation: StoreGeneration? = nil) {
        self.store = store
        self.now = now
        self.generation = generation
    }

    public func principal(bearer secret: String) throws -> APIPrincipal? {
        try token(secret).map(Self.principal)
    }

    public func principal(basicUser: String, password: String) throws -> APIPrincipal? {
        guard let token = try token(password), token.name == basicUser else { return nil }
        return Self.principal(token)
    }

    private func token(_ secret: String) throws -> APIToken? {
        let now = now()
        let hash = SHA256.hex(secret.utf8)
        guard let generation else { return try store.authenticate(secretHash: hash, now: now) }
        let current = generation.value
        if let read = cache.value(hash, generation: current), now - read.at < Store.lastUsedResolution {
            return read.token
        }
        let token = try store.authenticate(secretHash: hash, now: now)
        cache.keep(Read(token: token, at: now), for: hash, generation: current)
        return token
    }

    static func principal(_ token: APIToken) -> APIPrincipal {
        APIPrincipal(device: token.name, scopes: Set(token.scopes))
    }
}
