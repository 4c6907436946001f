import TrackeeCore

/// A browser signed in on the web page that `trackee run` serves, with a
/// token, as `trackee tokens list` shows it: never the session's secret,
/// which is in the browser's cookie alone (the store keeps its SHA-256).
public struct WebSession: Sendable, Equatable {
    /// The first 8 hex digits of the secret's SHA-256: what `tokens list`
    /// shows, to tell a token's sessions apart.
    public var id: String
    /// The name of the token signed in with.
    public var token: String
    /// When it signed in.
    public var created: Instant
    /// Its last request, to the minute (``Store/lastUsedResolution``);
    /// `created` before any.
    public var lastUsed: Instant
    /// When it ends unless signed out or revoked first: the sign-in's time
    /// and the lifetime it was given (`http.session_days`).
    public var expires: Instant

    public init(id: String, token: String, created: Instant, lastUsed: Instant, expires: Instant) {
        self.id = id
        self.token = token
        self.created = created
        self.lastUsed = lastUsed
        self.expires = expires
    }

    /// The session whose secret's SHA-256 (64 hex digits) is `hash`.
    init(hash: String, token: String, created: Instant, lastUsed: Instant, expires: Instant) {
        self.init(id: String(hash.prefix(8)), token: token, created: created, lastUsed: lastUsed, expires: expires)
    }
}
