import GRDB
import TrackeeCore

/// A client as listed by `trackee clients`.
public struct Client: Sendable, Equatable, Codable {
    public var id: Int64
    public var name: String
    public var projects: Int
    public var entries: Int
}

/// A project as listed by `trackee projects`.
public struct Project: Sendable, Equatable, Codable {
    public var id: Int64
    public var name: String
    public var client: String?
    public var type: String?
    public var billable: Bool
    public var rateCents: Int64?
    public var entries: Int
}

/// Changes to a project's billing and kind; nil leaves a field as it is.
public struct ProjectChanges: Sendable, Equatable {
    public var type: String??
    public var billable: Bool?
    public var rateCents: Int64??

    public init(type: String?? = nil, billable: Bool? = nil, rateCents: Int64?? = nil) {
        self.type = type
        self.billable = billable
        self.rateCents = rateCents
    }
}

struct ResolvedProject {
    var projectID: Int64?
    var created: [String] = []
}

extension Store {
    // MARK: Resolution

    /// Finds the project a user named, creating it (and its client) on first
    /// use when `newProjects` allows. Without a client, a name that exists
    /// under several clients is ambiguous rather than guessed.
    /// A project it creates is `billable` at `rateCents` (an import's).
    func resolveProject(
        _ db: Database, name: String?, client: String?, now: Instant, newProjects: NewProjects,
        step: inout JournalStep, billable: Bool = false, rateCents: Int64? = nil
    ) throws -> ResolvedProject {
        let name = try name.map { try validName($0, kind: "project") }
        let client = try client.map { try validName($0, kind: "client") }
        guard let name else {
            if client != nil { throw StoreError.clientNeedsProject }
            return ResolvedProject(projectID: nil)
        }
        var created: [String] = []
        if let clientName = client {
            var clientRecord = try self.client(db, named: clientName)
            if let clientID = clientRecord?.id, let project = try project(db, named: name, clientID: clientID) {
                return ResolvedProject(projectID: project.id)
            }
            if newProjects == .refuse { throw try noSuchProject(db, name: name, client: clientName) }
            if clientRecord == nil {
                var new = ClientRecord(name: clientName, created: now.seconds)
                try new.insert(db)
                try step.record(db, .client, id: new.id!, before: nil, after: new.image)
                created.append("client \"\(clientName)\"")
                clientRecord = new
            }
            let clientID = clientRecord!.id!
            var project = ProjectRecord(
                clientID: clientID, name: name, billable: billable, rateCents: rateCents, created: now.seconds)
            try project.insert(db)
            try step.record(db, .project, id: project.id!, before: nil, after: project.image)
            created.append("project \"\(name)\"")
            return ResolvedProject(projectID: project.id, created: created)
        }
        if let project = try onlyProject(db, named: name) {
            return ResolvedProject(projectID: project.id)
        }
        if newProjects == .refuse { throw try noSuchProject(db, name: name, client: nil) }
        var project = ProjectRecord(clientID: nil, name: name, billable: billable, rateCents: rateCents, created: now.seconds)
        try project.insert(db)
        try step.record(db, .project, id: project.id!, before: nil, after: project.image)
        return ResolvedProject(projectID: project.id, created: ["project \"\(name)\""])
    }

    /// The refusal of a new project, naming the existing one closest to
    /// `name` (any client's: a typo can be in either name).
    private func noSuchProject(_ db: Database, name: String, client: String?) throws -> StoreError {
        let names = try String.fetchAll(db, sql: "SELECT DISTINCT name FROM project ORDER BY name")
        return StoreError.noSuchProject(name: name, client: client, nearest: nearest(to: name, among: names))
    }

    /// The one project with this name under any client; nil when there is
    /// none, and an error naming the clients when there are several.
    private func onlyProject(_ db: Database, named name: String) throws -> ProjectRecord? {
        let matches = try ProjectRecord.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM project WHERE name = ?"), arguments: [name])
        if matches.count <= 1 { return matches.first }
        let clients = try matches.map { p in
            try p.clientID.flatMap { try ClientRecord.fetchOne(db, key: $0)?.name } ?? "(no client)"
        }
        throw StoreError.ambiguousProject(name: name, clients: clients.sorted())
    }

    private func project(_ db: Database, named name: String, clientID: Int64?) throws -> ProjectRecord? {
        try ProjectRecord.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM project WHERE client_id IS ? AND name = ?"), arguments: [clientID, name])
    }

    private func client(_ db: Database, named name: String) throws -> ClientRecord? {
        try ClientRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM client WHERE name = ?"), arguments: [name])
    }

    /// Finds an existing project, never creating one.
    func existingProject(_ db: Database, name: String, client: String?) throws -> ProjectRecord {
        let found = try client.map { try project(db, named: name, clientID: existingClient(db, name: $0).id) }
            ?? onlyProject(db, named: name)
        guard let found else { throw StoreError.unknownProject(name) }
        return found
    }

    func existingClient(_ db: Database, name: String) throws -> ClientRecord {
        guard let c = try client(db, named: name) else {
            throw StoreError.unknownClient(name)
        }
        return c
    }

    // MARK: Clients

    public func clients() throws -> [Client] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT c.id, c.name,
                       (SELECT count(*) FROM project p WHERE p.client_id = c.id) AS projects,
                       (SELECT count(*) FROM entry e JOIN project p ON p.id = e.project_id WHERE p.client_id = c.id) AS entries
                FROM client c ORDER BY c.name COLLATE NOCASE
                """).map { Client(id: $0["id"], name: $0["name"], projects: $0["projects"], entries: $0["entries"]) }
        }
    }

    @discardableResult
    public func addClient(_ name: String, now: Instant) throws -> Client {
        let name = try validName(name, kind: "client")
        return try write { db in
            if try client(db, named: name) != nil {
                throw StoreError.nameTaken(kind: "client", name: name)
            }
            var c = ClientRecord(name: name, created: now.seconds)
            try c.insert(db)
            var step = JournalStep("add client \"\(name)\"", at: now)
            try step.record(db, .client, id: c.id!, before: nil, after: c.image)
            return Client(id: c.id!, name: name, projects: 0, entries: 0)
        }
    }

    public func renameClient(_ old: String, to new: String, now: Instant) throws {
        let new = try validName(new, kind: "client")
        try write { db in
            var c = try existingClient(db, name: old)
            if let other = try client(db, named: new), other.id != c.id {
                throw StoreError.nameTaken(kind: "client", name: new)
            }
            let before = c.image
            var step = JournalStep("rename client \"\(c.name)\" to \"\(new)\"", at: now)
            c.name = new
            try c.update(db)
            try step.record(db, .client, id: c.id!, before: before, after: c.image)
        }
    }

    // MARK: Projects

    public func projects(client: String? = nil) throws -> [Project] {
        try read { db in
            var sql = """
                SELECT p.id, p.name, c.name AS client, p.type, p.billable, p.rate_cents,
                       (SELECT count(*) FROM entry e WHERE e.project_id = p.id) AS entries
                FROM project p LEFT JOIN client c ON c.id = p.client_id
                """
            var args: StatementArguments = []
            if let client {
                let c = try existingClient(db, name: client)
                sql += " WHERE p.client_id = ?"
                args = [c.id]
            }
            sql += " ORDER BY c.name COLLATE NOCASE NULLS FIRST, p.name COLLATE NOCASE"
            return try Row.fetchAll(db, sql: sql, arguments: args).map {
                Project(id: $0["id"], name: $0["name"], client: $0["client"], type: $0["type"],
                        billable: $0["billable"], rateCents: $0["rate_cents"], entries: $0["entries"])
            }
        }
    }

    @discardableResult
    public func addProject(_ name: String, client: String?, changes: ProjectChanges = ProjectChanges(), now: Instant) throws -> Project {
        let name = try validName(name, kind: "project")
        return try write { db in
            var step = JournalStep("add project \"\(name)\"", at: now)
            var clientID: Int64?
            if let client {
                let client = try validName(client, kind: "client")
                if let c = try self.client(db, named: client) {
                    clientID = c.id
                } else {
                    var c = ClientRecord(name: client, created: now.seconds)
                    try c.insert(db)
                    try step.record(db, .client, id: c.id!, before: nil, after: c.image)
                    clientID = c.id
                }
            }
            if try project(db, named: name, clientID: clientID) != nil { throw StoreError.nameTaken(kind: "project", name: name) }
            var p = ProjectRecord(
                clientID: clientID, name: name, type: changes.type ?? nil, billable: changes.billable ?? false,
                rateCents: changes.rateCents ?? nil, created: now.seconds)
            try p.insert(db)
            try step.record(db, .project, id: p.id!, before: nil, after: p.image)
            return try project(db, id: p.id!)
        }
    }

    /// Renames a project and/or changes its billing and kind.
    @discardableResult
    public func editProject(
        _ name: String, client: String?, rename: String?, changes: ProjectChanges, now: Instant
    ) throws -> Project {
        let newName = try rename.map { try validName($0, kind: "project") }
        return try write { db in
            var p = try existingProject(db, name: name, client: client)
            let before = p.image
            var step = JournalStep(
                newName.map { "rename project \"\(p.name)\" to \"\($0)\"" } ?? "edit project \"\(p.name)\"", at: now)
            if let newName {
                if let other = try project(db, named: newName, clientID: p.clientID), other.id != p.id { throw StoreError.nameTaken(kind: "project", name: newName) }
                p.name = newName
            }
            if let type = changes.type { p.type = type }
            if let billable = changes.billable { p.billable = billable }
            if let rate = changes.rateCents { p.rateCents = rate }
            try p.update(db)
            try step.record(db, .project, id: p.id!, before: before, after: p.image)
            return try project(db, id: p.id!)
        }
    }

    func project(_ db: Database, id: Int64) throws -> Project {
        let row = try Row.fetchOne(db, sql: """
            SELECT p.id, p.name, c.name AS client, p.type, p.billable, p.rate_cents,
                   (SELECT count(*) FROM entry e WHERE e.project_id = p.id) AS entries
            FROM project p LEFT JOIN client c ON c.id = p.client_id WHERE p.id = ?
            """, arguments: [id])!
        return Project(id: row["id"], name: row["name"], client: row["client"], type: row["type"],
                       billable: row["billable"], rateCents: row["rate_cents"], entries: row["entries"])
    }

    func validName(_ name: String, kind: String) throws -> String {
        let trimmed = name.trimmingWhitespace()
        if trimmed.isEmpty { throw StoreError.emptyName(kind: kind) }
        return trimmed
    }

    // MARK: Entries as values

    /// The entry a record stands for, with its project and client names.
    func entry(_ db: Database, _ record: EntryRecord) throws -> Entry {
        try entry(db, id: record.id!)
    }

    /// One entry with its project and client names.
    func entry(_ db: Database, id: Int64) throws -> Entry {
        guard let entry = try entryIfPresent(db, id: id) else { throw StoreError.unknownEntry(id) }
        return entry
    }

    func entryIfPresent(_ db: Database, id: Int64) throws -> Entry? {
        try Row.fetchOne(db.cachedStatement(sql: Store.entrySelect + " WHERE e.id = ?"), arguments: [id])
            .map(Store.entry(from:))
    }
}
