import GRDB

extension Schema {
    /// v21: `trackee import`'s keys. Literal SQL, as every migration.
    static func importKeys(_ db: Database) throws {
        try db.execute(sql: """
            -- An entry `trackee import` added, under the key of its origin
            -- (the format and the row's identity there), so that the same
            -- file, or a later export that overlaps it, adds it once. `step`
            -- is the import's journal step: undoing the import forgets its
            -- keys, and a later import adds the rows again.
            CREATE TABLE import_key (
                key TEXT NOT NULL PRIMARY KEY,
                entry_id INTEGER NOT NULL,
                step INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX import_key_step ON import_key(step);
            PRAGMA user_version = 21;
            """)
    }
}
