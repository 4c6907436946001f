import GRDB
import TrackeeCore

/// Changes to an entry; nil leaves a field as it is.
public struct EntryChanges: Sendable, Equatable {
    public var start: Instant?
    public var end: Instant?
    /// `.some(nil)` removes the project.
    public var project: String??
    public var client: String?
    public var description: String?
    public var tags: [String]?

    public init(start: Instant? = nil, end: Instant? = nil, project: String?? = nil, client: String? = nil,
                description: String? = nil, tags: [String]? = nil) {
        self.start = start
        self.end = end
        self.project = project
        self.client = client
        self.description = description
        self.tags = tags.map(Tags.normalize)
    }

    public var isEmpty: Bool {
        start == nil && end == nil && project == nil && client == nil && description == nil && tags == nil
    }
}

/// The result of adding or editing an entry.
public struct EntryResult: Sendable, Equatable {
    public var entry: Entry
    public var created: [String]
}

/// What `add` under a key did: added the entry, or found the key used.
public struct KeyedAdd: Sendable, Equatable {
    /// The entry the key's first call added.
    public var entryID: Int64
    /// The entry as it is now; nil when it has since been deleted.
    public var result: EntryResult?
    /// True when the key had been used: nothing was added.
    public var replayed: Bool
}

extension Store {
    /// Records a finished entry from `start` to `end`.
    /// A project that does not exist is created, or refused under
    /// `newProjects: .refuse`.
    public func add(_ parameters: TimerParameters, start: Instant, end: Instant, now: Instant,
                    newProjects: NewProjects = .create) throws -> EntryResult {
        guard end >= start else { throw StoreError.endBeforeStart(start: start, end: end) }
        if let bad = Tags.invalid(parameters.tags) { throw StoreError.invalidTag(bad) }
        return try write { db in try add(db, parameters, start: start, end: end, now: now, newProjects: newProjects) }
    }

    /// ``add(_:start:end:now:)`` under an idempotency key: the first call
    /// with `key` adds the entry and keeps the key with it, in one
    /// transaction; a later call adds nothing and returns the first call's
    /// entry id (and the entry, unless it has since been deleted).
    public func add(_ parameters: TimerParameters, start: Instant, end: Instant, now: Instant, key: String,
                    newProjects: NewProjects = .create) throws -> KeyedAdd
    {
        guard end >= start else { throw StoreError.endBeforeStart(start: start, end: end) }
        if let bad = Tags.invalid(parameters.tags) { throw StoreError.invalidTag(bad) }
        return try write { db in
            if let first = try Int64.fetchOne(db, sql: "SELECT entry_id FROM add_key WHERE key = ?", arguments: [key]) {
                let entry = try Row.fetchOne(db, sql: Store.entrySelect + " WHERE e.id = ?", arguments: [first]).map(Store.entry(from:))
                return KeyedAdd(entryID: first, result: entry.map { EntryResult(entry: $0, created: []) }, replayed: true)
            }
            let mark = try HubKeys.mark(db)
            let result = try add(db, parameters, start: start, end: end, now: now, newProjects: newProjects)
            try db.execute(sql: "INSERT INTO add_key (key, entry_id, added) VALUES (?, ?, ?)",
                           arguments: [key, result.entry.id, now.seconds])
            try HubKeys.record(db, .add, key: key, since: mark)
            return KeyedAdd(entryID: result.entry.id, result: result, replayed: false)
        }
    }

    private func add(_ db: Database, _ parameters: TimerParameters, start: Instant, end: Instant, now: Instant,
                     newProjects: NewProjects) throws -> EntryResult
    {
        var step = JournalStep(
            "add " + ([parameters.project, parameters.description.isEmpty ? nil : "\"\(parameters.description)\""]
                .compactMap { $0 }).joined(separator: " "), at: now)
        let resolved = try resolveProject(
            db, name: parameters.project, client: parameters.client, now: now, newProjects: newProjects, step: &step)
        var record = EntryRecord(
            projectID: resolved.projectID, description: parameters.description,
            tags: Tags.encode(parameters.tags), start: start.seconds, end: end.seconds,
            source: ChangeSource.cli.storedText, created: now.seconds, updated: now.seconds)
        try record.insert(db)
        try step.record(db, .entry, id: record.id!, before: nil, after: record.image)
        return EntryResult(entry: try entry(db, record), created: resolved.created)
    }

    /// Edits an entry. The running entry's start may move (say, two hours
    /// earlier); its end is set only by `stop`, so the timer keeps one way in.
    /// A project that does not exist is created, or refused under
    /// `newProjects: .refuse`.
    public func edit(_ id: Int64, _ changes: EntryChanges, now: Instant, newProjects: NewProjects = .create) throws
        -> EntryResult
    {
        if let tags = changes.tags, let bad = Tags.invalid(tags) { throw StoreError.invalidTag(bad) }
        return try write { db in
            guard var record = try EntryRecord.fetchOne(db, key: id) else { throw StoreError.unknownEntry(id) }
            let before = record.image
            var step = JournalStep("edit #\(id)", at: now)
            var created: [String] = []
            if let start = changes.start { record.start = start.seconds }
            if let end = changes.end {
                guard record.end != nil else { throw StoreError.editRunningEnd(id) }
                record.end = end.seconds
            }
            if record.end == nil && record.start > now.seconds {
                throw StoreError.startAfterNow(start: Instant(seconds: record.start), now: now)
            }
            if let end = record.end, end < record.start {
                throw StoreError.endBeforeStart(start: Instant(seconds: record.start), end: Instant(seconds: end))
            }
            if let project = changes.project {
                let resolved = try resolveProject(
                    db, name: project, client: changes.client, now: now, newProjects: newProjects, step: &step)
                record.projectID = resolved.projectID
                created = resolved.created
            } else if let client = changes.client {
                // A new client for the same project name.
                let current = try record.projectID.flatMap { try ProjectRecord.fetchOne(db, key: $0) }
                guard let current else { throw StoreError.clientNeedsProject }
                let resolved = try resolveProject(
                    db, name: current.name, client: client, now: now, newProjects: newProjects, step: &step)
                record.projectID = resolved.projectID
                created = resolved.created
            }
            if let description = changes.description { record.description = description }
            if let tags = changes.tags { record.tags = Tags.encode(tags) }
            record.updated = now.seconds
            try record.update(db)
            try step.record(db, .entry, id: id, before: before, after: record.image)
            return EntryResult(entry: try entry(db, record), created: created)
        }
    }

    /// The running entry, if any.
    public func running() throws -> Entry? {
        try read { db in
            try Row.fetchOne(db, sql: Store.entrySelect + " WHERE e.\"end\" IS NULL").map(Store.entry(from:))
        }
    }

    /// One entry by id.
    public func entry(id: Int64) throws -> Entry {
        try read { db in
            try entry(db, id: id)
        }
    }
}
