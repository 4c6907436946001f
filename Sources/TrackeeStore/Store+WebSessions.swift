import GRDB
import TrackeeCore

extension Store {
    /// Signs a browser in on the web page with the token `name`, for
    /// `lifetime` seconds, and returns the session's secret, the only time
    /// it exists outside the caller: the store keeps its SHA-256.
    ///
    /// The secret is `trs_` and 43 characters of unpadded base64url (32
    /// random bytes, as ``addToken(name:scopes:now:)`` makes a token's). A
    /// name no token has is ``StoreError/unknownToken(_:)``, a revoked
    /// token's ``StoreError/tokenRevoked(_:)``. The same write deletes the
    /// sessions that have expired, so the table holds no more than the
    /// live ones and those since the last sign-in.
    ///
    /// ```swift
    /// let secret = try store.startSession(token: "phone", now: now, lifetime: 30 * 86_400)
    /// try store.session(secretHash: SHA256.hex(secret.utf8), now: now)?.token.name // "phone"
    /// ```
    public func startSession(token name: String, now: Instant, lifetime: Int64) throws -> String {
        let secret = Self.newSecret(prefix: "trs_")
        try write { db in
            guard let token = try Row.fetchOne(db, sql: "SELECT revoked FROM api_token WHERE name = ?", arguments: [name])
            else { throw StoreError.unknownToken(name) }
            if (token[0] as Int64?) != nil { throw StoreError.tokenRevoked(name) }
            try db.execute(sql: "DELETE FROM web_session WHERE expires <= ?", arguments: [now.seconds])
            try db.execute(
                sql: "INSERT INTO web_session (hash, token, created, last_used, expires) VALUES (?, ?, ?, ?, ?)",
                arguments: [SHA256.hex(secret.utf8), name, now.seconds, now.seconds, (now + lifetime).seconds])
        }
        return secret
    }

    /// The session whose secret has the SHA-256 `hash` (`SHA256.hex` of
    /// its UTF-8), with its token; nil when there is none, it has expired
    /// (`expires <= now`), or its token is revoked.
    ///
    /// Records the use at most once a minute (``lastUsedResolution``), the
    /// session's and its token's, as ``authenticate(secretHash:now:)``
    /// does for a token. The row is found by the hash, and the hashes are
    /// then compared in constant time, as there.
    public func session(secretHash hash: String, now: Instant) throws -> (session: WebSession, token: APIToken)? {
        // One statement, in autocommit, prepared once: the web page's
        // every request runs it.
        let found = try peek { db in
            try Row.fetchOne(
                db.cachedStatement(sql: """
                    SELECT t.name, t.scopes, t.created, t.last_used, t.revoked, \(Self.sessionColumns)
                    FROM web_session s JOIN api_token t ON t.name = s.token WHERE s.hash = ?
                    """),
                arguments: [hash])
        }
        guard let found, constantTimeEquals(Array((found[5] as String).utf8), Array(hash.utf8)) else { return nil }
        var token = Self.token(found)
        var session = Self.webSession(found, from: 5)
        guard session.expires > now, token.revoked == nil else { return nil }
        let recordSession = !Self.isRecorded(session.lastUsed, at: now)
        let recordToken = !Self.isRecorded(token.lastUsed, at: now)
        guard recordSession || recordToken else { return (session, token) }
        // A sign-out or a `tokens revoke` (which ends the token's
        // sessions) between the read and here wins.
        let live = try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM web_session WHERE hash = ?", arguments: [hash]) == true
            else { return false }
            if recordSession {
                try db.execute(sql: "UPDATE web_session SET last_used = ? WHERE hash = ?", arguments: [now.seconds, hash])
            }
            if recordToken {
                try db.execute(sql: "UPDATE api_token SET last_used = ? WHERE name = ?", arguments: [now.seconds, token.name])
            }
            return true
        }
        guard live else { return nil }
        if recordSession { session.lastUsed = now }
        if recordToken { token.lastUsed = now }
        return (session, token)
    }

    /// A session's columns, in the order ``webSession(_:from:)`` reads them.
    static let sessionColumns = "s.hash, s.token, s.created, s.last_used, s.expires"

    /// The session in ``sessionColumns``, from the row's column `first` on.
    static func webSession(_ row: Row, from first: Int) -> WebSession {
        WebSession(
            hash: row[first], token: row[first + 1], created: Instant(seconds: row[first + 2]),
            lastUsed: Instant(seconds: row[first + 3]), expires: Instant(seconds: row[first + 4]))
    }

    /// Ends the session whose secret has the SHA-256 `hash` (signing out);
    /// false when there is none.
    public func endSession(secretHash hash: String) throws -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM web_session WHERE hash = ?", arguments: [hash])
            return db.changesCount > 0
        }
    }

    /// Every session that has not expired at `now`, by token name, then
    /// by when it signed in.
    public func sessions(now: Instant) throws -> [WebSession] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(Self.sessionColumns) FROM web_session s WHERE s.expires > ?
                ORDER BY s.token, s.created, s.hash
                """, arguments: [now.seconds]).map { Self.webSession($0, from: 0) }
        }
    }
}
