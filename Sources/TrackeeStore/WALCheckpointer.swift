import Glibc
import GRDB

/// Checkpoints the store's write-ahead log from a connection of its own.
///
/// SQLite checkpoints in the commit that makes the log pass 1,000 pages,
/// and a checkpoint syncs the log and the database file: tens of
/// milliseconds on an ordinary disk, which every request queued behind
/// that commit waits for. A long-running writer (the daemon's HTTP
/// server) hands checkpoints to this instead, and runs ``checkpoint()``
/// off its writing thread. Durability is unchanged: commits did not sync
/// before either (`synchronous = NORMAL` in WAL mode), checkpoints still
/// do, and another process's commits still checkpoint as usual.
///
/// ```swift
/// let checkpointer = try store.checkpointingAside()
/// try checkpointer.checkpoint()   // now and then, on another thread
/// try checkpointer.finish()       // the store checkpoints itself again
/// ```
public final class WALCheckpointer: Sendable {
    private let store: Store
    private let connection: DatabaseQueue

    fileprivate init(store: Store) throws {
        self.store = store
        var config = Configuration()
        config.busyMode = Store.busyMode
        config.label = "trackee-checkpoint"
        connection = try DatabaseQueue(path: store.path, configuration: config)
    }

    /// The log's size past which ``checkpoint()`` has it start again
    /// from its beginning, and the size SQLite truncates it to then.
    public static let logLimit = 64 << 20

    /// Copies what the log holds into the database file as far as readers
    /// allow (a passive checkpoint: it never waits for a writer). Under
    /// a steady stream of commits a passive checkpoint never catches the
    /// last frame, and the log would grow without end; once it is past
    /// ``logLimit``, the checkpoint waits for the writer between two
    /// transactions and restarts the log (the writer waits for that one).
    public func checkpoint() throws {
        try connection.writeWithoutTransaction { db in
            try db.checkpoint(.passive)
            if Self.size(store.path + "-wal") > Self.logLimit { try db.checkpoint(.restart) }
        }
    }

    private static func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Checkpoints once more and gives checkpoints back to the store's
    /// own commits.
    public func finish() throws {
        try checkpoint()
        try store.setAutocheckpoint(pages: 1000)
    }
}

extension Store {
    /// From now on this store's commits leave the log to the returned
    /// ``WALCheckpointer``, until its ``WALCheckpointer/finish()``.
    public func checkpointingAside() throws(StoreError) -> WALCheckpointer {
        do {
            let checkpointer = try WALCheckpointer(store: self)
            try setAutocheckpoint(pages: 0)
            return checkpointer
        } catch {
            throw Store.translate(error, path: path)
        }
    }

    /// Lets this store's connection keep up to `mebibytes` of its pages
    /// in memory (nil: SQLite's default, 2,000 KiB). For a long bulk
    /// write, such as a new device's first pull, whose tables and indexes
    /// would otherwise be read back from the file over and over; lowered
    /// again, the cache gives back what it held beyond the new size.
    public func setPageCache(mebibytes: Int?) throws(StoreError) {
        do {
            try queue.writeWithoutTransaction { db in
                // Negative: a size in KiB; SQLite's default is 2,000 KiB.
                try db.execute(sql: "PRAGMA cache_size = -\(mebibytes.map { $0 * 1024 } ?? 2000)")
            }
        } catch {
            throw Store.translate(error, path: path)
        }
    }

    /// Sets how many log pages make a commit checkpoint (0: none), and
    /// has the log truncated to ``WALCheckpointer/logLimit`` when it
    /// starts again.
    fileprivate func setAutocheckpoint(pages: Int) throws {
        try queue.writeWithoutTransaction { db in
            _ = try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint = \(pages)")
            _ = try Int.fetchOne(db, sql: "PRAGMA journal_size_limit = \(WALCheckpointer.logLimit)")
        }
    }
}
