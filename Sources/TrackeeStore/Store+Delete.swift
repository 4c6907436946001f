import GRDB
import TrackeeCore

/// What a delete removed.
public struct Removal: Sendable, Equatable, Codable {
    public var clients: [String]
    public var projects: [String]
    public var entries: [Int64]

    public var isEmpty: Bool { clients.isEmpty && projects.isEmpty && entries.isEmpty }
}

extension Store {
    /// Deletes entries by id, all or none. `trackee undo` restores them.
    public func deleteEntries(_ ids: [Int64], now: Instant) throws -> Removal {
        try write { db in
            var records: [EntryRecord] = []
            for id in ids {
                guard let r = try EntryRecord.fetchOne(db, key: id) else { throw StoreError.unknownEntry(id) }
                if !records.contains(where: { $0.id == r.id }) { records.append(r) }
            }
            let label = "delete " + records.map { "#\($0.id!)" }.joined(separator: " ")
            return try remove(db, JournalStep(label, at: now), clients: [], projects: [], entries: records)
        }
    }

    /// Deletes a project. One with entries goes only when `confirmed`, and
    /// takes its entries with it.
    public func deleteProject(_ name: String, client: String?, confirmed: Bool, now: Instant) throws -> Removal {
        try write { db in
            let p = try existingProject(db, name: name, client: client)
            let entries = try EntryRecord.filter(Column("project_id") == p.id).fetchAll(db)
            if !entries.isEmpty && !confirmed {
                throw StoreError.needsConfirmation(kind: "project", name: p.name, entries: entries.count)
            }
            let label = "delete project \"\(p.name)\" (\(entries.count) \(entries.count == 1 ? "entry" : "entries"))"
            return try remove(db, JournalStep(label, at: now), clients: [], projects: [p], entries: entries)
        }
    }

    /// Counts the projects and entries deleting a client would remove.
    public func clientImpact(_ name: String) throws -> (projects: Int, entries: Int) {
        try read { db in
            let c = try existingClient(db, name: name)
            let projects = try ProjectRecord.filter(Column("client_id") == c.id).fetchCount(db)
            let entries = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM entry e JOIN project p ON p.id = e.project_id WHERE p.client_id = ?
                """, arguments: [c.id]) ?? 0
            return (projects, entries)
        }
    }

    /// Deletes a client. One with projects goes only when `confirmed`, and
    /// takes its projects and their entries with it.
    public func deleteClient(_ name: String, confirmed: Bool, now: Instant) throws -> Removal {
        try write { db in
            let c = try existingClient(db, name: name)
            let projects = try ProjectRecord.filter(Column("client_id") == c.id).fetchAll(db)
            let entries = try EntryRecord.filter(projects.map(\.id).contains(Column("project_id"))).fetchAll(db)
            if !projects.isEmpty && !confirmed {
                throw StoreError.needsConfirmation(kind: "client", name: c.name, entries: entries.count)
            }
            return try remove(
                db, JournalStep("delete client \"\(c.name)\"", at: now), clients: [c], projects: projects, entries: entries)
        }
    }

    /// Deletes the rows as one journaled step, children first so that
    /// foreign keys hold at every delete (and undo, going backwards,
    /// puts parents back first).
    private func remove(
        _ db: Database, _ step: JournalStep, clients: [ClientRecord], projects: [ProjectRecord], entries: [EntryRecord]
    ) throws -> Removal {
        var step = step
        func delete(_ table: JournalTable, _ id: Int64, _ before: String) throws {
            try db.execute(sql: "DELETE FROM \(table.rawValue) WHERE id = ?", arguments: [id])
            try step.record(db, table, id: id, before: before, after: nil)
        }
        for e in entries { try delete(.entry, e.id!, e.image) }
        for p in projects { try delete(.project, p.id!, p.image) }
        for c in clients { try delete(.client, c.id!, c.image) }
        return Removal(clients: clients.map(\.name), projects: projects.map(\.name), entries: entries.compactMap(\.id))
    }
}
