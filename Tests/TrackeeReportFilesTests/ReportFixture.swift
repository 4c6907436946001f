@testable import TrackeeReport

/// The week the report files are checked on, by hand: 2026-11-23 to 29 in
/// Europe/Prague, rounded up per entry to 15 min, in EUR, grouped by
/// client then project.
///
/// | entry | project | time | seconds → rounded | amount |
/// |---|---|---|---|---|
/// | e1 | `Café "Ü"` (Acme, Inc., 60 EUR/h) | Mon 09:00–10:30 | 5,400 | 90.00 |
/// | e2 | Docs (Acme, Inc., 90 EUR/h) | Tue 14:00–15:10 | 4,200 → 4,500 | 112.50 |
/// | e3 | `Café "Ü"` | Wed 23:00–Thu 01:00, across midnight | 7,200 | 120.00 |
/// | e4 | no project, non-billable | Fri 10:00, running at 11:20 | 4,800 → 5,400 | — |
///
/// Totals: 22,500 s (6:15), billable 17,100 (4:45), 322.50 EUR, 4 entries.
enum ReportFixture {
    static let cafe = "Café \"Ü\""
    static let client = "Acme, Inc."

    static func totals(_ seconds: Int64, billable: Int64, amount: Int64?, entries: Int) -> ReportTotals {
        ReportTotals(seconds: seconds, billableSeconds: billable, nonBillableSeconds: seconds - billable,
                     amountCents: amount, entries: entries)
    }

    static let entries = [
        ReportEntry(id: "e1", start: "2026-11-23T09:00:00+01:00", end: "2026-11-23T10:30:00+01:00", seconds: 5400,
                    roundedSeconds: 5400, project: cafe, client: client, description: "Review \"draft\", part 1",
                    tags: ["a,b", "ünï"], billable: true, amountCents: 9000, running: false),
        ReportEntry(id: "e2", start: "2026-11-24T14:00:00+01:00", end: "2026-11-24T15:10:00+01:00", seconds: 4200,
                    roundedSeconds: 4500, project: "Docs", client: client, description: "Zürich notes", tags: [],
                    billable: true, amountCents: 11250, running: false),
        ReportEntry(id: "e3", start: "2026-11-25T23:00:00+01:00", end: "2026-11-26T01:00:00+01:00", seconds: 7200,
                    roundedSeconds: 7200, project: cafe, client: client, description: "Night release", tags: [],
                    billable: true, amountCents: 12000, running: false),
        ReportEntry(id: "e4", start: "2026-11-27T10:00:00+01:00", end: nil, seconds: 4800, roundedSeconds: 5400,
                    project: nil, client: nil, description: "Reading", tags: [], billable: false, amountCents: nil,
                    running: true),
    ]

    static let groups = [
        ReportGroup(name: client, label: client, totals: totals(17100, billable: 17100, amount: 32250, entries: 3), groups: [
            ReportGroup(name: cafe, label: cafe, totals: totals(12600, billable: 12600, amount: 21000, entries: 2), groups: [],
                        entryIDs: ["e1", "e3"]),
            ReportGroup(name: "Docs", label: "Docs", totals: totals(4500, billable: 4500, amount: 11250, entries: 1), groups: [],
                        entryIDs: ["e2"]),
        ], entryIDs: nil),
        ReportGroup(name: nil, label: "(no client)", totals: totals(5400, billable: 0, amount: nil, entries: 1), groups: [
            ReportGroup(name: nil, label: "(no project)", totals: totals(5400, billable: 0, amount: nil, entries: 1), groups: [],
                        entryIDs: ["e4"]),
        ], entryIDs: nil),
    ]

    static let dates = ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29"]

    static let days = [
        ReportDay(date: dates[0], seconds: 5400, projects: [ReportSlice(name: cafe, seconds: 5400)]),
        ReportDay(date: dates[1], seconds: 4500, projects: [ReportSlice(name: "Docs", seconds: 4500)]),
        ReportDay(date: dates[2], seconds: 3600, projects: [ReportSlice(name: cafe, seconds: 3600)]),
        ReportDay(date: dates[3], seconds: 3600, projects: [ReportSlice(name: cafe, seconds: 3600)]),
        ReportDay(date: dates[4], seconds: 5400, projects: [ReportSlice(name: nil, seconds: 5400)]),
        ReportDay(date: dates[5], seconds: 0, projects: []),
        ReportDay(date: dates[6], seconds: 0, projects: []),
    ]

    static func report(_ kind: Report.Kind) -> Report {
        Report(
            kind: kind, title: "week 2026-11-23 – 2026-11-29", from: "2026-11-23", to: "2026-11-29", zone: "Europe/Prague",
            grouping: [.client, .project], roundingMinutes: 15, currency: "EUR",
            filters: ["client \"Acme, Inc.\" or none", "tag \"a,b\""], generatedAt: "2026-11-27T11:20:00+01:00",
            total: totals(22500, billable: 17100, amount: 32250, entries: 4), groups: groups, days: days,
            projects: [
                ReportProject(name: cafe, client: client, billable: true, color: "#1f77b4", seconds: 12600),
                ReportProject(name: nil, client: nil, billable: false, color: "#ff7f0e", seconds: 5400),
                ReportProject(name: "Docs", client: client, billable: true, color: "#2ca02c", seconds: 4500),
            ],
            clients: [ReportShare(name: client, seconds: 17100, amountCents: 32250),
                      ReportShare(name: nil, seconds: 5400, amountCents: nil)],
            entries: kind == .detailed ? entries : nil,
            weekly: kind == .weekly
                ? ReportWeek(days: dates, rows: [
                    ReportWeekRow(label: client, secondsByDay: [5400, 4500, 3600, 3600, 0, 0, 0], seconds: 17100),
                    ReportWeekRow(label: "(no client)", secondsByDay: [0, 0, 0, 0, 5400, 0, 0], seconds: 5400),
                ], totals: [5400, 4500, 3600, 3600, 5400, 0, 0], seconds: 22500)
                : nil)
    }

    /// By tag, where e1 is under both its tags: the groups add up to more
    /// than the total, which counts e1 once.
    static func byTag() -> Report {
        var report = report(.summary)
        report.grouping = [.tag]
        report.total = totals(5400, billable: 5400, amount: 9000, entries: 1)
        report.groups = [
            ReportGroup(name: "a,b", label: "a,b", totals: totals(5400, billable: 5400, amount: 9000, entries: 1), groups: [],
                        entryIDs: nil),
            ReportGroup(name: "ünï", label: "ünï", totals: totals(5400, billable: 5400, amount: 9000, entries: 1), groups: [],
                        entryIDs: nil),
        ]
        report.days = dates.map { ReportDay(date: $0, seconds: $0 == dates[0] ? 5400 : 0,
                                            projects: $0 == dates[0] ? [ReportSlice(name: cafe, seconds: 5400)] : []) }
        report.projects = [ReportProject(name: cafe, client: client, billable: true, color: "#1f77b4", seconds: 5400)]
        report.clients = [ReportShare(name: client, seconds: 5400, amountCents: 9000)]
        return report
    }

    /// `count` entries of an hour, one a day from 2026-01-01, all under
    /// one project: a detailed report long enough to run over pages.
    static func long(_ count: Int) -> Report {
        var report = report(.detailed)
        report.grouping = [.project]
        report.roundingMinutes = nil
        report.filters = []
        var entries: [ReportEntry] = []
        for i in 0..<count {
            let day = "2026-\(i / 28 + 1 < 10 ? "0" : "")\(i / 28 + 1)-\(i % 28 + 1 < 10 ? "0" : "")\(i % 28 + 1)"
            entries.append(ReportEntry(id: "l\(i)", start: "\(day)T08:00:00+01:00", end: "\(day)T09:00:00+01:00",
                                       seconds: 3600, roundedSeconds: 3600, project: "Docs", client: client,
                                       description: "Task \(i)", tags: [], billable: true, amountCents: 9000,
                                       running: false))
        }
        let seconds = Int64(count) * 3600
        report.total = totals(seconds, billable: seconds, amount: Int64(count) * 9000, entries: count)
        report.entries = entries
        report.groups = [ReportGroup(name: "Docs", label: "Docs", totals: report.total, groups: [],
                                     entryIDs: entries.map(\.id))]
        report.projects = [ReportProject(name: "Docs", client: client, billable: true, color: "#1f77b4", seconds: seconds)]
        report.days = entries.map { ReportDay(date: String($0.start.prefix(10)), seconds: 3600,
                                              projects: [ReportSlice(name: "Docs", seconds: 3600)]) }
        report.clients = [ReportShare(name: client, seconds: seconds, amountCents: Int64(count) * 9000)]
        return report
    }
}
