import GRDB
import TrackeeCore

extension Store {
    /// How far the history of `subject` has been taken (``DeskCursor``);
    /// nil before any change of it.
    public func deskCursor(_ subject: String) throws -> DeskCursor? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT number, at, series FROM desk_cursor WHERE subject = ?", arguments: [subject])
                .map { row in
                    DeskCursor(subject: subject, number: UInt32(truncatingIfNeeded: row[0] as Int64),
                               at: Instant(seconds: row[1]), series: UInt32(truncatingIfNeeded: row[2] as Int64))
                }
        }
    }

    /// Records that `cursor`'s change was taken. The cursor moves only
    /// forward (``DeskCursor/precedes(_:)``: by series, then time, then
    /// number), so a change taken twice or out of order never moves it
    /// back, and a reset cube, whose numbers start again lower in a new
    /// series, still moves it.
    public func takeDeskCursor(_ cursor: DeskCursor) throws {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO desk_cursor (subject, number, at, series) VALUES (?, ?, ?, ?)
                    ON CONFLICT (subject) DO UPDATE
                    SET number = excluded.number, at = excluded.at, series = excluded.series
                    WHERE (excluded.series, excluded.at, excluded.number)
                        > (desk_cursor.series, desk_cursor.at, desk_cursor.number)
                    """,
                arguments: [cursor.subject, Int64(cursor.number), cursor.at.seconds, Int64(cursor.series)])
        }
    }
}
