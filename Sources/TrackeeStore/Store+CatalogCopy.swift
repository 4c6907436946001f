import Glibc
import GRDB
import TrackeeCore

/// A store's clients and projects (with their types, billing and rates),
/// as a throwaway store copies them: `trackee simulate` runs the rules on
/// one, and a rule finds the projects the user made in the real store.
///
/// ```swift
/// let catalog = try Store.catalog(at: realPath)   // read-only; empty when there is no store
/// let scratch = try Store(path: scratchPath)
/// try scratch.seed(catalog)
/// ```
public struct Catalog: Sendable, Equatable {
    var clients: [ClientRecord]
    var projects: [ProjectRecord]

    public static let empty = Catalog(clients: [], projects: [])
}

extension Store {
    /// The catalog of the store at `path`, read in one read-only
    /// transaction: nothing there is created, migrated or written. Empty
    /// when there is no store at `path`.
    ///
    /// The connection itself may write (SQLite's, not trackee's): a
    /// read-only one leaves behind the `-wal` and `-shm` files it opens,
    /// where the last connection to close removes them.
    public static func catalog(at path: String) throws(StoreError) -> Catalog {
        guard access(path, F_OK) == 0 else { return .empty }
        var config = Configuration()
        config.busyMode = Store.busyMode
        config.label = "trackee (catalog)"
        do {
            // One snapshot: the projects' clients are among the clients.
            return try DatabaseQueue(path: path, configuration: config).read { db in
                Catalog(
                    clients: try ClientRecord.fetchAll(db, sql: "SELECT id, name, created FROM client ORDER BY id"),
                    projects: try ProjectRecord.fetchAll(db, sql: """
                        SELECT id, client_id, name, type, billable, rate_cents, created FROM project ORDER BY id
                        """))
            }
        } catch {
            throw translate(error, path: path)
        }
    }

    /// Adds `catalog`'s clients and projects, with their ids, to a store
    /// that holds none (a throwaway one), in one transaction. Not a change
    /// anyone made here: no journal step, so nothing to undo or push.
    public func seed(_ catalog: Catalog) throws {
        try write { db in
            for client in catalog.clients {
                var copy = client
                try copy.insert(db)
            }
            for project in catalog.projects {
                var copy = project
                try copy.insert(db)
            }
        }
    }
}
