import GRDB
import TrackeeCore

/// Where a page of `trackee log` begins: strictly older than an entry, or
/// than an instant.
public enum LogCursor: Sendable, Equatable {
    case entry(Int64)
    case time(Instant)
}

/// How summaries group time.
public enum Grouping: String, Sendable, CaseIterable, Codable {
    case project, client, tag
}

/// One line of a summary: time in a span for a project, a client or a tag.
public struct SummaryLine: Sendable, Equatable, Codable {
    /// The project, client or tag; nil for time with none.
    public var name: String?
    /// For project lines, the project's client.
    public var client: String?
    public var seconds: Int64
    /// The part of `seconds` spent on billable projects.
    public var billableSeconds: Int64
    /// Hours times the hourly rate, in cents, summed over the billable
    /// projects with a rate; nil when there are none. A non-billable
    /// project's rate is never charged.
    public var amountCents: Int64?
    /// How many entries the time comes from.
    public var entries: Int
}

extension SummaryLine {
    /// The line's name as a report shows it under `grouping`: `Docs (Acme)`
    /// or `(no project)`, `Acme` or `(no client)`, `#urgent` or `(no tag)`.
    public func shownName(by grouping: Grouping) -> String {
        switch grouping {
        case .project: return (name ?? "(no project)") + (client.map { " (\($0))" } ?? "")
        case .client: return name ?? "(no client)"
        case .tag: return name.map { "#" + $0 } ?? "(no tag)"
        }
    }
}

/// What `summary` reports: the lines and the totals, which never mix
/// billable and non-billable time.
public struct Summary: Sendable {
    public var lines: [SummaryLine]
    /// Time tracked, each moment once: by tag, an entry with two tags is
    /// in two lines but here once.
    public var seconds: Int64
    public var billableSeconds: Int64
    /// The amounts of the billable projects with a rate; nil when none.
    public var amountCents: Int64?

    public var nonBillableSeconds: Int64 { seconds - billableSeconds }
}

extension Store {
    /// An entry's columns with its project's and client's, from `source`
    /// (a table or subquery named `e`).
    /// Its columns' order is what ``entry(from:)`` reads by.
    static func entrySelect(from source: String) -> String {
        """
        SELECT e.id, e.description, e.tags, e.start, e."end", e.source,
               p.name AS project, p.billable, p.rate_cents, c.name AS client
        FROM \(source)
        LEFT JOIN project p ON p.id = e.project_id
        LEFT JOIN client c ON c.id = p.client_id
        """
    }

    static let entrySelect = entrySelect(from: "entry e")

    /// A subquery of `columns` of the entries overlapping `span`, each row
    /// followed by `names` (a filter's condition, with its arguments once
    /// per half, or ""). The end index finds the few entries that end
    /// after the span starts (without INDEXED BY the planner scans every
    /// row); the running entry, which has no end, comes from its own index.
    /// The span's bounds are numbers and go in as literals: the filter's
    /// arguments are positional, and each half of the union needs them once.
    static func overlapping(_ span: Timespan, columns: String, names: String) -> String {
        """
        SELECT \(columns) FROM entry AS e INDEXED BY entry_end
        WHERE e."end" > \(span.start.seconds) AND e.start < \(span.end.seconds)\(names)
        UNION ALL
        SELECT \(columns) FROM entry AS e
        WHERE e."end" IS NULL AND e.start < \(span.end.seconds)\(names)
        """
    }

    /// A row of ``entrySelect``, read by position (its columns' order):
    /// a lookup by name compares every column's name, which was three
    /// quarters of a 10,000-entry report's time.
    static func entry(from row: Row) -> Entry {
        let billable: Bool? = row[7]
        return Entry(
            id: row[0], project: row[6], client: row[9], description: row[1], tags: Tags.decode(row[2]),
            start: Instant(seconds: row[3]), end: (row[4] as Int64?).map { Instant(seconds: $0) }, source: row[5],
            billable: billable ?? false, rateCents: row[8])
    }

    /// Entries newest first: up to `limit`, older than `before` if given,
    /// among those `filter` keeps (every entry overlapping its window).
    /// The running timer runs until `now`: it overlaps a window that starts
    /// before then.
    public func log(
        limit: Int, before: LogCursor? = nil, filter: EntryFilter = EntryFilter(), now: Instant? = nil
    ) throws -> [Entry] {
        try read { db in
            var sql = Store.entrySelect
            var conditions: [String] = []
            var args: StatementArguments = []
            switch before {
            case nil: break
            case .time(let t):
                conditions.append("e.start < ?")
                _ = args.append(contentsOf: [t.seconds])
            case .entry(let id):
                guard let start = try Int64.fetchOne(db, sql: "SELECT start FROM entry WHERE id = ?", arguments: [id])
                else { throw StoreError.unknownEntry(id) }
                conditions.append("(e.start < ? OR (e.start = ? AND e.id < ?))")
                _ = args.append(contentsOf: [start, start, id])
            }
            if let from = filter.from {
                conditions.append("(e.\"end\" > ? OR (e.\"end\" IS NULL AND ? < ?))")
                _ = args.append(contentsOf: [from.seconds, from.seconds, (now ?? Instant(seconds: .max)).seconds])
            }
            if let to = filter.to {
                conditions.append("e.start < ?")
                _ = args.append(contentsOf: [to.seconds])
            }
            if !filter.namesNothing {
                let names = try condition(db, filter)
                conditions.append(names.sql)
                _ = args.append(contentsOf: names.arguments)
            }
            if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
            sql += " ORDER BY e.start DESC, e.id DESC LIMIT ?"
            _ = args.append(contentsOf: [limit])
            return try Row.fetchAll(db, sql: sql, arguments: args).map(Store.entry(from:))
        }
    }

    /// Entries that started in `(after, through]`, finished or running,
    /// oldest first: what a trigger on the timer's own state looks at.
    public func entries(startedAfter after: Instant, through: Instant) throws -> [Entry] {
        try read { db in
            try Row.fetchAll(
                db, sql: Store.entrySelect + " WHERE e.start > ? AND e.start <= ? ORDER BY e.start, e.id",
                arguments: [after.seconds, through.seconds]
            ).map(Store.entry(from:))
        }
    }

    /// Seconds tracked inside `span`, entries clipped to it and the running
    /// entry counted up to `now`.
    public func total(in span: Timespan, now: Instant) throws -> Int64 {
        try read { db in
            try Int64.fetchOne(db, sql: """
                SELECT ifnull(SUM(MAX(0, MIN(ifnull("end", :now), :to) - MAX(start, :from))), 0)
                FROM (
                    SELECT start, "end" FROM entry INDEXED BY entry_end WHERE "end" > :from AND start < :to
                    UNION ALL
                    SELECT start, "end" FROM entry WHERE "end" IS NULL AND start < :to
                )
                """, arguments: ["now": now.seconds, "from": span.start.seconds, "to": span.end.seconds]) ?? 0
        }
    }

    /// Seconds tracked inside `span` by the entries `filter` keeps (its
    /// names; the span is the window), clipped to the span, the running
    /// entry counted up to `now`.
    public func total(in span: Timespan, now: Instant, matching filter: EntryFilter) throws -> Int64 {
        filter.namesNothing
            ? try total(in: span, now: now) : try summary(in: span, now: now, by: .project, matching: filter).seconds
    }

    /// The time `filter` keeps in each of `days` (local days in `zone`),
    /// as far as its window reaches into the day: a day's total in
    /// `trackee log`, which counts the whole day, not only the entries of
    /// one page. A day outside the window has none.
    public func dayTotals(_ days: [LocalDate], zone: Zone, now: Instant, matching filter: EntryFilter) throws -> [Int64] {
        try days.map { day in
            var start = zone.startOfDay(day)
            var end = zone.startOfDay(day.adding(days: 1))
            if let from = filter.from { start = max(start, from) }
            if let to = filter.to { end = min(end, to) }
            guard end > start else { return 0 }
            return try total(in: Timespan(start: start, end: end), now: now, matching: filter)
        }
    }

    /// Time inside `span` per project, client or tag, largest first, for
    /// the entries `filter` keeps (its names; the span is the window).
    /// Entries are clipped to the span; the running entry counts up to
    /// `now`. By tag, an entry counts under each of its tags.
    public func summary(in span: Timespan, now: Instant, by grouping: Grouping,
                        matching filter: EntryFilter = EntryFilter()) throws -> Summary {
        try read { db in
            let (names, args) = try overlapCondition(db, filter)
            let clip = #"SUM(MAX(0, MIN(ifnull(e."end", \#(now.seconds)), \#(span.end.seconds)) - MAX(e.start, \#(span.start.seconds))))"#
            // Grouping by tag list too lets one query serve every grouping.
            let rows = try Row.fetchAll(db, sql: """
                SELECT t.project_id, p.name AS project, c.name AS client, p.billable, p.rate_cents, t.tags, t.secs, t.n
                FROM (
                    SELECT e.project_id, e.tags, \(clip) AS secs, count(*) AS n
                    FROM (\(Store.overlapping(span, columns: #"e.project_id, e.tags, e.start, e."end""#, names: names))) e
                    GROUP BY e.project_id, e.tags
                ) t
                LEFT JOIN project p ON p.id = t.project_id
                LEFT JOIN client c ON c.id = p.client_id
                """, arguments: args)
            return Store.summary(of: rows, by: grouping)
        }
    }

    /// The filter's condition for ``overlapping(_:columns:names:)``: its
    /// SQL after " AND ", and its arguments twice; empty when it has none.
    private func overlapCondition(_ db: Database, _ filter: EntryFilter) throws -> (String, StatementArguments) {
        guard !filter.namesNothing else { return ("", []) }
        let condition = try condition(db, filter)
        return (" AND " + condition.sql, condition.arguments + condition.arguments)
    }

    /// Every entry `filter` keeps (its names, description and billing)
    /// that overlaps `span`, whole, in start order: finished ones that end
    /// after the span starts and the running one if it started before the
    /// span ends. What `trackee report` adds up, in one query.
    public func entries(overlapping span: Timespan, matching filter: EntryFilter = EntryFilter()) throws -> [Entry] {
        try read { db in
            let (names, args) = try overlapCondition(db, filter)
            let source = "(" + Store.overlapping(span, columns: "e.*", names: names) + ") e"
            // A cursor: each row is read where SQLite holds it, not copied first.
            let rows = try Row.fetchCursor(db, sql: Store.entrySelect(from: source) + " ORDER BY e.start, e.id", arguments: args)
            var entries: [Entry] = []
            while let row = try rows.next() { entries.append(Store.entry(from: row)) }
            return entries
        }
    }

    /// Adds up rows of (project, tag list, seconds, entries) into lines.
    /// Amounts are rounded per project and line, so a client's amount is
    /// the sum of its projects' as `summary --by project` shows them.
    private static func summary(of rows: [Row], by grouping: Grouping) -> Summary {
        struct Line {
            var line: SummaryLine
            var billedSeconds: [Int64: (rate: Int64, seconds: Int64)] = [:]
        }
        var lines: [String?: Line] = [:]
        var order: [String?] = []
        var total = Summary(lines: [], seconds: 0, billableSeconds: 0, amountCents: nil)
        var billed: [Int64: (rate: Int64, seconds: Int64)] = [:]
        func amount(_ projects: [Int64: (rate: Int64, seconds: Int64)]) -> Int64? {
            projects.isEmpty ? nil : projects.values.reduce(0) { $0 + ($1.rate * $1.seconds + 1800) / 3600 }
        }
        for row in rows {
            let seconds: Int64 = row["secs"]
            if seconds == 0 { continue }
            let entries: Int = row["n"]
            let projectID: Int64? = row["project_id"]
            let project: String? = row["project"]
            let client: String? = row["client"]
            let billable = (row["billable"] as Bool?) ?? false
            let rate: Int64? = billable ? row["rate_cents"] : nil
            let billableSeconds = billable ? seconds : 0
            total.seconds += seconds
            total.billableSeconds += billableSeconds
            if let projectID, let rate { billed[projectID, default: (rate, 0)].seconds += seconds }
            let keys: [String?]
            switch grouping {
            // A project name can exist under several clients: the line's
            // key holds both.
            case .project: keys = [project.map { $0 + "\u{0}" + (client ?? "") }]
            case .client: keys = [client]
            case .tag:
                let tags = Tags.decode(row["tags"])
                keys = tags.isEmpty ? [nil] : tags
            }
            for key in keys {
                if lines[key] == nil {
                    let name: String? = grouping == .project ? project : key
                    lines[key] = Line(line: SummaryLine(
                        name: name, client: grouping == .project ? client : nil, seconds: 0, billableSeconds: 0,
                        amountCents: nil, entries: 0))
                    order.append(key)
                }
                lines[key]!.line.seconds += seconds
                lines[key]!.line.billableSeconds += billableSeconds
                lines[key]!.line.entries += entries
                if let projectID, let rate { lines[key]!.billedSeconds[projectID, default: (rate, 0)].seconds += seconds }
            }
        }
        total.amountCents = amount(billed)
        total.lines = order.map { key in
            var line = lines[key]!.line
            line.amountCents = amount(lines[key]!.billedSeconds)
            return line
        }.sorted {
            $0.seconds != $1.seconds ? $0.seconds > $1.seconds : ($0.name ?? "") < ($1.name ?? "")
        }
        return total
    }

    /// Calls `body` with every finished entry starting in `[from, to)`, in
    /// start order, streaming rows rather than loading them all.
    public func forEachFinished(from: Instant?, to: Instant?, _ body: (Entry) throws -> Void) throws {
        try read { db in
            var sql = Store.entrySelect + " WHERE e.\"end\" IS NOT NULL"
            var args: StatementArguments = []
            if let from {
                sql += " AND e.start >= ?"
                _ = args.append(contentsOf: [from.seconds])
            }
            if let to {
                sql += " AND e.start < ?"
                _ = args.append(contentsOf: [to.seconds])
            }
            sql += " ORDER BY e.start, e.id"
            let rows = try Row.fetchCursor(db, sql: sql, arguments: args)
            while let row = try rows.next() {
                try body(Store.entry(from: row))
            }
        }
    }

    /// The finished entries starting in `[from, to)` as `exporter` writes
    /// them, header to footer, handed to `write` in pieces of at least
    /// `piece` bytes (the last may be shorter), so a large export streams:
    /// what `trackee export` and `GET /v1/entries` both write.
    public func export(
        _ exporter: Exporter, from: Instant?, to: Instant?, zone: Zone, piece: Int = 1 << 16,
        _ write: (String) throws -> Void
    ) throws {
        var buffer = exporter.header()
        var first = true
        try forEachFinished(from: from, to: to) { e in
            guard let end = e.end else { return }
            buffer += exporter.row(ExportRecord(e, end: end, zone: zone), first: first)
            first = false
            if buffer.utf8.count >= piece {
                try write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        buffer += exporter.footer(empty: first)
        try write(buffer)
    }

    /// How many entries the store holds, the running one included.
    public func entryCount() throws -> Int {
        try read { db in try EntryRecord.fetchCount(db) }
    }
}
