import GRDB
import TrackeeCore

/// One finished entry another tracker (or trackee itself) exported, as
/// `trackee import` read it.
public struct ImportRow: Sendable, Equatable {
    /// Where it came from and what it is there (`timewarrior:20261120T080000Z`):
    /// the same row of a later export has the same key.
    public var key: String
    /// Its line in the file, for what is said about it.
    public var line: Int
    public var start: Instant
    public var end: Instant
    public var project: String?
    public var client: String?
    public var description: String
    public var tags: [String]
    /// Whether a project made for it is billable, and its hourly rate in
    /// cents.
    public var billable: Bool
    public var rateCents: Int64?
    /// trackee's own exports: the id to keep where it is free, and the
    /// source as it was; others are `import:FORMAT`.
    public var id: Int64?
    public var source: String?

    public init(key: String, line: Int, start: Instant, end: Instant, project: String?, client: String?,
                description: String, tags: [String], billable: Bool = false, rateCents: Int64? = nil, id: Int64? = nil,
                source: String? = nil) {
        self.key = key
        self.line = line
        self.start = start
        self.end = end
        self.project = project
        self.client = client
        self.description = description
        self.tags = tags
        self.billable = billable
        self.rateCents = rateCents
        self.id = id
        self.source = source
    }
}

/// What an import did (or, with a dry run, would do).
public struct ImportReport: Sendable, Equatable {
    /// Each entry added: its line in the file and its id.
    public var added: [(line: Int, id: Int64)] = []
    /// Rows imported before (their key is known), passed over.
    public var known = 0
    /// Entries added that overlap an entry the store had: the line, the
    /// new entry, and the one it overlaps.
    public var overlapping: [(line: Int, id: Int64, overlaps: Int64)] = []
    /// What the import made, in order: `client "Acme"`, `project "Docs"`.
    public var created: [String] = []
    /// The import's journal step (what `undo` takes back); nil when it
    /// added nothing.
    public var step: Int64?

    public init() {}

    public static func == (a: ImportReport, b: ImportReport) -> Bool {
        a.added.map(\.line) == b.added.map(\.line) && a.added.map(\.id) == b.added.map(\.id) && a.known == b.known
            && a.overlapping.map(\.id) == b.overlapping.map(\.id) && a.created == b.created && a.step == b.step
    }
}

extension Store {
    /// Adds what another tracker exported, as one step that `undo` takes
    /// back whole: each row once (a row whose key an earlier import added
    /// is passed over), its client and project made as it needs them. A
    /// row that overlaps an entry the store already had is added all the
    /// same and reported. `dryRun` says what would be added and changes
    /// nothing.
    public func importRows(_ rows: [ImportRow], format: String, dryRun: Bool, now: Instant) throws -> ImportReport {
        try write { db in
            var report = ImportReport()
            try db.inSavepoint {
                report = try importRows(db, rows, format: format, now: now)
                return dryRun ? .rollback : .commit
            }
            return report
        }
    }

    private func importRows(_ db: Database, _ rows: [ImportRow], format: String, now: Instant) throws -> ImportReport {
        var report = ImportReport()
        var step = JournalStep("import \(format)", at: now)
        var projects: [String: Int64?] = [:]
        var seen: Set<String> = []
        let known = try db.cachedStatement(sql: "SELECT 1 FROM import_key WHERE key = ?")
        // An entry that overlaps [start, end) began less than the longest
        // entry's length before `start`: a bounded range of the start
        // index, not every entry before `end`. The running one is apart.
        let overlap = try db.cachedStatement(sql: """
            SELECT id FROM entry WHERE start > ?1 - ?3 AND start < ?2 AND "end" > ?1 ORDER BY start LIMIT 1
            """)
        let running = try Row.fetchOne(db, sql: #"SELECT id, start FROM entry WHERE "end" IS NULL"#)
            .map { (id: $0[0] as Int64, start: $0[1] as Int64) }
        var longest = try Int64.fetchOne(db, sql: #"SELECT max("end" - start) FROM entry WHERE "end" IS NOT NULL"#) ?? 0
        let free = try db.cachedStatement(sql: "SELECT 1 FROM entry WHERE id = ?")
        let keep = try db.cachedStatement(sql: "INSERT INTO import_key (key, entry_id, step) VALUES (?, ?, ?)")
        let insert = try db.cachedStatement(sql: JournalTable.entry.insert)
        let source = ChangeSource.imported(format: format).storedText
        // In the order they happened: an overlap is then with what came
        // before, in the store or in the file.
        for row in rows.sorted(by: { ($0.start, $0.line) < ($1.start, $1.line) }) {
            guard seen.insert(row.key).inserted, try Row.fetchOne(known, arguments: [row.key]) == nil else {
                report.known += 1
                continue
            }
            var projectID: Int64?
            if let name = row.project {
                let handle = (row.client ?? "") + "\u{0}" + name
                if let found = projects[handle] {
                    projectID = found
                } else {
                    let resolved = try resolveProject(
                        db, name: name, client: row.client, now: now, newProjects: .create, step: &step,
                        billable: row.billable, rateCents: row.rateCents)
                    report.created += resolved.created
                    projects[handle] = resolved.projectID
                    projectID = resolved.projectID
                }
            }
            var overlapped = try Int64.fetchOne(overlap, arguments: [row.start.seconds, row.end.seconds, longest + 1])
            if overlapped == nil, let running, running.start < row.end.seconds {
                overlapped = running.id
            }
            longest = max(longest, row.end.seconds - row.start.seconds)
            // Nil until the store has joined a hub: then a free id of
            // trackee's own export is kept.
            var chosen = try HubIDs.next(db, .entry)
            if chosen == nil, let wanted = row.id, try Row.fetchOne(free, arguments: [wanted]) == nil { chosen = wanted }
            let tags = Tags.encode(Tags.normalize(row.tags)), entrySource = row.source ?? source
            var record = EntryRecord(
                id: chosen, projectID: projectID, description: row.description, tags: tags, start: row.start.seconds,
                end: row.end.seconds, source: entrySource, created: now.seconds, updated: now.seconds)
            let image = try record.insert(db, prepared: insert)
            let id = record.id!
            try step.record(db, .entry, id: id, before: nil, after: image)
            try keep.execute(arguments: [row.key, id, step.id])
            report.added.append((row.line, id))
            if let overlapped { report.overlapping.append((row.line, id, overlapped)) }
        }
        report.step = step.id
        return report
    }
}
