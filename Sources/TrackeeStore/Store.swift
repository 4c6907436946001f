import Glibc
import GRDB
import TrackeeCore

/// The local SQLite store of clients, projects, entries, the running timer,
/// the intent log and the firing ledger.
///
/// `Store` owns the only database writer. Each public write method is one
/// `BEGIN IMMEDIATE` transaction that keeps every invariant, so concurrent
/// processes on one file serialise instead of interleaving.
///
/// ```swift
/// let store = try Store(location: .init(path: "/tmp/t.sqlite3", isDefault: false))
/// let result = try store.apply(Intent(.start(TimerParameters(project: "Docs")), at: now), now: now)
/// print(result.outcome) // started
/// ```
public final class Store: Sendable {
    public let path: String
    let queue: DatabaseQueue

    /// How long a write waits for another process's transaction.
    static let busyTimeout: Double = 30

    /// Waits for a lock another connection holds: a millisecond at a time,
    /// up to ``busyTimeout``. SQLite's own timeout sleeps ever longer, up
    /// to 100 ms a try, so a writer could sleep long after a checkpoint
    /// or another process's commit had let go.
    static let busyMode = Database.BusyMode.callback { tries in
        usleep(1_000)
        return Double(tries) < busyTimeout * 1_000
    }

    public convenience init(path: String) throws(StoreError) {
        try self.init(location: StoreLocation(path: path, isDefault: false))
    }

    public init(location: StoreLocation) throws(StoreError) {
        path = location.path
        try location.prepare()
        var config = Configuration()
        config.busyMode = Store.busyMode
        config.foreignKeysEnabled = true
        config.label = "trackee"
        config.prepareDatabase { db in
            // Commits in WAL mode need no fsync at NORMAL; SQLite still keeps
            // the file consistent across crashes, which is what we promise.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            queue = try DatabaseQueue(path: location.path, configuration: config)
        } catch {
            throw Store.translate(error, path: location.path)
        }
        do {
            if try !isCurrent {
                try enableWAL()
                try migrate()
            }
        } catch {
            throw Store.translate(error, path: location.path)
        }
    }

    /// WAL is a property of the file, so it is set once, when the file is
    /// new, and only after GRDB has checked the file really is SQLite.
    ///
    /// Processes that open a new file at once each try to make it WAL,
    /// and each holds a read lock that the other's change must wait for.
    /// SQLite answers one of them busy at once rather than let both wait
    /// (the busy handler is not asked), so that one looks again after a
    /// pause, by when the other has made the file WAL; up to
    /// ``busyTimeout`` in all.
    private func enableWAL() throws {
        var pauses = 0
        while true {
            do {
                try queue.writeWithoutTransaction { db in
                    let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode")
                    if mode?.lowercased() != "wal" {
                        _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                    }
                }
                return
            } catch let error as DatabaseError
                where error.resultCode == .SQLITE_BUSY && Double(pauses) < Store.busyTimeout * 100 {
                pauses += 1
                usleep(10_000)
            }
        }
    }

    private var isCurrent: Bool {
        get throws {
            try queue.writeWithoutTransaction { db in
                try Int.fetchOne(db, sql: "PRAGMA user_version") == Schema.version
            }
        }
    }

    /// Applies pending migrations. Two processes opening a new store at once
    /// can both see a migration as pending; the loser's transaction fails
    /// on the winner's tables, and looking again finds nothing to do.
    private func migrate() throws {
        let migrator = Schema.migrator
        var attempt = 0
        while true {
            do {
                let state = try queue.read { db in
                    (done: try migrator.hasCompletedMigrations(db), newer: try migrator.hasBeenSuperseded(db),
                     last: try migrator.appliedMigrations(db).last)
                }
                if state.done { return }
                if state.newer { throw StoreError.tooNew(path: path, migration: state.last ?? "?") }
                try migrator.migrate(queue)
                return
            } catch let error as DatabaseError where attempt < 5 && (error.resultCode == .SQLITE_ERROR || error.resultCode == .SQLITE_CONSTRAINT) {
                attempt += 1
            }
        }
    }

    /// Copies the whole store, as one consistent snapshot, to a new file at
    /// `path` (SQLite's online backup): a throwaway store that starts where
    /// this one is, for dry runs.
    public func copy(to path: String) throws(StoreError) {
        do {
            let target = try DatabaseQueue(path: path)
            try queue.backup(to: target)
        } catch {
            throw Store.translate(error, path: path)
        }
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try transaction(.immediate, body)
    }

    /// Runs `body` in one deferred transaction, a consistent snapshot.
    ///
    /// Not GRDB's `read`: its read-only guard sets `PRAGMA query_only`
    /// on and off around every read, and setting that pragma expires every
    /// prepared statement of the connection, so a daemon that reads
    /// between its writes (a token per request) would compile its cached
    /// statements again at every write.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try transaction(.deferred, body)
    }

    private func transaction<T>(_ kind: Database.TransactionKind, _ body: (Database) throws -> T) throws -> T {
        try translatingErrors {
            try queue.inDatabase { db in
                var result: T?
                try db.inTransaction(kind) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        }
    }

    /// One statement's read in SQLite's autocommit mode, without the
    /// transaction `read` sets up around it: for the check every command
    /// makes when sync targets are set, and a token per HTTP request.
    func peek<T>(_ body: (Database) throws -> T) throws -> T {
        try translatingErrors { try queue.inDatabase(body) }
    }

    private func translatingErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw Store.translate(error, path: path)
        }
    }

    static func translate(_ error: any Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let db = error as? DatabaseError else {
            return .database(path: path, message: "\(error)")
        }
        switch db.resultCode {
        case .SQLITE_NOTADB: return .notADatabase(path: path)
        case .SQLITE_CORRUPT: return .corrupt(path: path, detail: db.message ?? "database disk image is malformed")
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM:
            return .notWritable(path: path, reason: db.message ?? "permission denied")
        case .SQLITE_FULL: return .notWritable(path: path, reason: "the disk is full")
        case .SQLITE_BUSY: return .database(path: path, message: "another process held the store locked for \(Int(busyTimeout)) s; try again")
        default: return .database(path: path, message: db.message ?? "\(db)")
        }
    }
}
