import GRDB

extension Schema {
    /// v23: the web page's sign-in sessions (issue 38). Literal SQL, as
    /// every migration.
    static func webSessions(_ db: Database) throws {
        try db.execute(sql: """
            -- A browser signed in on the web page with the token `token`.
            -- Only the SHA-256 of the session's secret is kept (64 hex
            -- digits); the secret is in the browser's cookie alone.
            -- `tokens revoke` deletes a token's sessions, and starting a
            -- session deletes the expired ones. Like api_token, the table
            -- is this store's own: the journal does not record it and the
            -- hub does not replicate it. Times are UTC seconds.
            CREATE TABLE web_session (
                hash TEXT PRIMARY KEY,
                token TEXT NOT NULL REFERENCES api_token(name),
                created INTEGER NOT NULL,
                last_used INTEGER NOT NULL,
                expires INTEGER NOT NULL
            ) WITHOUT ROWID;
            -- `tokens list` lists them by token, and `tokens revoke` ends
            -- one token's.
            CREATE INDEX web_session_token ON web_session(token, created);
            PRAGMA user_version = 23;
            """)
    }
}
