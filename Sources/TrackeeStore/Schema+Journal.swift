import GRDB

extension Schema {
    /// v11: one change journal for undo, the sync outbox and replication,
    /// in place of `sync_journal` (read by the outbox only) and `trash`
    /// (deletions only). Literal SQL and labels, as every migration.
    ///
    /// The trash's deletions become the first steps (`seq` 1…k, below
    /// every sync cursor, so sync never takes them again); the sync
    /// journal's rows follow with their numbers and the cursors moved up
    /// by k, so a store with queued changes pushes exactly what it would
    /// have. Those rows are step 0: they say which entry changed, not how,
    /// and `undo` never reaches them.
    static func journal(_ db: Database) throws {
        try db.execute(sql: """
            -- Every change to a client, project or entry: the row's image
            -- (JSON of its columns) before and after, NULL where there
            -- was no row. Rows of one user-visible change (a command, an
            -- intent, a rule firing's intent) share `step`, the `seq` of
            -- the first of them, and its label; an undo's rows name the
            -- step they revert in `undoes`.
            CREATE TABLE journal (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                step INTEGER NOT NULL,
                at INTEGER NOT NULL,
                label TEXT NOT NULL,
                undoes INTEGER,
                kind TEXT NOT NULL CHECK (kind IN ('client', 'project', 'entry')),
                row_id INTEGER NOT NULL,
                before TEXT,
                after TEXT
            );
            """)
        var seq: Int64 = 0
        let batches = try Int64.fetchAll(db, sql: "SELECT DISTINCT batch FROM trash ORDER BY batch")
        for batch in batches {
            let rows = try Row.fetchAll(db, sql: """
                SELECT kind, row, deleted, json_extract(row, '$.id'), json_extract(row, '$.name') FROM trash
                WHERE batch = ? ORDER BY CASE kind WHEN 'entry' THEN 0 WHEN 'project' THEN 1 ELSE 2 END, id
                """, arguments: [batch])
            let step = seq + 1
            let entries = rows.filter { ($0[0] as String) == "entry" }.map { $0[3] as Int64 }
            let label: String
            if let client = rows.first(where: { ($0[0] as String) == "client" }) {
                label = "delete client \"\(client[4] as String)\""
            } else if let project = rows.first(where: { ($0[0] as String) == "project" }) {
                label = "delete project \"\(project[4] as String)\" (\(entries.count) \(entries.count == 1 ? "entry" : "entries"))"
            } else {
                label = "delete " + entries.map { "#\($0)" }.joined(separator: " ")
            }
            for row in rows {
                seq += 1
                let kind: String = row[0]
                let image: String
                switch kind {
                case "entry":
                    image = """
                        json_object('id', json_extract(?1, '$.id'), 'project_id', json_extract(?1, '$.project_id'),
                            'description', json_extract(?1, '$.description'), 'tags', json_extract(?1, '$.tags'),
                            'start', json_extract(?1, '$.start'), 'end', json_extract(?1, '$.end'),
                            'source', json_extract(?1, '$.source'), 'created', json_extract(?1, '$.created'),
                            'updated', json_extract(?1, '$.updated'))
                        """
                case "project":
                    image = """
                        json_object('id', json_extract(?1, '$.id'), 'client_id', json_extract(?1, '$.client_id'),
                            'name', json_extract(?1, '$.name'), 'type', json_extract(?1, '$.type'),
                            'billable', json_extract(?1, '$.billable'), 'rate_cents', json_extract(?1, '$.rate_cents'),
                            'created', json_extract(?1, '$.created'))
                        """
                default:
                    image = """
                        json_object('id', json_extract(?1, '$.id'), 'name', json_extract(?1, '$.name'),
                            'created', json_extract(?1, '$.created'))
                        """
                }
                try db.execute(sql: """
                    INSERT INTO journal (seq, step, at, label, kind, row_id, before, after)
                    VALUES (?2, ?3, ?4, ?5, ?6, ?7, \(image), NULL)
                    """, arguments: [row[1] as String, seq, step, row[2] as Int64, label, kind, row[3] as Int64])
            }
        }
        let shift = seq
        try db.execute(sql: """
            INSERT INTO journal (seq, step, at, label, kind, row_id, before, after)
            SELECT j.seq + ?1, 0, 0, 'sync change queued before v11', 'entry', j.entry_id, NULL,
                   CASE j.op WHEN 'put' THEN ifnull(
                       (SELECT json_object('id', e.id, 'project_id', e.project_id, 'description', e.description,
                                           'tags', e.tags, 'start', e.start, 'end', e."end", 'source', e.source,
                                           'created', e.created, 'updated', e.updated)
                        FROM entry e WHERE e.id = j.entry_id),
                       json_object('id', j.entry_id)) END
            FROM sync_journal j ORDER BY j.seq
            """, arguments: [shift])
        // New rows are numbered after everything any cursor passed.
        let next = try Int64.fetchOne(db, sql: """
            SELECT max(ifnull((SELECT seq FROM sqlite_sequence WHERE name = 'sync_journal'), 0),
                       ifnull((SELECT max(seq) FROM sync_journal), 0),
                       ifnull((SELECT max(cursor) FROM sync_target), 0))
            """) ?? 0
        try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name = 'journal'")
        try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('journal', ?)", arguments: [shift + next])
        try db.execute(sql: "UPDATE sync_target SET cursor = cursor + ?", arguments: [shift])
        try db.execute(sql: "UPDATE outbox SET seq = seq + ?", arguments: [shift])
        try db.execute(sql: """
            DROP TRIGGER IF EXISTS sync_journal_insert;
            DROP TRIGGER IF EXISTS sync_journal_update;
            DROP TRIGGER IF EXISTS sync_journal_delete;
            DROP TABLE sync_journal;
            DROP TABLE trash;
            PRAGMA user_version = 11;
            """)
    }
}
