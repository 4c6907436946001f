import TrackeeCore
@testable import TrackeeReport

/// Hand-made reports for the renderers' tests: a week of entries given by
/// day and clock (Europe/Prague in winter, +01:00, no DST), summed here
/// into a `Report` as the model describes it. The tests assert the
/// figures as literals worked out by hand, so a mistake here shows too.
enum ReportFixture {
    struct Project {
        var name: String
        var client: String?
        var billable: Bool
        /// Cents an hour.
        var rate: Int64?
    }

    struct Entry {
        var id: String
        /// 0 is Monday 2026-11-23.
        var day: Int
        var start: String
        /// Nil: the running timer, counted up to `generatedAt`.
        var end: String?
        var nextDay = false
        var project: String?
        var description: String
        var tags: [String] = []
    }

    static let monday = LocalDate(year: 2026, month: 11, day: 23)
    static let generatedAt = "2026-11-27T15:42:10+01:00"
    /// `generatedAt` in seconds after Monday 00:00.
    static let now: Int64 = 4 * 86_400 + 15 * 3600 + 42 * 60 + 10
    static let palette = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7"]

    static let projects = [
        Project(name: "Docs", client: "Acme", billable: true, rate: 9000),
        Project(name: "API", client: "Acme", billable: true, rate: 12000),
        Project(name: "Website", client: "Globex Corp", billable: true, rate: 8000),
        Project(name: "Support", client: "Globex Corp", billable: false, rate: nil),
        Project(name: "Research", client: nil, billable: false, rate: nil),
        Project(name: "Q&A", client: "O'Brien & Co", billable: true, rate: 10000),
    ]

    /// A realistic week: six projects of three clients and none, an entry
    /// across midnight (Thursday to Friday), a tag with a comma, an entry
    /// without a project, the running timer on Friday afternoon, an empty
    /// weekend.
    static let entries = [
        Entry(id: "e01", day: 0, start: "08:30", end: "10:00", project: "Docs", description: "Install guide", tags: ["writing"]),
        Entry(id: "e02", day: 0, start: "10:15", end: "12:30", project: "API", description: "Rate limits", tags: ["dev", "review"]),
        Entry(id: "e03", day: 0, start: "13:30", end: "15:00", project: "Website", description: "Landing page", tags: ["design"]),
        Entry(id: "e04", day: 0, start: "15:00", end: "16:00", project: "Support", description: "Tickets"),
        Entry(id: "e05", day: 1, start: "09:00", end: "12:00", project: "API", description: "Pagination", tags: ["dev"]),
        Entry(id: "e06", day: 1, start: "13:00", end: "14:30", project: "Research", description: "Survey of time trackers' reports",
              tags: ["reading"]),
        Entry(id: "e07", day: 1, start: "14:30", end: "17:15", project: "Docs", description: "API reference", tags: ["writing"]),
        Entry(id: "e08", day: 2, start: "08:45", end: "11:45", project: "Website", description: "Checkout flow",
              tags: ["design", "client,urgent"]),
        Entry(id: "e09", day: 2, start: "12:30", end: "13:00", project: nil, description: "Email"),
        Entry(id: "e10", day: 2, start: "13:00", end: "16:30", project: "Q&A", description: "Test plan \"v2\" <draft>"),
        Entry(id: "e11", day: 3, start: "09:00", end: "11:00", project: "API", description: "Webhooks", tags: ["dev"]),
        Entry(id: "e12", day: 3, start: "11:00", end: "12:00", project: "Support", description: "Call with a customer"),
        Entry(id: "e13", day: 3, start: "13:00", end: "17:30", project: "Docs", description: "Tutorial", tags: ["writing"]),
        Entry(id: "e14", day: 3, start: "22:30", end: "00:45", nextDay: true, project: "Website", description: "Deploy"),
        Entry(id: "e15", day: 4, start: "09:00", end: "12:15", project: "Research", description: "Prototype charts"),
        Entry(id: "e16", day: 4, start: "13:30", end: nil, project: "API", description: "Batch import", tags: ["dev"]),
    ]

    static func week(_ kind: Report.Kind) -> Report {
        make(kind, projects: projects, entries: entries)
    }

    /// The week's finished entries again each week for `weeks` weeks.
    static func weeks(_ weeks: Int) -> [Entry] {
        (0..<weeks).flatMap { week in
            entries.filter { $0.end != nil }.map { entry in
                var copy = entry
                copy.id += "w\(week)"
                copy.day += 7 * week
                return copy
            }
        }
    }

    static func seconds(_ clock: String) -> Int64 {
        let parts = clock.split(separator: ":").compactMap { Int64($0) }
        return parts[0] * 3600 + parts[1] * 60
    }

    static func iso(_ at: Int64) -> String {
        let date = monday.adding(days: Int(at / 86_400))
        let s = Int(at % 86_400)
        return "\(date)T\(pad(s / 3600, 2)):\(pad(s / 60 % 60, 2)):\(pad(s % 60, 2))+01:00"
    }

    static func amount(_ project: Project?, _ seconds: Int64) -> Int64? {
        guard let project, project.billable, let rate = project.rate else { return nil }
        return (rate * seconds + 1800) / 3600
    }

    static func sum(_ amounts: [Int64?]) -> Int64? {
        let known = amounts.compactMap { $0 }
        return known.isEmpty ? nil : known.reduce(0, +)
    }

    /// The report of `entries` for the week: summary and detailed grouped
    /// by client and project, weekly by project. `rounding` (minutes)
    /// needs entries that end on the day they start.
    static func make(
        _ kind: Report.Kind, projects: [Project], entries: [Entry], rounding: Int? = nil, filters: [String] = [],
        currency: String? = "EUR", dayCount: Int = 7
    ) -> Report {
        let byName = Dictionary(uniqueKeysWithValues: projects.map { ($0.name, $0) })
        struct Span {
            var entry: Entry
            var start: Int64
            var end: Int64
            var seconds: Int64
        }
        let spans = entries.map { e -> Span in
            let start = Int64(e.day) * 86_400 + seconds(e.start)
            let end = e.end.map { Int64(e.day + (e.nextDay ? 1 : 0)) * 86_400 + seconds($0) } ?? now
            var length = end - start
            if let rounding {
                let step = Int64(rounding * 60)
                length = (length + step - 1) / step * step
            }
            return Span(entry: e, start: start, end: end, seconds: length)
        }
        func project(_ name: String?) -> Project? { name.flatMap { byName[$0] } }
        func totals(_ of: [Span]) -> ReportTotals {
            let billable = of.filter { project($0.entry.project)?.billable == true }.reduce(0) { $0 + $1.seconds }
            let all = of.reduce(0) { $0 + $1.seconds }
            var perProject: [String?: Int64] = [:]
            for span in of { perProject[span.entry.project, default: 0] += span.seconds }
            let money = sum(perProject.map { amount(project($0.key), $0.value) })
            return ReportTotals(seconds: all, billableSeconds: billable, nonBillableSeconds: all - billable,
                                amountCents: money, entries: of.count)
        }
        /// Groups by `key`, largest first (then by label).
        func grouped(_ of: [Span], _ key: (Span) -> String?, _ none: String) -> [(String?, String, [Span])] {
            var order: [String?] = []
            var members: [String?: [Span]] = [:]
            for span in of {
                let k = key(span)
                if members[k] == nil { order.append(k) }
                members[k, default: []].append(span)
            }
            return order.map { ($0, $0 ?? none, members[$0]!) }.sorted {
                let a = $0.2.reduce(0) { $0 + $1.seconds }, b = $1.2.reduce(0) { $0 + $1.seconds }
                return a != b ? a > b : $0.1 < $1.1
            }
        }
        // Each project's seconds per day (an entry across midnight split).
        var dayProject: [[String?: Int64]] = Array(repeating: [:], count: dayCount)
        for span in spans {
            for d in 0..<dayCount {
                let lo = max(span.start, Int64(d) * 86_400), hi = min(span.end, Int64(d + 1) * 86_400)
                if hi > lo { dayProject[d][span.entry.project, default: 0] += rounding == nil ? hi - lo : span.seconds }
            }
        }
        let projectGroups = grouped(spans, { $0.entry.project }, "(no project)")
        let reportProjects = projectGroups.enumerated().map { i, g in
            ReportProject(name: g.0, client: project(g.0)?.client, billable: project(g.0)?.billable ?? false,
                          color: palette[i % palette.count], seconds: totals(g.2).seconds)
        }
        let days = (0..<dayCount).map { d in
            ReportDay(date: "\(monday.adding(days: d))", seconds: dayProject[d].values.reduce(0, +),
                      projects: reportProjects.compactMap { p in
                          dayProject[d][p.name].map { ReportSlice(name: p.name, seconds: $0, client: p.client) }
                      })
        }
        let clients = grouped(spans, { project($0.entry.project)?.client }, "(no client)").map {
            ReportShare(name: $0.0, seconds: totals($0.2).seconds, amountCents: totals($0.2).amountCents)
        }
        let detailed = kind == .detailed
        var grouping: [ReportGrouping] = [.client, .project]
        var groups: [ReportGroup]
        if kind == .weekly {
            grouping = [.project]
            groups = projectGroups.map { ReportGroup(name: $0.0, label: $0.1, totals: totals($0.2), groups: []) }
        } else {
            groups = grouped(spans, { project($0.entry.project)?.client }, "(no client)").map { client in
                ReportGroup(
                    name: client.0, label: client.1, totals: totals(client.2),
                    groups: grouped(client.2, { $0.entry.project }, "(no project)").map {
                        ReportGroup(name: $0.0, label: $0.1, totals: totals($0.2), groups: [],
                                    entryIDs: detailed ? $0.2.map(\.entry.id) : nil)
                    })
            }
        }
        let week = kind != .weekly ? nil : ReportWeek(
            days: days.map(\.date),
            rows: reportProjects.map { p in
                let byDay = (0..<dayCount).map { dayProject[$0][p.name] ?? 0 }
                return ReportWeekRow(label: p.name ?? "(no project)", secondsByDay: byDay, seconds: byDay.reduce(0, +))
            },
            totals: days.map(\.seconds), seconds: days.reduce(0) { $0 + $1.seconds })
        let reportEntries = !detailed ? nil : spans.map { span in
            let p = project(span.entry.project)
            let raw = span.end - span.start
            return ReportEntry(
                id: span.entry.id, start: iso(span.start), end: span.entry.end == nil ? nil : iso(span.end), seconds: raw,
                roundedSeconds: span.seconds, project: span.entry.project, client: p?.client,
                description: span.entry.description, tags: span.entry.tags, billable: p?.billable ?? false,
                amountCents: amount(p, span.seconds), running: span.entry.end == nil)
        }
        let anyRate = projects.contains { $0.billable && $0.rate != nil }
        return Report(
            kind: kind, title: dayCount == 7 ? "week 2026-11-23 – 2026-11-29" : "2026-11-23 – \(days.last!.date)",
            from: "2026-11-23", to: days.last!.date, zone: "Europe/Prague",
            grouping: grouping, roundingMinutes: rounding, currency: anyRate ? currency : nil, filters: filters,
            generatedAt: generatedAt, total: totals(spans), groups: groups, days: days, projects: reportProjects,
            clients: clients, entries: reportEntries, weekly: week)
    }
}
