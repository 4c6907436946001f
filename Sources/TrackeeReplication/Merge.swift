// Over 400 lines on purpose: the whole merge, one pure function and the
// rules it keeps, is read in one place; its input and plan types are in
// TrackeeStore's HubValues and HubMergePlan.
import TrackeeCore
import TrackeeStore

/// The merge: a batch of pulled changes, and what the store holds of the
/// rows they concern, give the writes that take the batch in
/// (``HubMergePlan``). It reads nothing else and writes nothing itself, so
/// the same input always gives the same plan; the store applies the plan
/// in the transaction it read the input in.
///
/// What every device ends with, whatever order the changes reach it in:
///
/// - **Each field is its newest write.** Writes are kept, not replaced: a
///   field's value is its write with the largest hybrid-clock stamp among
///   those that count. `_exists` is a field too (0: deleted), so a delete
///   is a tombstone and an undo after it a newer write.
/// - **A device's own writes stand.** Where a write replaces another
///   device's write to the same field that its device had not seen (its
///   base is older), someone's work is discarded: that is noted
///   (`overwritten`), with the value that lost.
/// - **A derived value never outranks a written one.** A timer no device
///   stopped (its newest `end` write is none) ends where the next entry
///   begun as a timer after it begins, if there is one: the one-timer
///   rule, decided from the entries alone and never written as a change.
///   Any end a device wrote wins over it.
/// - **One application per key.** Of the applications of one key (an
///   intent's, a rule firing's, `add --key`'s), the one with the earliest
///   stamp stands. Every write the others made counts for nothing (their
///   stamps are voided), on every device, and their intent log rows are
///   listed as voided.
/// - **Names.** A client or project made on two devices under one name is
///   one: among the rows that exist under that name (and client), the
///   smallest id is the row and the others its aliases; what refers to an
///   alias means the row.
/// - **References.** A reference to a row that is not there means none.
public struct Merge {
    private let input: HubMergeInput
    private var rows: [HubRowKey: HubRowState]
    private var claims: [HubClaimKey: [HubStoredClaim]]
    private var entered: Set<HubEntered>
    private var voided: Set<HybridStamp>
    private var clock: HybridClock
    private var plan: HubMergePlan
    /// Rows a pulled write of this batch reached: the newest such stamp.
    private var pulledInto: [HubRowKey: HybridStamp] = [:]
    /// Entries this store never heard of that one change of this batch
    /// made whole: their fields (not kept as writes, for speed; nothing
    /// but ``projectEntries`` looks at them).
    private var fresh: [HubRowKey: [HubValue]] = [:]

    /// The plan for `input`, or what it lacks.
    public static func run(_ input: HubMergeInput) -> HubMergeResult {
        var merge = Merge(input)
        return merge.run()
    }

    private init(_ input: HubMergeInput) {
        self.input = input
        rows = input.rows
        claims = input.claims
        entered = input.entered
        voided = input.voided
        clock = input.clock
        plan = HubMergePlan(clock: input.clock.last)
    }

    private mutating func run() -> HubMergeResult {
        for change in input.changes { receive(change.stamp) }
        takeKeys()
        // Before the batch's writes are weighed against what is here.
        markVoided()
        takeWrites()
        let resolved = projectCatalog()
        if let needs = projectEntries(resolved) { return .needs(needs) }
        plan.clock = clock.last
        return .plan(plan)
    }

    /// Takes a pulled stamp into the clock. Never refused here: a device
    /// whose change is too far ahead is refused when it pushes.
    private mutating func receive(_ stamp: HybridStamp) {
        try? clock.receive(stamp, physical: max(input.physical, stamp.wall - HybridClock.maximumLead))
    }

    // MARK: Keys

    /// Keys and intent log rows from other devices, in the hub's order
    /// (the order `history` lists them in); then, of each key's
    /// applications, the earliest stands.
    private mutating func takeKeys() {
        var keys: [HubClaimKey] = []
        for change in input.changes {
            switch change.body {
            case .claim(let claim):
                let kept = HubEntered(kind: claim.key.kind.rawValue, key: claim.key.key, device: change.device)
                guard entered.insert(kept).inserted else { continue }
                plan.keys.append(.init(
                    kind: claim.key.kind.rawValue, key: claim.key.key, device: change.device, stamp: change.stamp,
                    body: claim.ledgerText, made: claim.made, writes: claim.writes ?? []))
                var added: Int64?
                switch claim.ledger {
                case .intent(var row, _):
                    row.key = claim.key.key
                    plan.logs.append(.init(device: change.device, row: row, voided: nil))
                case .firing(let firing):
                    plan.firings.append((claim.key.key, firing, change.device))
                case .add(let entry, _):
                    added = entry
                }
                claims[claim.key, default: []].append(HubStoredClaim(
                    key: claim.key, device: change.device, stamp: change.stamp, writes: claim.writes ?? [],
                    made: claim.made, supersededBy: nil, addedEntry: added))
                plan.report.applied += 1
                if !keys.contains(claim.key) { keys.append(claim.key) }
            case .log(let id, let row, let text):
                guard entered.insert(HubEntered(kind: "log", key: id, device: change.device)).inserted else { continue }
                plan.keys.append(.init(
                    kind: "log", key: id, device: change.device, stamp: change.stamp, body: text, made: [], writes: []))
                plan.logs.append(.init(device: change.device, row: row, voided: nil))
                plan.report.applied += 1
            case .row:
                continue
            }
        }
        for key in keys { settle(key) }
        // The intent log rows this batch brought of applications that lost:
        // a keyed intent's by its key, a rule's by its firing.
        for index in plan.logs.indices {
            let log = plan.logs[index]
            let claim = log.row.firing.map { HubClaimKey(.firing, $0) } ?? log.row.key.map { HubClaimKey(.intent, $0) }
            guard let claim else { continue }
            plan.logs[index].voided = claims[claim]?.first { $0.device == log.device }?.supersededBy
        }
    }

    /// Of a key's applications, the earliest stands; each other one not
    /// voided yet is voided now (its writes and the rows it made), and each
    /// names the standing one.
    private mutating func settle(_ key: HubClaimKey) {
        guard var list = claims[key], let winner = list.min(by: { $0.stamp < $1.stamp }) else { return }
        let name = winner.device ?? input.device
        plan.winners.append((key, winner.device, winner.addedEntry))
        for index in list.indices where list[index].stamp != winner.stamp && list[index].supersededBy != name {
            let first = list[index].supersededBy == nil
            list[index].supersededBy = name
            let loser = list[index]
            plan.superseded.append((key, loser.device, name))
            // Voided once: a still earlier application that comes later
            // only names itself as the standing one.
            guard first else { continue }
            // Only what it did to entries: a client or project it made is
            // one of that name, the same as the standing application's,
            // and what refers to it keeps it.
            for write in loser.writes where write.row.table == .entry && voided.insert(write.stamp).inserted {
                plan.voided.append(write.stamp)
            }
            for row in loser.made where row.table == .entry {
                var state = rows[row] ?? HubRowState(key: row)
                if !state.void {
                    state.void = true
                    plan.voidRows.append(row)
                }
                // Work done on a row that turns out never to have been made.
                if state.writes.contains(where: { $0.contains { $0.stamp > loser.stamp } }) {
                    conflict(HubConflictNote(row: row, what: "applied-twice", device: name))
                }
                rows[row] = state
            }
        }
        claims[key] = list
    }

    // MARK: Writes

    private mutating func takeWrites() {
        var changesPerRow: [HubRowKey: Int] = [:]
        for change in input.changes {
            if case .row(let row) = change.body { changesPerRow[row.row, default: 0] += 1 }
        }
        for change in input.changes {
            guard case .row(let row) = change.body else { continue }
            var state = rows[row.row] ?? HubRowState(key: row.row)
            let stamp = change.stamp
            if row.row.table == .entry, state.isUnknown, changesPerRow[row.row] == 1, row.makesWholeRow,
               !voided.contains(stamp)
            {
                // The one change that made an entry this store never heard
                // of: what a new device pulls by the thousand. (Clients and
                // projects are few, and each is a write a field.)
                plan.wholeRows.append((row, stamp))
                fresh[row.row] = row.values.map { $0! }
                pulledInto[row.row] = stamp
                plan.report.applied += 1
                continue
            }
            let tombstone = state.live(JournalTable.existsField)
            var counted = false
            for field in row.values.indices {
                guard let value = row.values[field], !state.writes[field].contains(where: { $0.stamp == stamp })
                else { continue }
                let write = HubWrite(stamp: stamp, value: value, base: row.bases[field], voided: voided.contains(stamp))
                let before = state.live(field)
                state.writes[field].append(write)
                plan.writes.append((row.row, field, write))
                guard !write.voided else { continue }
                if before.map({ stamp > $0.stamp }) ?? true { counted = true }
                if let before { overwrote(row.row, field, before, write) }
            }
            if row.row.table == .entry { editedAndDeleted(state, row, tombstone: tombstone, device: change.device) }
            rows[row.row] = state
            if counted {
                plan.report.applied += 1
                if pulledInto[row.row].map({ stamp > $0 }) ?? true { pulledInto[row.row] = stamp }
            } else {
                plan.report.superseded += 1
            }
        }
    }

    /// Notes where one of two writes to a field that neither device had
    /// seen of the other discards a value.
    private mutating func overwrote(_ row: HubRowKey, _ field: Int, _ a: HubWrite, _ b: HubWrite) {
        let name = row.table.fields[field]
        guard !["_exists", "created", "updated"].contains(name), a.stamp.device != b.stamp.device, a.value != b.value
        else { return }
        let (older, newer) = a.stamp < b.stamp ? (a, b) : (b, a)
        guard let base = newer.base, base < older.stamp else { return }
        conflict(HubConflictNote(
            row: row, what: "overwritten", device: newer.stamp.device, field: name, lost: older.value,
            lostDevice: older.stamp.device))
    }

    /// An entry edited on one device and deleted on another: the delete
    /// stands, and that is noted.
    private mutating func editedAndDeleted(
        _ state: HubRowState, _ row: HubRowChange, tombstone: HubWrite?, device: String
    ) {
        let exists = JournalTable.existsField
        if row.values[exists] == .integer(0), state.live(exists)?.value == .integer(0) {
            let created = state.live(row.row.table.field("created")!)?.stamp
            let edited = row.row.table.fields.indices.contains { field in
                guard field != exists, row.row.table.fields[field] != "created", let live = state.live(field) else {
                    return false
                }
                return live.stamp != created && live.stamp.device != device
            }
            if edited { conflict(HubConflictNote(row: row.row, what: "edited-deleted", device: device)) }
        } else if row.values[exists] == nil, let tombstone, tombstone.value == .integer(0), tombstone.stamp.device != device {
            conflict(HubConflictNote(row: row.row, what: "edited-deleted", device: tombstone.stamp.device))
        }
    }

    /// Writes whose stamps this batch voided, in the rows that hold them.
    private mutating func markVoided() {
        guard !plan.voided.isEmpty else { return }
        let now = Set(plan.voided)
        for (key, state) in rows {
            guard state.writes.contains(where: { $0.contains { now.contains($0.stamp) && !$0.voided } }) else { continue }
            var marked = state
            for field in marked.writes.indices {
                for index in marked.writes[field].indices where now.contains(marked.writes[field][index].stamp) {
                    marked.writes[field][index].voided = true
                }
            }
            rows[key] = marked
        }
    }

    private mutating func conflict(_ note: HubConflictNote) {
        guard !plan.conflicts.contains(note) else { return }
        plan.conflicts.append(note)
        plan.report.conflicts += 1
    }

    // MARK: Rows

    /// A row's fields as its writes say: each field's newest write that
    /// counts, else what its table holds, else the default.
    private func values(_ state: HubRowState) -> [HubValue] {
        let table = state.key.table
        return table.fields.indices.map { field in
            state.live(field)?.value ?? (field == 0 ? .integer(1) : state.current?[field]) ?? table.defaultValue(field)
        }
    }

    /// Whether the row is made and not deleted: the change that made it
    /// has come, and no application that lost made it.
    private func exists(_ state: HubRowState) -> Bool {
        !state.void && state.live(JournalTable.existsField)?.value == .integer(1)
            && state.live(state.key.table.field("created")!) != nil
    }

    /// The catalog (clients, projects) as its writes say, every row of it,
    /// with the twins of one name made one; returns what each project id
    /// means from now on.
    private mutating func projectCatalog() -> Resolution {
        var old = Resolution(), new = Resolution()
        for (key, state) in rows where key.table != .entry && state.current != nil {
            old.present.insert(key)
        }
        old.aliases = input.aliases
        var clients: [String: [Int64]] = [:]
        var values: [HubRowKey: [HubValue]] = [:]
        for (key, state) in rows where key.table != .entry && exists(state) {
            values[key] = self.values(state)
        }
        for (key, row) in values where key.table == .client {
            clients[row[JournalTable.clientName].text ?? "", default: []].append(key.id)
        }
        for ids in clients.values { new.group(.client, ids) }
        var projects: [String: [Int64]] = [:]
        for (key, row) in values where key.table == .project {
            let client = new.resolve(.client, row[JournalTable.projectClient].integer).map(String.init) ?? "-"
            let name = (row[JournalTable.projectName].text ?? "").lowercased()
            projects[client + "/" + name, default: []].append(key.id)
        }
        for ids in projects.values { new.group(.project, ids) }
        // The tables as the catalog now is.
        for key in rows.keys.filter({ $0.table != .entry }).sorted() {
            var after: [HubValue]?
            if var row = values[key], new.canonical(key) == key.id {
                if key.table == .project {
                    row[JournalTable.projectClient] = new.resolve(.client, row[JournalTable.projectClient].integer)
                        .map(HubValue.integer) ?? .null
                }
                after = Self.image(key, row)
            }
            change(key, to: after)
        }
        for (alias, canonical) in new.aliases where input.aliases[alias] != canonical {
            plan.aliases.append((alias, canonical))
        }
        for alias in input.aliases.keys where new.aliases[alias] == nil {
            plan.aliases.append((alias, nil))
        }
        plan.aliases.sort { $0.alias < $1.alias }
        // Entries and projects this input does not hold, that refer to a
        // row whose meaning changed.
        for key in rows.keys.filter({ $0.table != .entry }).sorted() {
            let before = old.resolve(key.table, key.id), after = new.resolve(key.table, key.id)
            guard before != after else { continue }
            var deletedBy: String?
            if let before, after == nil, let state = rows[HubRowKey(key.table, before)],
               let tombstone = state.live(JournalTable.existsField), tombstone.value == .integer(0)
            {
                deletedBy = tombstone.stamp.device
            }
            if key.table == .project {
                plan.repoint.append(.init(table: .project, raw: key.id, resolved: after, deleted: deletedBy.map { _ in before! },
                                          deletedBy: deletedBy))
            } else if let deletedBy, let before {
                // Projects are all here: a client deleted while a project
                // used it.
                let users = rows.values.contains { state in
                    state.key.table == .project && state.current?[JournalTable.projectClient] == .integer(before)
                }
                if users { conflict(HubConflictNote(row: HubRowKey(.client, before), what: "deleted-in-use", device: deletedBy)) }
            }
        }
        return new
    }

    /// Every entry the input holds, as its writes and the catalog say, with
    /// the ends of timers no device stopped derived; nil, or what the
    /// input lacks to decide them.
    private mutating func projectEntries(_ catalog: Resolution) -> HubMergeNeeds? {
        let end = JournalTable.entryEnd, start = JournalTable.entryStart
        var made: [HubRowKey: [HubValue]] = [:]
        var open: [HubRowKey] = []
        var timers: [(start: Int64, id: Int64)] = []
        for (key, state) in rows where key.table == .entry && exists(state) {
            var row = values(state)
            row[JournalTable.entryProject] = catalog.resolve(.project, row[JournalTable.entryProject].integer)
                .map(HubValue.integer) ?? .null
            made[key] = row
            let begun = row[start].integer ?? 0
            if state.writes[end].contains(where: { !$0.voided && $0.value == .null }) { timers.append((begun, key.id)) }
            if row[end] == .null { open.append(key) }
        }
        for (key, fields) in fresh {
            var row = fields
            row[JournalTable.entryProject] = catalog.resolve(.project, row[JournalTable.entryProject].integer)
                .map(HubValue.integer) ?? .null
            made[key] = row
            if row[end] == .null {
                timers.append((row[start].integer ?? 0, key.id))
                open.append(key)
            }
        }
        timers.sort { ($0.start, $0.id) < ($1.start, $1.id) }
        var derived: [HubRowKey: Int64] = [:]
        for key in open {
            let begun = made[key]![start].integer ?? 0
            if begun < input.timerBornFrom { return HubMergeNeeds(timerBornFrom: begun) }
            if let next = timers.first(where: { ($0.start, $0.id) > (begun, key.id) }) { derived[key] = next.start }
        }
        for key in (rows.keys.filter { $0.table == .entry } + fresh.keys).sorted() {
            let state = rows[key] ?? HubRowState(key: key)
            var after = made[key].map { Self.image(key, $0) }
            if let end = derived[key] {
                after![JournalTable.entryEnd] = .integer(end)
                if state.current?[JournalTable.entryEnd] == .null { plan.report.timersStopped += 1 }
            }
            if state.derived != (derived[key] != nil) { plan.derived.append((key.id, derived[key] != nil)) }
            if let lost = state.current?[JournalTable.entryProject].integer, after != nil,
               after![JournalTable.entryProject] == .null, catalog.resolve(.project, lost) == nil,
               let tombstone = rows[HubRowKey(.project, lost)]?.live(JournalTable.existsField),
               tombstone.value == .integer(0)
            {
                conflict(HubConflictNote(row: HubRowKey(.project, lost), what: "deleted-in-use", device: tombstone.stamp.device))
            }
            change(key, to: after)
        }
        return nil
    }

    /// A row's image from its fields: the id, then every column.
    private static func image(_ key: HubRowKey, _ fields: [HubValue]) -> [HubValue] {
        var image = fields
        image[0] = .integer(key.id)
        return image
    }

    private mutating func change(_ key: HubRowKey, to after: [HubValue]?) {
        let before = rows[key]?.current
        guard before != after else { return }
        let stamp = pulledInto[key]
        plan.rows.append(.init(row: key, before: before, after: after, device: stamp?.device, stamp: stamp))
    }
}

/// What each client and project id means: an alias means its canonical
/// row, and an id means nothing when that row is not there.
struct Resolution {
    var aliases: [HubRowKey: Int64] = [:]
    var present: Set<HubRowKey> = []

    /// Rows of one name: the smallest id stands, the others are its aliases.
    mutating func group(_ table: JournalTable, _ ids: [Int64]) {
        let canonical = ids.min()!
        present.insert(HubRowKey(table, canonical))
        for id in ids where id != canonical { aliases[HubRowKey(table, id)] = canonical }
    }

    func canonical(_ key: HubRowKey) -> Int64 { aliases[key] ?? key.id }

    func resolve(_ table: JournalTable, _ id: Int64?) -> Int64? {
        guard let id else { return nil }
        let canonical = aliases[HubRowKey(table, id)] ?? id
        return present.contains(HubRowKey(table, canonical)) ? canonical : nil
    }
}
