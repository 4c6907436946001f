import TrackeeCore

/// What the store holds that a batch of pulled changes concerns: the
/// merge's whole input. The store reads it in the transaction that will
/// apply the merge's plan (``Store/hubApply(_:through:now:physical:merge:)``).
public struct HubMergeInput: Sendable {
    /// This device's name on the hub.
    public var device: String
    /// The batch, in the hub's order.
    public var changes: [HubChange]
    /// Every row the batch concerns: the rows it changes, the rows every
    /// application of its keys wrote, every client and project, the
    /// running entry and those whose end the merge derived, and every
    /// entry begun as a timer from ``timerBornFrom`` on. A row the store
    /// has never heard of is not there: no row, no write, nothing void.
    public var rows: [HubRowKey: HubRowState]
    /// Every application of each key the batch names, held here.
    public var claims: [HubClaimKey: [HubStoredClaim]]
    /// The keys and intent log rows, by device, this store holds already
    /// (a second copy of one changes nothing).
    public var entered: Set<HubEntered>
    /// Which client or project each alias stands for, as the tables have it.
    public var aliases: [HubRowKey: Int64]
    /// Of the stamps the batch's writes carry, those voided already.
    public var voided: Set<HybridStamp>
    /// The start from which every entry begun as a timer is in ``rows``.
    public var timerBornFrom: Int64
    public var clock: HybridClock
    /// The wall clock in milliseconds.
    public var physical: Int64
    public var now: Instant

    public init(device: String, changes: [HubChange], clock: HybridClock, physical: Int64, now: Instant) {
        self.device = device
        self.changes = changes
        self.clock = clock
        self.physical = physical
        self.now = now
        rows = [:]
        claims = [:]
        entered = []
        aliases = [:]
        voided = []
        timerBornFrom = .max
    }
}

/// A key or an intent log row that one device applied (nil: this one).
public struct HubEntered: Sendable, Hashable {
    /// `intent`, `firing`, `add` or `log`.
    public var kind: String
    public var key: String
    public var device: String?

    public init(kind: String, key: String, device: String?) {
        self.kind = kind
        self.key = key
        self.device = device
    }
}

/// What the merge found it lacks: the store reads more and asks again.
public struct HubMergeNeeds: Sendable, Equatable {
    /// Entries begun as timers from this start on.
    public var timerBornFrom: Int64

    public init(timerBornFrom: Int64) {
        self.timerBornFrom = timerBornFrom
    }
}

/// The merge's answer for one batch.
public enum HubMergeResult: Sendable {
    case plan(HubMergePlan)
    case needs(HubMergeNeeds)
}

/// What a batch of pulled changes does to the store: every write the
/// store makes for it, decided by the merge from its input alone. The
/// store applies it in the transaction it read the input in.
public struct HubMergePlan: Sendable {
    /// Writes to keep, each where its row and field are.
    public var writes: [(row: HubRowKey, field: Int, write: HubWrite)] = []
    /// Rows made whole by one change, kept as that change (`hub_row`)
    /// rather than a write per field.
    public var wholeRows: [(change: HubRowChange, stamp: HybridStamp)] = []
    /// Stamps whose writes count for nothing from now on.
    public var voided: [HybridStamp] = []
    /// Rows an application that lost made (absent everywhere).
    public var voidRows: [HubRowKey] = []
    /// Rows whose image in their table changes.
    public var rows: [RowChange] = []
    /// Aliases to set (canonical id) or drop (nil).
    public var aliases: [(alias: HubRowKey, canonical: Int64?)] = []
    /// Entries whose end is now derived (true) or no longer (false).
    public var derived: [(entry: Int64, derived: Bool)] = []
    /// Entries this plan does not name whose project was `raw` now have
    /// `resolved` (a project that became an alias, went, or came back).
    public var repoint: [Repoint] = []
    public var conflicts: [HubConflictNote] = []
    /// Applications of keys, and intent log rows, from other devices, to
    /// keep (`hub_key`).
    public var keys: [KeptKey] = []
    /// Applications another device's earlier one voids: `by` names it.
    public var superseded: [(key: HubClaimKey, device: String?, by: String)] = []
    /// Intent log rows another device applied, to enter.
    public var logs: [PulledLog] = []
    /// Rule firings other devices applied, for the ledger (a firing
    /// already there stays as it is).
    public var firings: [(key: String, firing: HubLoggedFiring, device: String)] = []
    /// For each key whose standing application changed or came: the
    /// device that applied it first (nil: this one).
    public var winners: [(key: HubClaimKey, device: String?, addedEntry: Int64?)] = []
    /// The clock's last stamp after the batch.
    public var clock: HybridStamp
    public var report = HubApplyReport()

    public init(clock: HybridStamp) {
        self.clock = clock
    }

    /// One row's new image, and how the journal names the change.
    public struct RowChange: Sendable {
        public var row: HubRowKey
        public var before: [HubValue]?
        public var after: [HubValue]?
        /// The device whose pulled write made the change; nil when the
        /// merge did (an alias, a derived end, a voided application).
        public var device: String?
        public var stamp: HybridStamp?

        public init(row: HubRowKey, before: [HubValue]?, after: [HubValue]?, device: String?, stamp: HybridStamp?) {
            self.row = row
            self.before = before
            self.after = after
            self.device = device
            self.stamp = stamp
        }
    }

    public struct Repoint: Sendable, Equatable {
        /// What is referred to: `project` (by entries).
        public var table: JournalTable
        public var raw: Int64
        public var resolved: Int64?
        /// When rows lose what they meant because it was deleted: that row,
        /// and who deleted it (a `deleted-in-use` conflict, when any did).
        public var deleted: Int64?
        public var deletedBy: String?

        public init(table: JournalTable, raw: Int64, resolved: Int64?, deleted: Int64?, deletedBy: String?) {
            self.table = table
            self.raw = raw
            self.resolved = resolved
            self.deleted = deleted
            self.deletedBy = deletedBy
        }
    }

    public struct KeptKey: Sendable {
        /// `intent`, `firing`, `add` or `log`.
        public var kind: String
        public var key: String
        public var device: String
        public var stamp: HybridStamp
        /// The ledger row (or the intent log row) as it came.
        public var body: String
        public var made: [HubRowKey]
        public var writes: [HubClaimWrite]

        public init(kind: String, key: String, device: String, stamp: HybridStamp, body: String, made: [HubRowKey],
                    writes: [HubClaimWrite]) {
            self.kind = kind
            self.key = key
            self.device = device
            self.stamp = stamp
            self.body = body
            self.made = made
            self.writes = writes
        }
    }

    /// An intent another device applied, for its intent log.
    public struct PulledLog: Sendable {
        public var device: String
        public var row: HubLoggedIntent
        /// The device that applied its key or firing first, when not
        /// `device`: the row is listed as voided.
        public var voided: String?

        public init(device: String, row: HubLoggedIntent, voided: String?) {
            self.device = device
            self.row = row
            self.voided = voided
        }
    }
}

/// A change the merge made that discarded someone's work.
public struct HubConflictNote: Sendable, Equatable {
    public var row: HubRowKey
    /// `edited-deleted`, `deleted-in-use`, `applied-twice` or
    /// `overwritten`.
    public var what: String
    /// The device whose change won.
    public var device: String
    /// For `overwritten`: the field, the value that lost, and whose it was.
    public var field: String?
    public var lost: HubValue?
    public var lostDevice: String?

    public init(row: HubRowKey, what: String, device: String, field: String? = nil, lost: HubValue? = nil,
                lostDevice: String? = nil) {
        self.row = row
        self.what = what
        self.device = device
        self.field = field
        self.lost = lost
        self.lostDevice = lostDevice
    }
}
