import GRDB

extension Schema {
    /// v22: how far `trackee run` has taken a desk watch's own history (a
    /// TimeFlip2 cube's). Literal SQL, as every migration.
    static func deskCursor(_ db: Database) throws {
        try db.execute(sql: """
            -- The last change of `subject` (a TimeFlip2 cube: `flip:` and its
            -- Bluetooth address) the daemon has handed to the rules: the
            -- number its source gave it, when it happened (seconds since
            -- the epoch), and how many times the source numbered from the
            -- start again (`series`: a cube reset or replaced). A cube's
            -- connection asks for its history after it; a cube that numbers
            -- from 1 again is read from `at` on, in the next series.
            CREATE TABLE desk_cursor (
                subject TEXT NOT NULL PRIMARY KEY,
                number INTEGER NOT NULL,
                at INTEGER NOT NULL,
                series INTEGER NOT NULL DEFAULT 0
            ) WITHOUT ROWID;
            PRAGMA user_version = 22;
            """)
    }
}
