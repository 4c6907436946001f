import TrackeeCore

/// A table whose rows the change journal keeps and the hub replicates.
public enum JournalTable: String, Sendable, CaseIterable, Comparable {
    case client, project, entry

    /// Its columns, `id` first: the order of journal images. Made from
    /// its record's list (``JournalRecord/columns``), the one place they
    /// are written; the journal, the hub and the merge read them here.
    public var columns: [String] { layout.columns }

    /// What a change to one of its rows sets: `_exists` (1 made, 0
    /// deleted), then every column but `id`, in ``columns``' order. A
    /// field's number here is its column's number in ``columns``.
    public var fields: [String] { layout.fields }

    /// The values each field may hold; a change that gives another is
    /// not read.
    public var fieldKinds: [HubValue.Kind] { layout.kinds }

    /// The number of `name` among ``fields``.
    public func field(_ name: String) -> Int? { Self.numbers[index][name] }

    /// `INSERT INTO table ("id", …)`, every column named.
    var insertHead: String { layout.insertHead }

    /// `INSERT INTO table ("id", …) VALUES (?, …)`: a whole row, its
    /// values in ``columns``' order.
    var insert: String { layout.insert }

    /// What a field holds before any change has set it.
    public func defaultValue(_ field: Int) -> HubValue {
        switch fieldKinds[field] {
        case .flag, .integer: return .integer(0)
        case .text: return .text("")
        case .optionalInteger, .optionalText: return .null
        }
    }

    private var index: Int {
        switch self {
        case .client: return 0
        case .project: return 1
        case .entry: return 2
        }
    }

    /// Made once, each table's when it is first read (a one-shot `start`
    /// reads only the entry's): a pull reads them for every field of every
    /// change.
    private final class Layout: Sendable {
        let columns: [String]
        let fields: [String]
        let kinds: [HubValue.Kind]
        let insertHead: String
        let insert: String

        init<Record: JournalRecord>(_ record: Record.Type) {
            let names = Record.columns.map(\.name)
            columns = ["id"] + names
            fields = ["_exists"] + names
            kinds = [.flag] + Record.columns.map(\.kind)
            insertHead = "INSERT INTO \(Record.table.rawValue) (\(columns.map { "\"\($0)\"" }.joined(separator: ", ")))"
            insert = insertHead + " VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
        }
    }

    private var layout: Layout {
        switch self {
        case .client: return Self.clientLayout
        case .project: return Self.projectLayout
        case .entry: return Self.entryLayout
        }
    }

    private static let clientLayout = Layout(ClientRecord.self)
    private static let projectLayout = Layout(ProjectRecord.self)
    private static let entryLayout = Layout(EntryRecord.self)

    /// Only a pull looks fields up by name.
    private static let numbers = allCases.map {
        Dictionary(uniqueKeysWithValues: $0.fields.enumerated().map { ($1, $0) })
    }

    public static func < (a: JournalTable, b: JournalTable) -> Bool { a.index < b.index }
}

/// The numbers of the fields (and columns) the merge reads by name, in
/// ``JournalTable/fields``' order (JournalTableTests checks each names its
/// column).
extension JournalTable {
    public static let existsField = 0
    public static let entryProject = 1, entryStart = 4, entryEnd = 5
    public static let projectClient = 1, projectName = 2
    public static let clientName = 1
}

/// A value a replicated field holds: what SQLite keeps in these tables.
public enum HubValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)

    /// What a field may hold.
    public enum Kind: Sendable {
        /// 0 or 1.
        case flag
        case integer, optionalInteger, text, optionalText
    }

    /// Whether the value is one `kind` allows.
    public func fits(_ kind: Kind) -> Bool {
        switch (self, kind) {
        case (.integer(let n), .flag): return n == 0 || n == 1
        case (.integer, .integer), (.integer, .optionalInteger), (.null, .optionalInteger): return true
        case (.text, .text), (.text, .optionalText), (.null, .optionalText): return true
        default: return false
        }
    }

    public var integer: Int64? {
        if case .integer(let n) = self { return n }
        return nil
    }

    public var text: String? {
        if case .text(let t) = self { return t }
        return nil
    }
}

/// A replicated row: its table and id.
public struct HubRowKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var table: JournalTable
    public var id: Int64

    public init(_ table: JournalTable, _ id: Int64) {
        self.table = table
        self.id = id
    }

    public static func < (a: HubRowKey, b: HubRowKey) -> Bool { (a.table, a.id) < (b.table, b.id) }

    public var description: String { "\(table.rawValue) #\(id)" }
}

/// One write to one field of a row: made here, or pulled.
public struct HubWrite: Sendable, Equatable {
    public var stamp: HybridStamp
    public var value: HubValue
    /// The stamp of the write this one replaced on the device that made
    /// it: what that device had seen. nil where it is not known (the
    /// change that made the row, a change from a release before bases).
    public var base: HybridStamp?
    /// Made by an application of a key that another device applied
    /// first: it counts for nothing.
    public var voided: Bool

    public init(stamp: HybridStamp, value: HubValue, base: HybridStamp? = nil, voided: Bool = false) {
        self.stamp = stamp
        self.value = value
        self.base = base
        self.voided = voided
    }
}

/// What the store holds of one replicated row, for the merge.
public struct HubRowState: Sendable {
    public let key: HubRowKey
    /// The row in its table, by column (``JournalTable/columns``); nil
    /// when it is not there.
    public var current: [HubValue]?
    /// Every write to each field (by ``JournalTable/fields``' number), in
    /// no order.
    public var writes: [[HubWrite]]
    /// Made by an application of a key that another device applied first
    /// (the form of a release before voided writes).
    public var void: Bool
    /// Its `end` in the table is the merge's, not a device's.
    public var derived: Bool

    public init(key: HubRowKey, current: [HubValue]? = nil, writes: [[HubWrite]]? = nil, void: Bool = false,
                derived: Bool = false) {
        self.key = key
        self.current = current
        self.writes = writes ?? Array(repeating: [], count: key.table.fields.count)
        self.void = void
        self.derived = derived
    }

    /// The field's newest write that counts: its value.
    public func live(_ field: Int) -> HubWrite? {
        var best: HubWrite?
        for write in writes[field] where !write.voided {
            if best == nil || write.stamp > best!.stamp { best = write }
        }
        return best
    }

    /// No write, no row, nothing voided: a row this store has never heard
    /// of.
    public var isUnknown: Bool { current == nil && !void && writes.allSatisfy(\.isEmpty) }
}

/// An intent applied on a device, as its intent log row travels.
public struct HubLoggedIntent: Sendable, Equatable {
    public var applied: Int64 = 0
    public var at: Int64 = 0
    public var source = ""
    public var action = ""
    public var parameters = ""
    public var outcome = ""
    public var entryID: Int64?
    public var previousEntryID: Int64?
    public var key: String?
    /// The rule firing it belongs to.
    public var firing: String?

    public init(applied: Int64, at: Int64, source: String, action: String, parameters: String, outcome: String,
                entryID: Int64?, previousEntryID: Int64?, key: String?, firing: String?) {
        self.applied = applied
        self.at = at
        self.source = source
        self.action = action
        self.parameters = parameters
        self.outcome = outcome
        self.entryID = entryID
        self.previousEntryID = previousEntryID
        self.key = key
        self.firing = firing
    }

    /// What a keyed intent's ledger row (`hub_key` kind `intent`) carries
    /// of its log row, in order: its key is the hub key's, and it has no
    /// firing.
    static let ledgerColumns: [StoredColumn<Self>] = [
        StoredColumn("applied", .integer, { $0.applied }, { $0.applied = $1 }),
        StoredColumn("at", .integer, { $0.at }, { $0.at = $1 }),
        StoredColumn("source", .text, { $0.source }, { $0.source = $1 }),
        StoredColumn("action", .text, { $0.action }, { $0.action = $1 }),
        StoredColumn("parameters", .text, { $0.parameters }, { $0.parameters = $1 }),
        StoredColumn("outcome", .text, { $0.outcome }, { $0.outcome = $1 }),
        StoredColumn("entry_id", .optionalInteger, { $0.entryID }, { $0.entryID = $1 }),
        StoredColumn("previous_entry_id", .optionalInteger, { $0.previousEntryID }, { $0.previousEntryID = $1 }),
    ]

    /// Its columns in `intent_log`, in the order its JSON has them: the
    /// one place they are written. The log row's JSON
    /// (``HubKeys/logRow(_:)``), the ledger row's `json_object`
    /// (``HubKeys/intentLedger``), the reading of a pulled one
    /// (``init(reading:)``) and the INSERTs of one applied here and one
    /// pulled (``insert(adding:)``) are made from it.
    public static let columns = ledgerColumns + [
        StoredColumn("key", .optionalText, { $0.key }, { $0.key = $1 }),
        StoredColumn("firing", .optionalText, { $0.firing }, { $0.firing = $1 }),
    ]

    /// The intent a log row's members make, nil where one is missing or
    /// holds what its column does not. `member` gives a column's value:
    /// null where the row has none, nil where it is not an integer, a text
    /// or null.
    public init?(reading member: (String) -> HubValue?) {
        self.init()
        for column in Self.columns {
            guard let value = member(column.name), value.fits(column.kind), column.write(&self, value) else {
                return nil
            }
        }
    }

    private init() {}

    /// Its values by column (``columns``).
    var values: [HubValue] { Self.columns.map { $0.read(self) } }

    /// `INSERT INTO intent_log (applied, …, firing, extra…) VALUES (?, …)`:
    /// ``values``, then one value for each of `extra`.
    static func insert(adding extra: String...) -> String {
        let names = columns.map(\.name) + extra
        return "INSERT INTO intent_log (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
    }
}

/// A rule firing as its ledger row travels.
public struct HubLoggedFiring: Sendable, Equatable {
    public var rule: String
    public var occurred: Int64
    public var fired: Int64
    public var description: String
    public var trigger: String
    public var anyOffset: Int64?

    public init(rule: String, occurred: Int64, fired: Int64, description: String, trigger: String, anyOffset: Int64?) {
        self.rule = rule
        self.occurred = occurred
        self.fired = fired
        self.description = description
        self.trigger = trigger
        self.anyOffset = anyOffset
    }
}

/// What a key's application is: an intent's key, a rule firing, or
/// `add --key`.
public enum HubClaimKind: String, Sendable, Hashable {
    /// An intent's `--key` or Idempotency-Key: the `firing` ledger.
    case intent
    /// A rule firing: `rule_firing`.
    case firing
    /// `add --key`: `add_key`.
    case add
}

/// One key of one kind: what one application claims.
public struct HubClaimKey: Sendable, Hashable {
    public var kind: HubClaimKind
    public var key: String

    public init(_ kind: HubClaimKind, _ key: String) {
        self.kind = kind
        self.key = key
    }
}

/// A write one application made: its stamp and row.
public struct HubClaimWrite: Sendable, Hashable {
    public var stamp: HybridStamp
    public var row: HubRowKey

    public init(stamp: HybridStamp, row: HubRowKey) {
        self.stamp = stamp
        self.row = row
    }
}

/// One device's application of a key: what it did, to be voided if
/// another device applied the key first.
public struct HubClaim: Sendable {
    public var key: HubClaimKey
    /// The ledger row, as its device kept it.
    public var ledger: Ledger
    /// The ledger row's JSON text, kept as it came.
    public var ledgerText: String
    /// The rows it made.
    public var made: [HubRowKey]
    /// Every write it made; nil from a release that did not send them
    /// (then only ``made`` is voided).
    public var writes: [HubClaimWrite]?

    public enum Ledger: Sendable, Equatable {
        case intent(HubLoggedIntent, fired: Int64)
        case firing(HubLoggedFiring)
        case add(entryID: Int64, added: Int64)
    }

    public init(key: HubClaimKey, ledger: Ledger, ledgerText: String, made: [HubRowKey], writes: [HubClaimWrite]?) {
        self.key = key
        self.ledger = ledger
        self.ledgerText = ledgerText
        self.made = made
        self.writes = writes
    }
}

/// A change to one row, as a pull brings it: the fields it sets.
public struct HubRowChange: Sendable {
    public var row: HubRowKey
    /// By field number (``JournalTable/fields``); nil where the change
    /// leaves the field alone.
    public var values: [HubValue?]
    /// By field number: the stamp of the write each value replaced on its
    /// device; nil where not known.
    public var bases: [HybridStamp?]
    /// The change's JSON text as it came: a row made whole by one change
    /// is kept as it (`hub_row`).
    public var text: String

    public init(row: HubRowKey, values: [HubValue?], bases: [HybridStamp?], text: String) {
        self.row = row
        self.values = values
        self.bases = bases
        self.text = text
    }

    /// Sets every field, `_exists` to 1: the change that made the row.
    public var makesWholeRow: Bool {
        values[JournalTable.existsField] == .integer(1) && !values.contains(where: { $0 == nil })
    }
}

/// A change another device made, decoded once where it leaves the hub.
public struct HubChange: Sendable {
    /// Its number in the hub: the pull cursor.
    public var id: Int64
    public var device: String
    public var stamp: HybridStamp
    public var body: Body

    public enum Body: Sendable {
        /// Fields of a client, project or entry.
        case row(HubRowChange)
        /// An application of a key.
        case claim(HubClaim)
        /// An intent applied without a key of its own: its intent log row,
        /// under its id on that device. It claims nothing.
        case log(id: String, HubLoggedIntent, text: String)
    }

    public init(id: Int64, device: String, stamp: HybridStamp, body: Body) {
        self.id = id
        self.device = device
        self.stamp = stamp
        self.body = body
    }
}

/// An application of a key the store holds: made here (`device` nil) or
/// pulled.
public struct HubStoredClaim: Sendable, Equatable {
    public var key: HubClaimKey
    public var device: String?
    public var stamp: HybridStamp
    public var writes: [HubClaimWrite]
    public var made: [HubRowKey]
    /// The device whose earlier application voided this one.
    public var supersededBy: String?
    /// For `add --key`: the entry it made.
    public var addedEntry: Int64?

    public init(key: HubClaimKey, device: String?, stamp: HybridStamp, writes: [HubClaimWrite], made: [HubRowKey],
                supersededBy: String?, addedEntry: Int64?) {
        self.key = key
        self.device = device
        self.stamp = stamp
        self.writes = writes
        self.made = made
        self.supersededBy = supersededBy
        self.addedEntry = addedEntry
    }
}
