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
    case project, client
}

/// One line of a summary: time in a span for a project or a client.
public struct SummaryLine: Sendable, Equatable, Codable {
    /// The project or client name; nil for time with no project or client.
    public var name: String?
    /// For project lines, the project's client.
    public var client: String?
    public var seconds: Int64
    /// Hours times the hourly rate, in cents, when the project has a rate;
    /// for a client, the sum over its projects that have one.
    public var amountCents: Int64?
}

extension Store {
    static let entrySelect = """
        SELECT e.id, e.description, e.tags, e.start, e."end", e.source,
               p.name AS project, p.billable, p.rate_cents, c.name AS client
        FROM entry e
        LEFT JOIN project p ON p.id = e.project_id
        LEFT JOIN client c ON c.id = p.client_id
        """

    static func entry(from row: Row) -> Entry {
        let billable: Bool? = row["billable"]
        return Entry(
            id: row["id"], project: row["project"], client: row["client"], description: row["description"],
            tags: Tags.decode(row["tags"]), start: Instant(seconds: row["start"]),
            end: (row["end"] as Int64?).map { Instant(seconds: $0) }, source: row["source"],
            billable: billable ?? false, rateCents: row["rate_cents"])
    }

    /// Entries newest first: up to `limit`, older than `before` if given.
    public func log(limit: Int, before: LogCursor? = nil) throws -> [Entry] {
        try read { db in
            var sql = Store.entrySelect
            var args: StatementArguments = []
            switch before {
            case nil: break
            case .time(let t):
                sql += " WHERE e.start < ?"
                args = [t.seconds]
            case .entry(let id):
                guard let start = try Int64.fetchOne(db, sql: "SELECT start FROM entry WHERE id = ?", arguments: [id])
                else { throw StoreError.unknownEntry(id) }
                sql += " WHERE (e.start < ? OR (e.start = ? AND e.id < ?))"
                args = [start, start, id]
            }
            sql += " ORDER BY e.start DESC, e.id DESC LIMIT ?"
            _ = args.append(contentsOf: [limit])
            return try Row.fetchAll(db, sql: sql, arguments: args).map(Store.entry(from:))
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

    /// Time inside `span` per project or client, largest first. Entries are
    /// clipped to the span; the running entry counts up to `now`.
    public func summary(in span: Timespan, now: Instant, by grouping: Grouping) throws -> [SummaryLine] {
        try read { db in
            // The end index finds the few entries that end after the span
            // starts (without INDEXED BY the planner scans every row); the
            // running entry, which has no end, comes from its own index.
            let rows = try Row.fetchAll(db, sql: """
                SELECT p.name AS project, c.name AS client, p.rate_cents, t.secs
                FROM (
                    SELECT e.project_id, SUM(MAX(0, MIN(ifnull(e."end", :now), :to) - MAX(e.start, :from))) AS secs
                    FROM (
                        SELECT project_id, start, "end" FROM entry INDEXED BY entry_end
                        WHERE "end" > :from AND start < :to
                        UNION ALL
                        SELECT project_id, start, "end" FROM entry WHERE "end" IS NULL AND start < :to
                    ) e
                    GROUP BY e.project_id
                ) t
                LEFT JOIN project p ON p.id = t.project_id
                LEFT JOIN client c ON c.id = p.client_id
                """, arguments: ["now": now.seconds, "from": span.start.seconds, "to": span.end.seconds])
            var lines: [SummaryLine] = []
            for row in rows {
                let seconds: Int64 = row["secs"]
                if seconds == 0 { continue }
                let rate: Int64? = row["rate_cents"]
                let amount = rate.map { ($0 * seconds + 1800) / 3600 }
                let project: String? = row["project"]
                let client: String? = row["client"]
                switch grouping {
                case .project:
                    lines.append(SummaryLine(name: project, client: client, seconds: seconds, amountCents: amount))
                case .client:
                    if let i = lines.firstIndex(where: { $0.name == client }) {
                        lines[i].seconds += seconds
                        if let amount { lines[i].amountCents = (lines[i].amountCents ?? 0) + amount }
                    } else {
                        lines.append(SummaryLine(name: client, client: nil, seconds: seconds, amountCents: amount))
                    }
                }
            }
            return lines.sorted {
                $0.seconds != $1.seconds ? $0.seconds > $1.seconds : ($0.name ?? "") < ($1.name ?? "")
            }
        }
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

    /// How many entries the store holds, the running one included.
    public func entryCount() throws -> Int {
        try read { db in try EntryRecord.fetchCount(db) }
    }
}
