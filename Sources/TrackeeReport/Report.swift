import TrackeeCore

/// One computed report (`trackee report`, `GET /v1/reports/{kind}`): every
/// format is drawn from this value, so their numbers agree to the second.
/// It is also the JSON `--json` prints (keys in snake_case) and the input
/// `trackee-report` reads to write PDF and XLSX.
///
/// Times are ISO 8601 in the report's zone; durations are whole seconds;
/// money is in cents of `currency`. Every total is the sum of what it
/// totals, after rounding (`roundingMinutes`), which is per entry.
public struct Report: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// Totals by a grouping (one or two levels), with a chart.
        case summary
        /// Every entry, grouped and subtotalled.
        case detailed
        /// A grid of days by the first grouping (Clockify's weekly report).
        case weekly
    }

    public var kind: Kind
    /// `week 2026-11-23 – 2026-11-29`, `2026-11`, `2026`, or the range.
    public var title: String
    public var from: String
    public var to: String
    /// The IANA zone the days are cut in: `Europe/Prague`.
    public var zone: String
    /// The grouping levels, outermost first: `["client", "project"]`.
    public var grouping: [ReportGrouping]
    /// 6 or 15 when `--round 6m|15m` was given: each entry's duration is
    /// rounded up to a multiple of it before anything is added.
    public var roundingMinutes: Int?
    /// The settings' currency (`EUR`); nil when no project has a rate.
    public var currency: String?
    /// The filters, as a person reads them on the report: `client Acme`,
    /// `tag "a,b"`, `billable only`, `description contains "review"`.
    public var filters: [String]
    /// When the report was made (the running timer counts up to it).
    public var generatedAt: String
    public var total: ReportTotals
    /// The first level's groups, each with its second level's.
    public var groups: [ReportGroup]
    /// Every day of the range, in order, with each project's seconds that
    /// day (the stacked bar per day), including days with none.
    public var days: [ReportDay]
    /// Every project in the report, largest first, with its chart colour.
    public var projects: [ReportProject]
    /// Each client's share (a project without client under `nil`).
    public var clients: [ReportShare]
    /// `detailed` only: every entry, in start order.
    public var entries: [ReportEntry]?
    /// `weekly` only.
    public var weekly: ReportWeek?
}

public enum ReportGrouping: String, Sendable, Codable, CaseIterable {
    case project, client, tag, day, week, description
}

public struct ReportTotals: Sendable, Codable, Equatable {
    public var seconds: Int64
    public var billableSeconds: Int64
    public var nonBillableSeconds: Int64
    /// Billable time times each project's hourly rate; nil when no
    /// billable project in the report has a rate.
    public var amountCents: Int64?
    public var entries: Int
}

public struct ReportGroup: Sendable, Codable, Equatable {
    /// The stored name (nil: no project, no client, no tag).
    public var name: String?
    /// What a person reads: `(no project)`, `Mon 2026-11-23`, `Acme / Docs`.
    public var label: String
    public var totals: ReportTotals
    /// The next level's groups; empty at the last level.
    public var groups: [ReportGroup]
    /// `detailed` only, at the last level: the ids of its entries (into
    /// `Report.entries`), in start order.
    public var entryIDs: [String]?

    /// `entry_ids` in the JSON: the snake-case strategies would write
    /// `entryIDs` as `entry_i_ds`, and read `entry_ids` back as `entryIds`.
    enum CodingKeys: String, CodingKey {
        case name, label, totals, groups
        case entryIDs = "entryIds"
    }
}

public struct ReportDay: Sendable, Codable, Equatable {
    /// `2026-11-23`.
    public var date: String
    public var seconds: Int64
    /// Each project's seconds that day, in `Report.projects` order, only
    /// those above zero.
    public var projects: [ReportSlice]
}

public struct ReportSlice: Sendable, Codable, Equatable {
    public var name: String?
    public var seconds: Int64
    /// The project's client: two projects of one name (Docs of Acme and
    /// Docs of Globex) are told apart by it, as in `Report.projects`.
    public var client: String? = nil
}

/// A project as the report tells it apart: two projects may share a name
/// (Docs of Acme and Docs of Globex), never a name and a client. Every
/// format finds a day's slice's project by it.
public struct ReportProjectKey: Sendable, Hashable {
    public var name: String?
    public var client: String?

    public init(name: String?, client: String?) {
        self.name = name
        self.client = client
    }
}

extension ReportProject {
    public var key: ReportProjectKey { ReportProjectKey(name: name, client: client) }
}

/// Where each project is in `Report.projects`: what a day's slice or a
/// group of the project grouping is of, as every format colours it.
public struct ReportProjectIndex: Sendable {
    let byKey: [ReportProjectKey: Int]
    /// By name alone, when one project has it.
    let byName: [String?: Int]

    public init(_ report: Report) {
        var byKey: [ReportProjectKey: Int] = [:]
        var named: [String?: [Int]] = [:]
        for (i, project) in report.projects.enumerated() {
            if byKey[project.key] == nil { byKey[project.key] = i }
            named[project.name, default: []].append(i)
        }
        self.byKey = byKey
        byName = named.compactMapValues { $0.count == 1 ? $0[0] : nil }
    }

    /// A slice's project by name and client; a slice without a client (as
    /// JSON written before slices had one) by its name, when one project
    /// has it.
    public subscript(slice: ReportSlice) -> Int? {
        byKey[ReportProjectKey(name: slice.name, client: slice.client)] ?? (slice.client == nil ? byName[slice.name] : nil)
    }

    /// A group of the project grouping: the project of its name; of
    /// several, the one of the client group it is in (`--by
    /// client,project`), else the one it is labelled as (`Docs (Acme)`);
    /// nil when none is.
    public func project(of group: ReportGroup, in outer: ReportGroup?, _ report: Report) -> Int? {
        if let only = byName[group.name] { return only }
        if let outer, report.grouping.first == .client, let i = byKey[ReportProjectKey(name: group.name, client: outer.name)] {
            return i
        }
        return report.projects.indices.first { i in
            let project = report.projects[i]
            return project.name == group.name
                && group.label == (project.name ?? "(no project)") + (project.client.map { " (\($0))" } ?? "")
        }
    }
}

public struct ReportProject: Sendable, Codable, Equatable {
    public var name: String?
    public var client: String?
    public var billable: Bool
    /// `#1f77b4`: from a fixed palette, by the project's rank, so the
    /// terminal, HTML, PDF and XLSX colour a project alike.
    public var color: String
    public var seconds: Int64
}

public struct ReportShare: Sendable, Codable, Equatable {
    public var name: String?
    public var seconds: Int64
    public var amountCents: Int64?
}

public struct ReportEntry: Sendable, Codable, Equatable {
    public var id: String
    public var start: String
    /// Nil for the running timer (counted up to `generatedAt`).
    public var end: String?
    /// Within the range (an entry across the range's edge is clipped).
    public var seconds: Int64
    /// `seconds` rounded as the report says; equal to it without rounding.
    public var roundedSeconds: Int64
    public var project: String?
    public var client: String?
    public var description: String
    public var tags: [String]
    public var billable: Bool
    public var amountCents: Int64?
    public var running: Bool
}

public struct ReportWeek: Sendable, Codable, Equatable {
    /// The dates of the columns: `2026-11-23` … (7 for a week, every day of the range otherwise).
    public var days: [String]
    public var rows: [ReportWeekRow]
    /// Each column's total.
    public var totals: [Int64]
    public var seconds: Int64
}

public struct ReportWeekRow: Sendable, Codable, Equatable {
    public var label: String
    public var secondsByDay: [Int64]
    public var seconds: Int64
}
