import GRDB
import TrackeeCore

/// What a delete removed, or what an undo put back.
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
            return try trash(db, clients: [], projects: [], entries: records, now: now)
        }
    }

    /// Deletes a project. One with entries goes only when `confirmed`, and
    /// takes its entries with it.
    public func deleteProject(_ name: String, client: String?, confirmed: Bool, now: Instant) throws -> Removal {
        try write { db in
            let p = try existingProject(db, name: name, client: client)
            let entries = try EntryRecord.filter(EntryRecord.Columns.projectID == p.id).fetchAll(db)
            if !entries.isEmpty && !confirmed {
                throw StoreError.needsConfirmation(kind: "project", name: p.name, entries: entries.count)
            }
            return try trash(db, clients: [], projects: [p], entries: entries, now: now)
        }
    }

    /// Counts the projects and entries deleting a client would remove.
    public func clientImpact(_ name: String) throws -> (projects: Int, entries: Int) {
        try read { db in
            let c = try existingClient(db, name: name)
            let projects = try ProjectRecord.filter(ProjectRecord.Columns.clientID == c.id).fetchCount(db)
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
            let projects = try ProjectRecord.filter(ProjectRecord.Columns.clientID == c.id).fetchAll(db)
            let entries = try EntryRecord.filter(projects.map(\.id).contains(EntryRecord.Columns.projectID)).fetchAll(db)
            if !projects.isEmpty && !confirmed {
                throw StoreError.needsConfirmation(kind: "client", name: c.name, entries: entries.count)
            }
            return try trash(db, clients: [c], projects: projects, entries: entries, now: now)
        }
    }

    /// Restores what the most recent delete removed, with the same ids.
    public func undo() throws -> Removal {
        try write { db in
            guard let batch = try Int64.fetchOne(db, sql: "SELECT max(batch) FROM trash") else {
                throw StoreError.nothingToUndo
            }
            let rows = try TrashRecord.filter(Column("batch") == batch).order(Column("id")).fetchAll(db)
            var restored = Removal(clients: [], projects: [], entries: [])
            // Parents first, so foreign keys hold at every insert.
            for kind in ["client", "project", "entry"] {
                for row in rows where row.kind == kind {
                    do {
                        switch kind {
                        case "client":
                            var c = try decodeJSON(ClientRecord.self, from: row.row)
                            try c.insert(db)
                            restored.clients.append(c.name)
                        case "project":
                            var p = try decodeJSON(ProjectRecord.self, from: row.row)
                            try p.insert(db)
                            restored.projects.append(p.name)
                        default:
                            var e = try decodeJSON(EntryRecord.self, from: row.row)
                            try e.insert(db)
                            restored.entries.append(e.id!)
                        }
                    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                        throw StoreError.undoConflict(undoConflictReason(row))
                    }
                }
            }
            try TrashRecord.filter(Column("batch") == batch).deleteAll(db)
            return restored
        }
    }

    private func undoConflictReason(_ row: TrashRecord) -> String {
        switch row.kind {
        case "client": return "a client with the deleted client's name exists again; rename it first"
        case "project": return "a project with the deleted project's name exists again; rename it first"
        default: return "the deleted entry was the running timer and another timer runs now; stop it first"
        }
    }

    private func trash(
        _ db: Database, clients: [ClientRecord], projects: [ProjectRecord], entries: [EntryRecord], now: Instant
    ) throws -> Removal {
        let batch = (try Int64.fetchOne(db, sql: "SELECT max(batch) FROM trash") ?? 0) + 1
        func keep(_ kind: String, _ json: String) throws {
            var t = TrashRecord(batch: batch, kind: kind, row: json, deleted: now.seconds)
            try t.insert(db)
        }
        for e in entries { try keep("entry", jsonText(e)) }
        for p in projects { try keep("project", jsonText(p)) }
        for c in clients { try keep("client", jsonText(c)) }
        // Children first, so foreign keys hold at every delete.
        for e in entries { try EntryRecord.deleteOne(db, key: e.id) }
        for p in projects { try ProjectRecord.deleteOne(db, key: p.id) }
        for c in clients { try ClientRecord.deleteOne(db, key: c.id) }
        return Removal(clients: clients.map(\.name), projects: projects.map(\.name), entries: entries.compactMap(\.id))
    }
}
