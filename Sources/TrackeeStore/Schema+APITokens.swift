import GRDB

extension Schema {
    /// v14: the HTTP API's per-device tokens (issue 20). Literal SQL, as
    /// every migration.
    static func apiTokens(_ db: Database) throws {
        try db.execute(sql: """
            -- Only the SHA-256 of a token is kept (64 hex digits): the
            -- secret itself is printed once by `trackee tokens add` and
            -- never stored. `scopes` is comma-separated in TokenScope's
            -- order. A revoked token keeps its row, so its name cannot be
            -- reused for a new device by mistake and `tokens list` shows
            -- when it was revoked. Times are UTC seconds.
            CREATE TABLE api_token (
                name TEXT PRIMARY KEY,
                hash TEXT NOT NULL UNIQUE,
                scopes TEXT NOT NULL,
                created INTEGER NOT NULL,
                last_used INTEGER,
                revoked INTEGER
            );
            PRAGMA user_version = 14;
            """)
    }
}
