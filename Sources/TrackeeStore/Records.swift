import GRDB
import TrackeeCore

/// A row of a table the journal keeps and the hub replicates. Its list of
/// columns (``columns``) is the one place they are written: the record
/// decodes and encodes itself from it, and its journal image
/// (``image``), the hub's layout (``JournalTable/columns``) and its
/// table's INSERT (``JournalTable/insert``) are made from it. Not
/// `Codable`: GRDB would then go through Codable, whose runtime casts cost
/// each one-shot process more than the query itself.
protocol JournalRecord: FetchableRecord, MutablePersistableRecord {
    static var table: JournalTable { get }
    /// Its columns but `id` (always the first), in the journal's order,
    /// with the values the hub lets each hold.
    static var columns: [StoredColumn<Self>] { get }
    var id: Int64? { get set }
    /// A row whose columns are all about to be set.
    init()
}

extension JournalRecord {
    static var databaseTableName: String { table.rawValue }

    init(row: Row) {
        self.init()
        id = row["id"]
        for column in Self.columns { column.decode(&self, row) }
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        for column in Self.columns { container[column.name] = column.read(self).databaseValue }
    }

    mutating func willInsert(_ db: Database) throws {
        if id == nil { id = try HubIDs.next(db, Self.table) }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Its values by column (``JournalTable/columns``), `id` first.
    var values: [HubValue] {
        var values: [HubValue] = []
        values.reserveCapacity(Self.columns.count + 1)
        values.append(id.hubValue)
        for column in Self.columns { values.append(column.read(self)) }
        return values
    }

    /// Inserts the row with `statement`, its table's INSERT
    /// (``JournalTable/insert``) prepared once (GRDB's record insert
    /// builds its SQL each time), sets its id and returns its journal
    /// image (``image``).
    mutating func insert(_ db: Database, prepared statement: Statement) throws -> String {
        var values = self.values
        try statement.execute(arguments: StatementArguments(values: values))
        id = db.lastInsertedRowID
        values[0] = .integer(db.lastInsertedRowID)
        return Self.image(values)
    }
}

/// A row of `client`.
struct ClientRecord: JournalRecord, Equatable {
    static let table = JournalTable.client
    static let columns: [StoredColumn<Self>] = [
        StoredColumn("name", .text, { $0.name }, { $0.name = $1 }),
        StoredColumn("created", .integer, { $0.created }, { $0.created = $1 }),
    ]
    var id: Int64?
    var name = ""
    var created: Int64 = 0

    init() {}

    init(id: Int64? = nil, name: String, created: Int64) {
        self.id = id
        self.name = name
        self.created = created
    }
}

/// A row of `project`. `clientID` is nil for a project without a client.
struct ProjectRecord: JournalRecord, Equatable {
    static let table = JournalTable.project
    static let columns: [StoredColumn<Self>] = [
        StoredColumn("client_id", .optionalInteger, { $0.clientID }, { $0.clientID = $1 }),
        StoredColumn("name", .text, { $0.name }, { $0.name = $1 }),
        StoredColumn("type", .optionalText, { $0.type }, { $0.type = $1 }),
        StoredColumn("billable", .flag, { $0.billable }, { $0.billable = $1 }),
        StoredColumn("rate_cents", .optionalInteger, { $0.rateCents }, { $0.rateCents = $1 }),
        StoredColumn("created", .integer, { $0.created }, { $0.created = $1 }),
    ]
    var id: Int64?
    var clientID: Int64?
    var name = ""
    var type: String?
    var billable = false
    var rateCents: Int64?
    var created: Int64 = 0

    init() {}

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
}

/// A row of `entry`. `end` is nil for the running timer; the schema allows
/// at most one such row.
struct EntryRecord: JournalRecord, Equatable {
    static let table = JournalTable.entry
    static let columns: [StoredColumn<Self>] = [
        StoredColumn("project_id", .optionalInteger, { $0.projectID }, { $0.projectID = $1 }),
        StoredColumn("description", .text, { $0.description }, { $0.description = $1 }),
        StoredColumn("tags", .text, { $0.tags }, { $0.tags = $1 }),
        StoredColumn("start", .integer, { $0.start }, { $0.start = $1 }),
        StoredColumn("end", .optionalInteger, { $0.end }, { $0.end = $1 }),
        StoredColumn("source", .text, { $0.source }, { $0.source = $1 }),
        StoredColumn("created", .integer, { $0.created }, { $0.created = $1 }),
        StoredColumn("updated", .integer, { $0.updated }, { $0.updated = $1 }),
    ]
    var id: Int64?
    var projectID: Int64?
    var description = ""
    var tags = ""
    var start: Int64 = 0
    var end: Int64?
    var source = ""
    var created: Int64 = 0
    var updated: Int64 = 0

    init() {}

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
}
