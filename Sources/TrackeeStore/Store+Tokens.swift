import GRDB
import TrackeeCore

extension Store {
    /// How long a token's `last_used` may lag behind its latest request: a
    /// phone posting every few seconds then writes the store once a minute.
    public static let lastUsedResolution: Int64 = 60

    /// Makes a token for the device `name` with `scopes` and returns its
    /// secret, the only time it exists outside the caller: the store keeps
    /// its SHA-256.
    ///
    /// The secret is `trk_` and 43 characters of unpadded base64url: 32
    /// bytes from the kernel's random source. A name already taken, even by
    /// a revoked token, is ``StoreError/tokenExists(_:)``.
    ///
    /// ```swift
    /// let secret = try store.addToken(name: "phone", scopes: [.start, .stop], now: now)
    /// try store.authenticate(secret: secret, now: now)?.name // "phone"
    /// ```
    public func addToken(name: String, scopes: [TokenScope], now: Instant) throws -> String {
        guard APIToken.isValidName(name) else { throw StoreError.invalidTokenName(name) }
        let secret = Self.newSecret(prefix: "trk_")
        try write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM api_token WHERE name = ?", arguments: [name]) == true {
                throw StoreError.tokenExists(name)
            }
            try db.execute(
                sql: "INSERT INTO api_token (name, hash, scopes, created) VALUES (?, ?, ?, ?)",
                arguments: [name, SHA256.hex(secret.utf8), Self.storedScopes(scopes), now.seconds])
        }
        return secret
    }

    /// Every token, revoked ones too, by name.
    public func tokens() throws -> [APIToken] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT name, scopes, created, last_used, revoked FROM api_token ORDER BY name")
                .map(Self.token)
        }
    }

    /// Revokes the token `name` at `now`, ending its web sessions; false
    /// when there is no such token or it was revoked already (its first
    /// revocation time is kept).
    public func revokeToken(name: String, now: Instant) throws -> Bool {
        try revoke(token: name, now: now) != nil
    }

    /// Revokes the token `name` at `now` and ends (deletes) its web
    /// sessions in the same transaction, so none outlives it: how many of
    /// them had not expired yet, or nil when there is no such token or it
    /// was revoked already (its first revocation time is kept).
    public func revoke(token name: String, now: Instant) throws -> Int? {
        try write { db in
            try db.execute(sql: "UPDATE api_token SET revoked = ? WHERE name = ? AND revoked IS NULL",
                           arguments: [now.seconds, name])
            guard db.changesCount > 0 else { return nil }
            let live = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM web_session WHERE token = ? AND expires > ?", arguments: [name, now.seconds])
            try db.execute(sql: "DELETE FROM web_session WHERE token = ?", arguments: [name])
            return live ?? 0
        }
    }

    /// The token whose secret was presented, nil for an unknown or revoked
    /// one; records the use at most once a minute per token.
    ///
    /// The row is found by the hash of the presented secret, so what an
    /// index lookup's timing could reveal is about a hash, not the secret;
    /// the hashes are then compared in constant time all the same.
    public func authenticate(secret: String, now: Instant) throws -> APIToken? {
        try authenticate(secretHash: SHA256.hex(secret.utf8), now: now)
    }

    /// ``authenticate(secret:now:)`` for a caller that has hashed the
    /// secret already (`SHA256.hex` of its UTF-8), such as a cache keyed by
    /// the hash.
    public func authenticate(secretHash hash: String, now: Instant) throws -> APIToken? {
        // One statement, in autocommit, prepared once: the HTTP server
        // runs it for nearly every request.
        let found = try peek { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT name, scopes, created, last_used, revoked, hash FROM api_token WHERE hash = ?"),
                arguments: [hash])
        }
        guard let found, constantTimeEquals(Array((found[5] as String).utf8), Array(hash.utf8)) else { return nil }
        var token = Self.token(found)
        guard token.revoked == nil else { return nil }
        if Self.isRecorded(token.lastUsed, at: now) { return token }
        // The revocation is checked again in the write: a `tokens revoke`
        // between the read and here wins.
        let recorded = try write { db in
            try db.execute(sql: "UPDATE api_token SET last_used = ? WHERE name = ? AND revoked IS NULL",
                           arguments: [now.seconds, token.name])
            return db.changesCount > 0
        }
        guard recorded else { return nil }
        token.lastUsed = now
        return token
    }

    /// Whether a use at `now` is recorded already by `lastUsed`, to the
    /// resolution: a use less than ``lastUsedResolution`` before it.
    static func isRecorded(_ lastUsed: Instant?, at now: Instant) -> Bool {
        lastUsed.map { now - $0 < lastUsedResolution } ?? false
    }

    /// A new secret, `prefix` and 43 characters of unpadded base64url: 32
    /// bytes from the kernel's random source.
    static func newSecret(prefix: String) -> String {
        // The standard library's generator is the kernel's getrandom(2) on
        // Linux: cryptographically secure, and no C in this module.
        var random = SystemRandomNumberGenerator()
        let bytes = (0..<4).flatMap { _ in withUnsafeBytes(of: random.next() as UInt64) { Array($0) } }
        return prefix + base64url(bytes)
    }

    /// A token from the columns name, scopes, created, last_used and
    /// revoked, the row's first five.
    static func token(_ row: Row) -> APIToken {
        let names = (row[1] as String).split(separator: ",")
        return APIToken(
            name: row[0], scopes: TokenScope.ordered(names.compactMap { TokenScope(rawValue: String($0)) }),
            created: Instant(seconds: row[2]), lastUsed: (row[3] as Int64?).map(Instant.init(seconds:)),
            revoked: (row[4] as Int64?).map(Instant.init(seconds:)))
    }

    static func storedScopes(_ scopes: [TokenScope]) -> String {
        TokenScope.ordered(scopes).map(\.rawValue).joined(separator: ",")
    }
}

/// `bytes` in base64url (RFC 4648 §5) without padding: the alphabet that
/// needs no escaping in a header, a URL or a shell.
func base64url(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count * 4 + 2) / 3)
    var i = 0
    while i < bytes.count {
        let b0 = UInt32(bytes[i])
        let b1 = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0
        let b2 = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
        let group = b0 << 16 | b1 << 8 | b2
        let available = min(bytes.count - i, 3) + 1
        for k in 0..<available { out.append(alphabet[Int(group >> (18 - 6 * UInt32(k)) & 0x3f)]) }
        i += 3
    }
    return String(decoding: out, as: UTF8.self)
}
