import GRDB

extension Schema {
    /// v13: why each rule fired on an event, or did not, the last few per
    /// rule (`trackee rules why`). Literal SQL, as every migration.
    static func ruleTraces(_ db: Database) throws {
        try db.execute(sql: """
            -- One rule's answer to one event; `rule` NULL for an event no
            -- rule waits for. `conditions` and `actions` hold one step a
            -- line, fields split by tabs (tabs, newlines and backslashes
            -- escaped), as Store+Traces.swift writes them. No AUTOINCREMENT:
            -- pruning deletes the oldest rows of a rule, never the newest,
            -- so `id` keeps growing with time all the same. `verdict` has
            -- no CHECK: SQLite builds a temporary index for an IN list at
            -- every insert, which made a feed's traces cost 5 % of it.
            CREATE TABLE rule_trace (
                id INTEGER PRIMARY KEY,
                rule TEXT,
                occurred INTEGER NOT NULL,
                noticed INTEGER NOT NULL,
                trigger TEXT NOT NULL,
                verdict TEXT NOT NULL,
                conditions TEXT NOT NULL DEFAULT '',
                firing_key TEXT,
                actions TEXT NOT NULL DEFAULT '',
                detail TEXT
            );
            CREATE INDEX rule_trace_rule ON rule_trace(rule, id);
            PRAGMA user_version = 13;
            """)
    }
}
