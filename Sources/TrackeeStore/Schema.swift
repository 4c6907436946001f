import GRDB

/// The store's migrations. Named, appended, never edited once shipped; they
/// use literal table names so later changes to the records cannot alter
/// what an old migration did.
enum Schema {
    /// Written to `PRAGMA user_version` by the last migration, so opening an
    /// up-to-date store costs one header read instead of a migrator check.
    static let version = 23

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-timesheet") { db in
            try db.execute(sql: """
                CREATE TABLE client (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(trim(name)) > 0),
                    created INTEGER NOT NULL
                );
                CREATE TABLE project (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    client_id INTEGER REFERENCES client(id),
                    name TEXT NOT NULL COLLATE NOCASE CHECK (length(trim(name)) > 0),
                    type TEXT,
                    billable INTEGER NOT NULL DEFAULT 0 CHECK (billable IN (0, 1)),
                    rate_cents INTEGER CHECK (rate_cents IS NULL OR rate_cents >= 0),
                    created INTEGER NOT NULL
                );
                -- A name is unique within its client; projects without a
                -- client share the pseudo-client 0.
                CREATE UNIQUE INDEX project_name_in_client ON project(ifnull(client_id, 0), name);
                CREATE TABLE entry (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    project_id INTEGER REFERENCES project(id),
                    description TEXT NOT NULL DEFAULT '',
                    tags TEXT NOT NULL DEFAULT '',
                    start INTEGER NOT NULL,
                    "end" INTEGER CHECK ("end" IS NULL OR "end" >= start),
                    source TEXT NOT NULL,
                    created INTEGER NOT NULL,
                    updated INTEGER NOT NULL
                );
                -- The running timer is the entry with no end: at most one.
                CREATE UNIQUE INDEX entry_one_running ON entry((1)) WHERE "end" IS NULL;
                CREATE INDEX entry_start ON entry(start, id);
                CREATE INDEX entry_end ON entry("end");
                CREATE INDEX entry_project ON entry(project_id);
                CREATE TABLE intent_log (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    applied INTEGER NOT NULL,
                    at INTEGER NOT NULL,
                    source TEXT NOT NULL,
                    action TEXT NOT NULL CHECK (action IN ('start', 'stop', 'cancel')),
                    parameters TEXT NOT NULL,
                    outcome TEXT NOT NULL,
                    entry_id INTEGER,
                    previous_entry_id INTEGER,
                    key TEXT,
                    replay_of INTEGER REFERENCES intent_log(id)
                );
                CREATE TABLE firing (
                    key TEXT NOT NULL PRIMARY KEY,
                    intent_id INTEGER NOT NULL REFERENCES intent_log(id),
                    fired INTEGER NOT NULL
                );
                CREATE TABLE trash (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    batch INTEGER NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('client', 'project', 'entry')),
                    row TEXT NOT NULL,
                    deleted INTEGER NOT NULL
                );
                CREATE INDEX trash_batch ON trash(batch);
                PRAGMA user_version = 1;
                """)
        }
        migrator.registerMigration("v2-automation") { db in
            try db.execute(sql: """
                -- Every focus change, numbered: a change fires each rule once.
                -- A change read from an event line has a key made of its
                -- own time and content, so a replayed line changes nothing.
                CREATE TABLE focus_change (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    mode TEXT,
                    previous TEXT,
                    at INTEGER NOT NULL,
                    source TEXT NOT NULL,
                    key TEXT UNIQUE
                );
                -- One row per rule firing, keyed by rule id and occurrence,
                -- written in the transaction that applies its intents.
                CREATE TABLE rule_firing (
                    key TEXT NOT NULL PRIMARY KEY,
                    rule TEXT NOT NULL,
                    occurred INTEGER NOT NULL,
                    fired INTEGER NOT NULL,
                    description TEXT NOT NULL
                );
                CREATE INDEX rule_firing_rule ON rule_firing(rule, occurred);
                -- How far a schedule evaluator (tick, the daemon) has looked.
                CREATE TABLE watermark (
                    name TEXT NOT NULL PRIMARY KEY,
                    at INTEGER NOT NULL
                );
                PRAGMA user_version = 2;
                """)
        }
        migrator.registerMigration("v3-places") { db in
            try db.execute(sql: """
                -- Each place's state per dwell (`for:`) the rules use: what
                -- the last fixes made it, since when, a new state waiting
                -- for its dwell (with the fix that began it), and the
                -- newest fix taken, so a restart neither fires an arrive
                -- again nor forgets one in progress.
                CREATE TABLE place_tracker (
                    place TEXT NOT NULL,
                    dwell INTEGER NOT NULL CHECK (dwell >= 0),
                    state TEXT NOT NULL CHECK (state IN ('inside', 'outside', 'unknown')),
                    since INTEGER,
                    candidate TEXT CHECK (candidate IN ('inside', 'outside')),
                    candidate_time INTEGER,
                    candidate_latitude REAL,
                    candidate_longitude REAL,
                    candidate_accuracy REAL,
                    last_fix INTEGER,
                    PRIMARY KEY (place, dwell)
                );
                PRAGMA user_version = 3;
                """)
        }
        migrator.registerMigration("v4-place-dwells") { db in
            try db.execute(sql: """
                -- A tracker per pair of dwells, one to become inside and one
                -- to become outside, so that a place's arrive and leave
                -- rules with different `for:` share one view of it. The
                -- trackers kept so far had one dwell both ways.
                CREATE TABLE place_tracker_v4 (
                    place TEXT NOT NULL,
                    arrive_dwell INTEGER NOT NULL CHECK (arrive_dwell >= 0),
                    leave_dwell INTEGER NOT NULL CHECK (leave_dwell >= 0),
                    state TEXT NOT NULL CHECK (state IN ('inside', 'outside', 'unknown')),
                    since INTEGER,
                    candidate TEXT CHECK (candidate IN ('inside', 'outside')),
                    candidate_time INTEGER,
                    candidate_latitude REAL,
                    candidate_longitude REAL,
                    candidate_accuracy REAL,
                    last_fix INTEGER,
                    PRIMARY KEY (place, arrive_dwell, leave_dwell)
                );
                INSERT INTO place_tracker_v4
                    SELECT place, dwell, dwell, state, since, candidate, candidate_time, candidate_latitude,
                           candidate_longitude, candidate_accuracy, last_fix
                    FROM place_tracker;
                DROP TABLE place_tracker;
                ALTER TABLE place_tracker_v4 RENAME TO place_tracker;
                PRAGMA user_version = 4;
                """)
        }
        migrator.registerMigration("v5-sync") { db in
            try db.execute(sql: """
                -- The services entries are pushed to: the settings' sync:
                -- targets. An entry that starts before `since` is never
                -- pushed; `cursor` is the last journal row taken into the
                -- target's queue.
                CREATE TABLE sync_target (
                    name TEXT NOT NULL PRIMARY KEY,
                    service TEXT NOT NULL CHECK (service IN ('clockify', 'toggl')),
                    since INTEGER NOT NULL,
                    cursor INTEGER NOT NULL DEFAULT 0,
                    last_success INTEGER,
                    last_error TEXT,
                    last_error_at INTEGER
                );
                -- Every change to a finished entry, written in the change's
                -- own transaction by triggers on `entry` that exist while a
                -- target does (Store.registerPushTargets): one row, whatever
                -- the targets, so a stop pays for one small insert.
                CREATE TABLE sync_journal (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    entry_id INTEGER NOT NULL,
                    op TEXT NOT NULL CHECK (op IN ('put', 'delete'))
                );
                -- What each target still has to hear: at most one row per
                -- target and entry, so a later change replaces a queued
                -- one (a create and then an edit send one create). `seq`
                -- orders the queue by the last change.
                CREATE TABLE outbox (
                    target TEXT NOT NULL REFERENCES sync_target(name) ON DELETE CASCADE,
                    entry_id INTEGER NOT NULL,
                    op TEXT NOT NULL CHECK (op IN ('put', 'delete')),
                    seq INTEGER NOT NULL,
                    state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'failed', 'conflict')),
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_try INTEGER,
                    message TEXT,
                    PRIMARY KEY (target, entry_id)
                );
                CREATE INDEX outbox_seq ON outbox(target, seq);
                -- Entries a target holds, by their id there. A row with
                -- `create_sent` set and no remote id is a create that may
                -- have reached the service: it is looked for there and
                -- adopted before it is sent again.
                CREATE TABLE remote_entry (
                    target TEXT NOT NULL REFERENCES sync_target(name) ON DELETE CASCADE,
                    entry_id INTEGER NOT NULL,
                    remote_id TEXT,
                    create_sent INTEGER NOT NULL DEFAULT 0,
                    pushed INTEGER,
                    PRIMARY KEY (target, entry_id)
                );
                PRAGMA user_version = 5;
                """)
        }
        migrator.registerMigration("v6-sync-sent") { db in
            try db.execute(sql: """
                -- What was last sent for an entry (its start, end and
                -- description there): a create whose answer was lost is
                -- looked for by these, even once the entry is deleted
                -- here, and an entry changed there since is told apart
                -- from one trackee last wrote.
                ALTER TABLE remote_entry ADD COLUMN sent_start INTEGER;
                ALTER TABLE remote_entry ADD COLUMN sent_end INTEGER;
                ALTER TABLE remote_entry ADD COLUMN sent_description TEXT;
                -- A target the service could not be reached for is tried
                -- again at `retry_at`, after `failures` failures in a row
                -- (exponential backoff for the whole target: an entry
                -- queued while it is offline waits with the others).
                ALTER TABLE sync_target ADD COLUMN retry_at INTEGER;
                ALTER TABLE sync_target ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
                PRAGMA user_version = 6;
                """)
        }
        migrator.registerMigration("v7-add-keys") { db in
            try db.execute(sql: """
                -- `trackee add --key`: the entry each key added, so that a
                -- retried import adds nothing and reports the first entry.
                CREATE TABLE add_key (
                    key TEXT NOT NULL PRIMARY KEY,
                    entry_id INTEGER NOT NULL,
                    added INTEGER NOT NULL
                );
                PRAGMA user_version = 7;
                """)
        }
        migrator.registerMigration("v8-calendar-offset-keys") { db in
            try db.execute(sql: """
                -- Calendar firing keys now end with the trigger's offset
                -- when it is not 0. A calendar firing recorded before had
                -- none, so it stands for every offset of its edge.
                ALTER TABLE rule_firing ADD COLUMN any_offset INTEGER NOT NULL DEFAULT 0;
                UPDATE rule_firing SET any_offset = 1 WHERE key LIKE '%@cal:%';
                PRAGMA user_version = 8;
                """)
        }
        migrator.registerMigration("v9-fix-milliseconds") { db in
            try db.execute(sql: """
                -- Receivers report several fixes a second, so a tracker
                -- keeps its fix times to the millisecond: each whole-second
                -- column gets the milliseconds past it (0 for what was kept
                -- before, which was whole seconds).
                ALTER TABLE place_tracker ADD COLUMN since_ms INTEGER NOT NULL DEFAULT 0 CHECK (since_ms BETWEEN 0 AND 999);
                ALTER TABLE place_tracker ADD COLUMN candidate_ms INTEGER NOT NULL DEFAULT 0 CHECK (candidate_ms BETWEEN 0 AND 999);
                ALTER TABLE place_tracker ADD COLUMN last_fix_ms INTEGER NOT NULL DEFAULT 0 CHECK (last_fix_ms BETWEEN 0 AND 999);
                PRAGMA user_version = 9;
                """)
        }
        migrator.registerMigration("v10-sync-quota") { db in
            try db.execute(sql: """
                -- Requests sent to a target's service, counted per second
                -- and per quota (`workspace`, or Toggl's `user` for /me),
                -- so that each run of trackee-sync keeps to the hourly
                -- quota the runs before it used; rows older than an hour
                -- are dropped when a push ends.
                CREATE TABLE sync_request (
                    target TEXT NOT NULL REFERENCES sync_target(name) ON DELETE CASCADE,
                    scope TEXT NOT NULL CHECK (scope IN ('workspace', 'user')),
                    at INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (target, scope, at)
                );
                -- Why `retry_at` holds the target back: NULL for an
                -- unreachable service (backoff), 'quota' for its hourly
                -- quota (no failure: nothing is counted against it).
                ALTER TABLE sync_target ADD COLUMN waiting_for TEXT CHECK (waiting_for IN ('quota'));
                -- What does not change at the service, looked up once: the
                -- user's and workspace's ids, the projects and clients
                -- (JSON, as trackee-sync writes it), valid while `ids_key`
                -- (service, URL and workspace setting) is the same.
                ALTER TABLE sync_target ADD COLUMN ids_key TEXT;
                ALTER TABLE sync_target ADD COLUMN ids TEXT;
                PRAGMA user_version = 10;
                """)
        }
        migrator.registerMigration("v11-journal") { db in
            try Schema.journal(db)
        }
        migrator.registerMigration("v12-firing-trigger") { db in
            try Schema.firingTrigger(db)
        }
        migrator.registerMigration("v13-rule-traces") { db in
            try Schema.ruleTraces(db)
        }
        migrator.registerMigration("v14-api-tokens") { db in
            try Schema.apiTokens(db)
        }
        migrator.registerMigration("v15-http-answers") { db in
            try Schema.httpAnswers(db)
        }
        migrator.registerMigration("v16-hub") { db in
            try Schema.hub(db)
        }
        migrator.registerMigration("v17-hub-rows") { db in
            try Schema.hubRows(db)
        }
        migrator.registerMigration("v18-hub-intent-log") { db in
            try Schema.hubIntentLog(db)
        }
        migrator.registerMigration("v19-entry-end-covering") { db in
            try Schema.entryEndCovering(db)
        }
        migrator.registerMigration("v20-hub-writes") { db in
            try Schema.hubWrites(db)
        }
        migrator.registerMigration("v21-import-keys") { db in
            try Schema.importKeys(db)
        }
        migrator.registerMigration("v22-desk-cursor") { db in
            try Schema.deskCursor(db)
        }
        migrator.registerMigration("v23-web-sessions") { db in
            try Schema.webSessions(db)
        }
        return migrator
    }
}
