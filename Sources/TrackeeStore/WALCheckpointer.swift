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
        config.busyMode = .timeout(Store.busyTimeout)
        config.label = "trackee-checkpoint"
        connection = try DatabaseQueue(path: store.path, configuration: config)
    }

    /// Copies what the log holds into the database file as far as readers
    /// allow (a passive checkpoint: it never waits for a writer).
    public func checkpoint() throws {
        try connection.writeWithoutTransaction { try $0.checkpoint(.passive) }
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

    fileprivate func setAutocheckpoint(pages: Int) throws {
        try queue.writeWithoutTransaction { db in
            _ = try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint = \(pages)")
        }
    }
}
