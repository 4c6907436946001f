import GRDB

extension Schema {
    /// v15: the first HTTP answer under each idempotency key, so a client
    /// that retries gets the same status and body. Written in the
    /// transaction that applies the intent, so an answer exists exactly
    /// when the intent was applied. Literal SQL, as every migration.
    static func httpAnswers(_ db: Database) throws {
        try db.execute(sql: """
            -- `fingerprint` is the request the answer belongs to (method,
            -- path, body); `created` is seconds since the epoch, for the
            -- purge of answers older than 30 days.
            CREATE TABLE http_answer (
                key TEXT PRIMARY KEY,
                fingerprint TEXT NOT NULL,
                status INTEGER,
                body BLOB,
                created INTEGER
            );
            CREATE INDEX http_answer_created ON http_answer(created);
            PRAGMA user_version = 15;
            """)
    }
}
