import GRDB

extension Schema {
    /// v16: replication through a hub. Literal SQL, as every migration.
    static func hub(_ db: Database) throws {
        try db.execute(sql: """
            -- This store's place on the hub: one row once it has asked to
            -- join. `store` (random) tells this store apart from another
            -- that would claim the same device name. `number` is the
            -- hub's number for the device (1…999), set when it has
            -- joined: every client, project and entry made here from
            -- then on has an id ending in it (id = counter * 1000 +
            -- number), so a row has the same id on every device; the
            -- rows made before are renumbered so, and journaled from
            -- `first_seq` on for the hub. `clock` is the hybrid logical
            -- clock's last stamp; `stamped` and `pushed` are the last
            -- journal rows stamped and pushed (`keys_pushed`: the last
            -- hub_key row pushed); `pulled` is the last hub
            -- change taken in. `syncs` says which entries this device
            -- pushes to Clockify and Toggl: its own, all (it is the
            -- settings' sync_device) or none (another device is).
            CREATE TABLE hub_device (
                name TEXT NOT NULL,
                store TEXT NOT NULL,
                number INTEGER CHECK (number BETWEEN 1 AND 999),
                joined INTEGER,
                first_seq INTEGER,
                clock TEXT,
                stamped INTEGER NOT NULL DEFAULT 0,
                pushed INTEGER NOT NULL DEFAULT 0,
                keys_pushed INTEGER NOT NULL DEFAULT 0,
                pulled INTEGER NOT NULL DEFAULT 0,
                syncs TEXT NOT NULL DEFAULT 'own' CHECK (syncs IN ('own', 'all', 'none')),
                last_sync INTEGER,
                last_error TEXT,
                last_error_at INTEGER
            );
            -- The next counter of each table's ids, once joined.
            CREATE TABLE hub_next_id (
                kind TEXT NOT NULL PRIMARY KEY CHECK (kind IN ('client', 'project', 'entry')),
                next INTEGER NOT NULL
            );
            -- Every replicated row's fields with the stamp and value of
            -- their last write, `_exists` among them (0 for a tombstone):
            -- the row in its table is what these say, so the order in
            -- which changes arrive does not matter.
            CREATE TABLE hub_field (
                kind TEXT NOT NULL,
                row_id INTEGER NOT NULL,
                field TEXT NOT NULL,
                stamp TEXT NOT NULL,
                value ANY,
                PRIMARY KEY (kind, row_id, field)
            ) WITHOUT ROWID;
            -- A project or client made on two devices under one name is
            -- one: the one with the smaller id. The other's id is an
            -- alias of it, and whatever names the alias means it.
            CREATE TABLE hub_alias (
                kind TEXT NOT NULL CHECK (kind IN ('client', 'project')),
                alias INTEGER NOT NULL,
                canonical INTEGER NOT NULL,
                PRIMARY KEY (kind, alias)
            );
            -- Where last-writer-wins discarded someone's work, kept for
            -- `hub conflicts` and `hub resolve`: an entry edited on one
            -- device and deleted on another (`edited-deleted`), a client
            -- or project deleted while rows here used it (`deleted-in-use`).
            -- `device` made the change that won; `resolved` is when it
            -- was resolved, and `resolution` how (`kept`, `dropped`).
            -- `applied-twice`: a key applied here and, earlier, on another
            -- device, whose effects here could not all be taken back.
            CREATE TABLE hub_conflict (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                kind TEXT NOT NULL CHECK (kind IN ('client', 'project', 'entry')),
                row_id INTEGER NOT NULL,
                what TEXT NOT NULL CHECK (what IN ('edited-deleted', 'deleted-in-use', 'applied-twice')),
                device TEXT NOT NULL,
                noticed INTEGER NOT NULL,
                resolved INTEGER,
                resolution TEXT CHECK (resolution IN ('kept', 'dropped'))
            );
            CREATE UNIQUE INDEX hub_conflict_open ON hub_conflict(kind, row_id, what) WHERE resolved IS NULL;
            -- Keys, global across devices: each intent key (`firing`),
            -- rule firing (`rule_firing`) and `add --key` (`add_key`)
            -- applied here once joined, with the journal steps it made
            -- (`steps`, a JSON array), the rows they made (`made`, JSON
            -- [kind, id] pairs) and its ledger row (`body`), pushed
            -- like a change; and those pulled from other devices
            -- (`device`). When one key was applied on two devices, the
            -- application with the earlier stamp stands: the other device
            -- takes its own back and notes `superseded_by`.
            CREATE TABLE hub_key (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                kind TEXT NOT NULL CHECK (kind IN ('intent', 'firing', 'add')),
                key TEXT NOT NULL,
                body TEXT NOT NULL,
                steps TEXT,
                made TEXT NOT NULL DEFAULT '[]',
                stamp TEXT,
                device TEXT,
                superseded_by TEXT
            );
            CREATE UNIQUE INDEX hub_key_once ON hub_key(kind, key, ifnull(device, ''));
            -- Rows an application of a key made that another device's
            -- earlier application of it voids: absent on every device.
            CREATE TABLE hub_void (
                kind TEXT NOT NULL,
                row_id INTEGER NOT NULL,
                PRIMARY KEY (kind, row_id)
            ) WITHOUT ROWID;
                        -- A journal row's stamp once the clock has given it one;
            -- `device` names the device a pulled change came from (NULL:
            -- made here); `automatic` marks what the hub made here (the
            -- joining snapshot, a merge's stop), which undo passes over.
            ALTER TABLE journal ADD COLUMN stamp TEXT;
            ALTER TABLE journal ADD COLUMN device TEXT;
            ALTER TABLE journal ADD COLUMN automatic INTEGER NOT NULL DEFAULT 0;
            PRAGMA user_version = 16;
            """)
    }

    /// v17: an entry a pulled change made whole is one `hub_row` row, not
    /// a `hub_field` row per field. Literal SQL, as every migration.
    static func hubRows(_ db: Database) throws {
        try db.execute(sql: """
            -- The one change that made a row whole (its body as pulled,
            -- {"id": …, "fields": {…}}), every field at its stamp: what a
            -- pull makes of an entry this store had no trace of, by the
            -- thousand on a new device. A field written since is in
            -- hub_field, whose write is newer.
            CREATE TABLE hub_row (
                kind TEXT NOT NULL,
                row_id INTEGER NOT NULL,
                stamp TEXT NOT NULL,
                body TEXT NOT NULL,
                PRIMARY KEY (kind, row_id)
            ) WITHOUT ROWID;
            -- What refers to a project or client, found when it comes
            -- (back): the merge points those rows at it again.
            CREATE INDEX hub_field_reference ON hub_field(kind, field, value);
            CREATE INDEX hub_row_project ON hub_row(kind, json_extract(body, '$.fields.project_id'));
            PRAGMA user_version = 17;
            """)
    }

    /// v18: every intent applied here travels to the other devices, not
    /// only the keyed ones, so `history` shows a person's whole timer
    /// wherever it is read. A pulled intent log row names its device.
    /// Literal SQL, as every migration.
    static func hubIntentLog(_ db: Database) throws {
        try db.execute(sql: """
            -- kind 'log': an intent without a key of its own (a rule's,
            -- or one typed without --key), kept under its intent log id to
            -- be pushed, or pulled from `device`. It claims nothing: two
            -- devices' ids are two intents. SQLite cannot change a CHECK,
            -- so the table is made again.
            CREATE TABLE hub_key_v18 (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                kind TEXT NOT NULL CHECK (kind IN ('intent', 'firing', 'add', 'log')),
                key TEXT NOT NULL,
                body TEXT NOT NULL,
                steps TEXT,
                made TEXT NOT NULL DEFAULT '[]',
                stamp TEXT,
                device TEXT,
                superseded_by TEXT
            );
            INSERT INTO hub_key_v18 (seq, kind, key, body, steps, made, stamp, device, superseded_by)
                SELECT seq, kind, key, body, steps, made, stamp, device, superseded_by FROM hub_key;
            -- The numbering goes on from where it was (what was pushed is
            -- counted by it), not from the largest row copied.
            DELETE FROM sqlite_sequence WHERE name = 'hub_key_v18';
            INSERT INTO sqlite_sequence (name, seq) SELECT 'hub_key_v18', seq FROM sqlite_sequence WHERE name = 'hub_key';
            DROP TABLE hub_key;
            ALTER TABLE hub_key_v18 RENAME TO hub_key;
            CREATE UNIQUE INDEX hub_key_once ON hub_key(kind, key, ifnull(device, ''));
            -- The device an intent pulled from the hub was applied on
            -- (NULL: applied here).
            ALTER TABLE intent_log ADD COLUMN device TEXT;
            PRAGMA user_version = 18;
            """)
    }
}
