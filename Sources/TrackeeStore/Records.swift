import GRDB
import TrackeeCore

// Every record decodes and encodes its columns by hand. GRDB would
// otherwise go through Codable, whose runtime casts cost each one-shot
// process more than the query itself.

/// A row of `client`.
struct ClientRecord: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
    static let databaseTableName = "client"
    var id: Int64?
    var name: String
    var created: Int64

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
    }

    init(id: Int64? = nil, name: String, created: Int64) {
        self.id = id
        self.name = name
        self.created = created
    }

    init(row: Row) {
        id = row["id"]
        name = row["name"]
        created = row["created"]
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["name"] = name
        container["created"] = created
    }

    mutating func willInsert(_ db: Database) throws {
        if id == nil { id = try HubIDs.next(db, .client) }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A row of `project`. `clientID` is nil for a project without a client.
struct ProjectRecord: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
    static let databaseTableName = "project"
    var id: Int64?
    var clientID: Int64?
    var name: String
    var type: String?
    var billable: Bool
    var rateCents: Int64?
    var created: Int64

    enum CodingKeys: String, CodingKey {
        case id, clientID = "client_id", name, type, billable, rateCents = "rate_cents", created
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let clientID = Column(CodingKeys.clientID)
        static let name = Column(CodingKeys.name)
    }

    init(id: Int64? = nil, clientID: Int64?, name: String, type: String? = nil, billable: Bool,
         rateCents: Int64? = nil, created: Int64) {
        self.id = id
        self.clientID = clientID
        self.name = name
        self.type = type
        self.billable = billable
        self.rateCents = rateCents
        self.created = created
    }

    init(row: Row) {
        id = row["id"]
        clientID = row["client_id"]
        name = row["name"]
        type = row["type"]
        billable = row["billable"]
        rateCents = row["rate_cents"]
        created = row["created"]
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["client_id"] = clientID
        container["name"] = name
        container["type"] = type
        container["billable"] = billable
        container["rate_cents"] = rateCents
        container["created"] = created
    }

    mutating func willInsert(_ db: Database) throws {
        if id == nil { id = try HubIDs.next(db, .project) }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A row of `entry`. `end` is nil for the running timer; the schema allows
/// at most one such row.
struct EntryRecord: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
    static let databaseTableName = "entry"
    var id: Int64?
    var projectID: Int64?
    var description: String
    var tags: String
    var start: Int64
    var end: Int64?
    var source: String
    var created: Int64
    var updated: Int64

    enum CodingKeys: String, CodingKey {
        case id, projectID = "project_id", description, tags, start, end, source, created, updated
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let projectID = Column(CodingKeys.projectID)
        static let start = Column(CodingKeys.start)
        static let end = Column(CodingKeys.end)
    }

    init(id: Int64? = nil, projectID: Int64?, description: String, tags: String, start: Int64, end: Int64?,
         source: String, created: Int64, updated: Int64) {
        self.id = id
        self.projectID = projectID
        self.description = description
        self.tags = tags
        self.start = start
        self.end = end
        self.source = source
        self.created = created
        self.updated = updated
    }

    init(row: Row) {
        id = row["id"]
        projectID = row["project_id"]
        description = row["description"]
        tags = row["tags"]
        start = row["start"]
        end = row["end"]
        source = row["source"]
        created = row["created"]
        updated = row["updated"]
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["project_id"] = projectID
        container["description"] = description
        container["tags"] = tags
        container["start"] = start
        container["end"] = end
        container["source"] = source
        container["created"] = created
        container["updated"] = updated
    }

    mutating func willInsert(_ db: Database) throws {
        if id == nil { id = try HubIDs.next(db, .entry) }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
