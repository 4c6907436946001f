import GRDB
import TrackeeCore
import TrackeeHub

/// The pull's fast path: a run of changes that each make an entry this
/// store has no trace of (no field, no tombstone, not void), once in the
/// batch, and not a running timer, is what a new device pulls by the
/// thousand. Such a run goes into the tables in a few set-wise statements,
/// with the same result ``HubMerge/apply(_:)`` gives one by one, and each
/// entry's fields are one `hub_row`. Clients and projects go one by one:
/// they are few, and one may be what entries already here refer to.
extension HubMerge {
    mutating func applyAll(_ changes: [HubIncomingChange]) throws {
        try db.execute(sql: """
            CREATE TEMP TABLE IF NOT EXISTS hub_incoming (
                pos INTEGER PRIMARY KEY, kind TEXT NOT NULL, clock TEXT NOT NULL, device TEXT NOT NULL,
                body TEXT NOT NULL, row_id INTEGER);
            DELETE FROM hub_incoming;
            """)
        let insert = try db.cachedStatement(sql: """
            INSERT INTO hub_incoming (pos, kind, clock, device, body, row_id)
            VALUES (?1, ?2, ?3, ?4, ?5, CASE WHEN json_valid(?5) THEN json_extract(?5, '$.id') END)
            """)
        for (pos, change) in changes.enumerated() where HybridStamp(change.clock) != nil {
            try insert.execute(arguments: [pos, change.kind, change.clock, change.device, change.body])
        }
        let simple = Set(try Int.fetchAll(db, sql: """
            SELECT pos FROM (SELECT *, count(*) OVER (PARTITION BY kind, row_id) AS times FROM hub_incoming) i
            WHERE times = 1 AND kind = 'entry' AND typeof(row_id) = 'integer'
              AND json_extract(body, '$.fields._exists') = 1 AND json_extract(body, '$.fields.end') IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM hub_field f WHERE f.kind = 'entry' AND f.row_id = i.row_id)
              AND NOT EXISTS (SELECT 1 FROM hub_row r WHERE r.kind = 'entry' AND r.row_id = i.row_id)
              AND NOT EXISTS (SELECT 1 FROM hub_void v WHERE v.kind = 'entry' AND v.row_id = i.row_id)
            """))
        var pos = 0
        while pos < changes.count {
            guard simple.contains(pos) else {
                try apply(changes[pos])
                pos += 1
                continue
            }
            var end = pos
            while end + 1 < changes.count && simple.contains(end + 1) { end += 1 }
            for change in changes[pos...end] {
                if let stamp = HybridStamp(change.clock) { receive(stamp) }
            }
            do {
                try db.inSavepoint {
                    try insertRun(from: pos, to: end)
                    return .commit
                }
                report.applied += end - pos + 1
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                for change in changes[pos...end] { try apply(change) }
            }
            pos = end + 1
        }
    }

    /// The rows of the simple changes at positions `low...high`, their
    /// fields (a `hub_row` each), and a journal step for each.
    private func insertRun(from low: Int, to high: Int) throws {
        let run: StatementArguments = [low, high]
        try db.execute(sql: """
            INSERT INTO hub_row (kind, row_id, stamp, body)
            SELECT kind, row_id, clock, body FROM hub_incoming
            WHERE pos BETWEEN ?1 AND ?2
            """, arguments: run)
        try db.execute(sql: """
            INSERT INTO entry (id, project_id, description, tags, start, "end", source, created, updated)
            SELECT row_id, \(Self.reference("project", "json_extract(body, '$.fields.project_id')")),
                   json_extract(body, '$.fields.description'), json_extract(body, '$.fields.tags'),
                   json_extract(body, '$.fields.start'), json_extract(body, '$.fields.end'),
                   json_extract(body, '$.fields.source'), json_extract(body, '$.fields.created'),
                   json_extract(body, '$.fields.updated')
            FROM hub_incoming WHERE pos BETWEEN ?1 AND ?2 ORDER BY pos
            """, arguments: run)
        // Each change its own step, numbered on from the journal's last.
        let base = try Int64.fetchOne(db, sql: """
            SELECT max(ifnull((SELECT seq FROM sqlite_sequence WHERE name = 'journal'), 0),
                       ifnull((SELECT max(seq) FROM journal), 0))
            """) ?? 0
        try db.execute(sql: """
            INSERT INTO journal (seq, step, at, label, kind, row_id, before, after, stamp, device, automatic)
            SELECT ?3 + row_number() OVER (ORDER BY i.pos), ?3 + row_number() OVER (ORDER BY i.pos), ?4,
                   'from ' || i.device, i.kind, i.row_id, NULL,
                   (SELECT json_object('id', e.id, 'project_id', e.project_id, 'description', e.description,
                                       'tags', e.tags, 'start', e.start, 'end', e."end", 'source', e.source,
                                       'created', e.created, 'updated', e.updated)
                    FROM entry e WHERE e.id = i.row_id),
                   i.clock, i.device, 0
            FROM hub_incoming i WHERE i.pos BETWEEN ?1 AND ?2 ORDER BY i.pos
            """, arguments: [low, high, base, now.seconds])
    }

    /// A reference read through the maps, in SQL: its canonical row, or
    /// NULL when that row is not here.
    private static func reference(_ table: String, _ value: String) -> String {
        """
        (SELECT t.id FROM \(table) t
         WHERE t.id = coalesce((SELECT a.canonical FROM hub_alias a WHERE a.kind = '\(table)' AND a.alias = \(value)), \(value)))
        """
    }
}
