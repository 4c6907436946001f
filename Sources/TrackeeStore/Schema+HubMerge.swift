import GRDB

extension Schema {
    /// v20: the merge keeps every write, not only each field's last, so
    /// that an application of a key that lost can be voided write by write
    /// on every device, and a derived end is told apart from a written
    /// one. Literal SQL, as every migration.
    static func hubWrites(_ db: Database) throws {
        try db.execute(sql: """
            -- Every write to a replicated row's field, made here or pulled:
            -- the field is its write with the newest stamp that counts
            -- (see hub_voided). `base` is the stamp of the write it replaced
            -- on the device that made it (NULL where not known): a write
            -- whose base is older than another device's write to the same
            -- field had not seen it. A row made whole by one pulled change
            -- stays one hub_row.
            CREATE TABLE hub_write (
                kind TEXT NOT NULL,
                row_id INTEGER NOT NULL,
                field TEXT NOT NULL,
                stamp TEXT NOT NULL,
                value ANY,
                base TEXT,
                PRIMARY KEY (kind, row_id, field, stamp)
            ) WITHOUT ROWID;
            INSERT INTO hub_write (kind, row_id, field, stamp, value) SELECT kind, row_id, field, stamp, value FROM hub_field;
            DROP TABLE hub_field;
            CREATE INDEX hub_write_reference ON hub_write(kind, field, value);
            -- The stamps of writes made by an application of a key that
            -- another device applied first: they count for nothing.
            CREATE TABLE hub_voided (stamp TEXT NOT NULL PRIMARY KEY) WITHOUT ROWID;
            -- Entries whose end in the table the merge derived: a timer no
            -- device stopped, that a later timer followed.
            CREATE TABLE hub_derived (entry_id INTEGER NOT NULL PRIMARY KEY);
            -- An application's writes ([stamp, kind, id] each), to void
            -- them if another device applied its key first.
            ALTER TABLE hub_key ADD COLUMN writes TEXT NOT NULL DEFAULT '[]';
            -- An intent whose key or firing another device applied first:
            -- that device.
            ALTER TABLE intent_log ADD COLUMN voided TEXT;
            -- `overwritten`: a field two devices wrote, neither having seen
            -- the other's write; `field` and `lost` say which and what lost,
            -- `lost_device` whose it was. SQLite cannot change a CHECK, so
            -- the table is made again.
            CREATE TABLE hub_conflict_v20 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                kind TEXT NOT NULL CHECK (kind IN ('client', 'project', 'entry')),
                row_id INTEGER NOT NULL,
                what TEXT NOT NULL CHECK (what IN ('edited-deleted', 'deleted-in-use', 'applied-twice', 'overwritten')),
                device TEXT NOT NULL,
                noticed INTEGER NOT NULL,
                resolved INTEGER,
                resolution TEXT CHECK (resolution IN ('kept', 'dropped')),
                field TEXT,
                lost ANY,
                lost_device TEXT
            );
            INSERT INTO hub_conflict_v20 (id, kind, row_id, what, device, noticed, resolved, resolution)
                SELECT id, kind, row_id, what, device, noticed, resolved, resolution FROM hub_conflict;
            DELETE FROM sqlite_sequence WHERE name = 'hub_conflict_v20';
            INSERT INTO sqlite_sequence (name, seq) SELECT 'hub_conflict_v20', seq FROM sqlite_sequence WHERE name = 'hub_conflict';
            DROP TABLE hub_conflict;
            ALTER TABLE hub_conflict_v20 RENAME TO hub_conflict;
            CREATE UNIQUE INDEX hub_conflict_open ON hub_conflict(kind, row_id, what, ifnull(field, '')) WHERE resolved IS NULL;
            PRAGMA user_version = 20;
            """)
    }
}
