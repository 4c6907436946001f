import TrackeeCore
import TrackeeStore

/// What a report covers and how it is cut; everything but the entries.
public struct ReportRequest: Sendable {
    public var kind: Report.Kind
    /// The range, `[start, end)`; its days are cut in `zone`.
    public var span: Timespan
    /// `week 2026-11-23 – 2026-11-29`, `2026-11`, `2026` or the range.
    public var title: String
    public var zone: Zone
    /// One or two levels, outermost first, none repeated.
    public var grouping: [ReportGrouping]
    /// 6 or 15 to round each entry up to a multiple of that many minutes.
    public var roundingMinutes: Int?
    /// The settings' `currency:`.
    public var currency: String?
    /// The filters as a person reads them (``ReportFilters``).
    public var filters: [String]
    /// The running timer counts up to here; the report's `generatedAt`.
    public var now: Instant
    /// The first day of a `week` group.
    public var weekStart: Weekday

    public init(kind: Report.Kind, span: Timespan, title: String, zone: Zone, grouping: [ReportGrouping],
                roundingMinutes: Int? = nil, currency: String? = nil, filters: [String] = [], now: Instant,
                weekStart: Weekday = .monday) {
        self.kind = kind
        self.span = span
        self.title = title
        self.zone = zone
        self.grouping = grouping
        self.roundingMinutes = roundingMinutes
        self.currency = currency
        self.filters = filters
        self.now = now
        self.weekStart = weekStart
    }
}

/// Turns the entries of a range into a ``Report``: every entry clipped to
/// the range (the running one up to `now`), rounded up once if asked, then
/// split over the local days it touches and added to its groups.
///
/// Amounts follow `trackee summary`: per group, each billable project's
/// seconds times its hourly rate, rounded half up to the cent, summed; so
/// a report by project equals `summary --by project` to the cent.
public enum ReportBuilder {
    /// The chart colours, by a project's rank (largest first), repeating
    /// after the tenth: the same in every format.
    public static let palette = [
        "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
    ]

    /// The report of the entries `filter` keeps in the request's range,
    /// read from `store` in one query.
    public static func build(_ request: ReportRequest, store: Store, matching filter: EntryFilter) throws -> Report {
        build(request, entries: try store.entries(overlapping: request.span, matching: filter))
    }

    /// The report of `entries` (in start order; those outside the range
    /// count for nothing).
    public static func build(_ request: ReportRequest, entries: [Entry]) -> Report {
        var tally = Tally(request)
        for entry in entries { tally.add(entry) }
        return tally.report()
    }
}

/// A project as a report tells projects apart: a name can exist under
/// several clients.
private struct ProjectKey: Hashable {
    var name: String?
    var client: String?
}

/// A group's key at one level: the stored name (a date for `day` and
/// `week`), and for `project` the client.
private struct GroupKey: Hashable {
    var name: String?
    var client: String?
}

/// Time, billing and entries added up for one group, day or project.
private struct Counted {
    var seconds: Int64 = 0
    var billableSeconds: Int64 = 0
    var billed: [ProjectKey: (rate: Int64, seconds: Int64)] = [:]
    var entries = 0
    var lastEntry: Int64?

    /// Adds `seconds` of `entry`; returns true when the entry is new here.
    @discardableResult
    mutating func add(_ entry: Entry, _ seconds: Int64) -> Bool {
        self.seconds += seconds
        if entry.billable {
            billableSeconds += seconds
            if let rate = entry.rateCents {
                billed[ProjectKey(name: entry.project, client: entry.client), default: (rate, 0)].seconds += seconds
            }
        }
        guard lastEntry != entry.id else { return false }
        lastEntry = entry.id
        entries += 1
        return true
    }

    /// Per project, hours times rate rounded half up to the cent; nil
    /// without a billable project with a rate.
    var amountCents: Int64? {
        billed.isEmpty ? nil : billed.values.reduce(0) { $0 + ReportMoney.amount(rateCents: $1.rate, seconds: $1.seconds) }
    }

    var totals: ReportTotals {
        ReportTotals(seconds: seconds, billableSeconds: billableSeconds, nonBillableSeconds: seconds - billableSeconds,
                     amountCents: amountCents, entries: entries)
    }
}

/// Money as `trackee summary` reckons it.
public enum ReportMoney {
    /// `seconds` at `rateCents` an hour, rounded half up to the cent.
    public static func amount(rateCents: Int64, seconds: Int64) -> Int64 { (rateCents * seconds + 1800) / 3600 }
}

/// A group being filled: its totals, its next level, its entries and,
/// at the first level, its seconds per day (the weekly grid's row).
private final class Node {
    var counted = Counted()
    var children: [GroupKey: Node] = [:]
    var entryIDs: [String] = []
    var byDay: [Int64]

    init(days: Int) { byDay = Array(repeating: 0, count: days) }
}

private struct Tally {
    let request: ReportRequest
    /// Every local date of the range and the part of the range each covers.
    let dates: [LocalDate]
    let daySpans: [Timespan]
    var total = Counted()
    var root: Node
    var projects: [ProjectKey: (counted: Counted, billable: Bool)] = [:]
    var clients: [String?: Counted] = [:]
    var dayTotals: [Int64]
    var dayProjects: [[ProjectKey: Int64]]
    var entries: [ReportEntry] = []

    init(_ request: ReportRequest) {
        self.request = request
        var dates: [LocalDate] = []
        var spans: [Timespan] = []
        let span = request.span
        if span.end > span.start {
            var date = request.zone.localDate(span.start)
            while true {
                let start = max(request.zone.startOfDay(date), span.start)
                guard start < span.end else { break }
                let end = min(request.zone.startOfDay(date.adding(days: 1)), span.end)
                dates.append(date)
                spans.append(Timespan(start: start, end: end))
                date = date.adding(days: 1)
            }
        }
        self.dates = dates
        daySpans = spans
        root = Node(days: dates.count)
        dayTotals = Array(repeating: 0, count: dates.count)
        dayProjects = Array(repeating: [:], count: dates.count)
    }

    mutating func add(_ entry: Entry) {
        let span = request.span
        let start = max(entry.start, span.start)
        let end = min(entry.end ?? request.now, span.end)
        guard end > start else { return }
        let seconds = end - start
        let rounded = Self.rounded(seconds, minutes: request.roundingMinutes)
        // The entry's pieces by local day; the rounding's extra goes to
        // the day it ends on, so the days add up to the rounded entry.
        var pieces: [(day: Int, seconds: Int64)] = []
        var day = dates.first.map { Int(request.zone.localDate(start).daysSinceEpoch - $0.daysSinceEpoch) } ?? 0
        while day < daySpans.count, daySpans[day].start < end {
            let part = daySpans[day].overlap(start: start, end: end)
            if part > 0 { pieces.append((day, part)) }
            day += 1
        }
        guard !pieces.isEmpty else { return }
        pieces[pieces.count - 1].seconds += rounded - seconds

        let project = ProjectKey(name: entry.project, client: entry.project == nil ? nil : entry.client)
        total.add(entry, rounded)
        projects[project, default: (Counted(), entry.billable)].counted.add(entry, rounded)
        clients[entry.client, default: Counted()].add(entry, rounded)
        let levels = request.grouping
        // Only a detailed report lists its groups' entries.
        let id = request.kind == .detailed ? String(entry.id) : nil
        for (day, part) in pieces {
            dayTotals[day] += part
            dayProjects[day][project, default: 0] += part
            for outer in keys(levels[0], entry, dates[day]) {
                let node = root.child(outer, days: dates.count)
                node.counted.add(entry, part)
                node.byDay[day] += part
                guard levels.count > 1 else {
                    if let id, node.entryIDs.last != id { node.entryIDs.append(id) }
                    continue
                }
                for inner in keys(levels[1], entry, dates[day]) {
                    let leaf = node.child(inner, days: 0)
                    leaf.counted.add(entry, part)
                    if let id, leaf.entryIDs.last != id { leaf.entryIDs.append(id) }
                }
            }
        }
        if request.kind == .detailed {
            let zone = request.zone
            entries.append(ReportEntry(
                id: String(entry.id), start: zone.iso8601(entry.start), end: entry.end.map(zone.iso8601), seconds: seconds,
                roundedSeconds: rounded, project: entry.project, client: entry.client, description: entry.description,
                tags: entry.tags, billable: entry.billable,
                amountCents: entry.billable ? entry.rateCents.map { ReportMoney.amount(rateCents: $0, seconds: rounded) } : nil,
                running: entry.end == nil))
        }
    }

    /// `seconds` rounded up to a multiple of `minutes` (none stays none).
    static func rounded(_ seconds: Int64, minutes: Int?) -> Int64 {
        guard let minutes, minutes > 0 else { return seconds }
        let unit = Int64(minutes) * 60
        return (seconds + unit - 1) / unit * unit
    }

    /// The groups an entry's piece on `date` falls in at one level: one,
    /// or by tag one per tag.
    func keys(_ level: ReportGrouping, _ entry: Entry, _ date: LocalDate) -> [GroupKey] {
        switch level {
        case .project: return [GroupKey(name: entry.project, client: entry.project == nil ? nil : entry.client)]
        case .client: return [GroupKey(name: entry.client)]
        case .tag: return entry.tags.isEmpty ? [GroupKey()] : entry.tags.map { GroupKey(name: $0) }
        case .day: return [GroupKey(name: date.description)]
        case .week: return [GroupKey(name: weekStart(of: date).description)]
        case .description: return [GroupKey(name: entry.description.isEmpty ? nil : entry.description)]
        }
    }

    func weekStart(of date: LocalDate) -> LocalDate {
        date.adding(days: -((date.weekday - request.weekStart.rawValue + 7) % 7))
    }

    func label(_ level: ReportGrouping, _ key: GroupKey) -> String {
        switch level {
        case .project: return (key.name ?? "(no project)") + (key.client.map { " (\($0))" } ?? "")
        case .client: return key.name ?? "(no client)"
        case .tag: return key.name.map { "#" + $0 } ?? "(no tag)"
        case .description: return key.name ?? "(no description)"
        case .day:
            guard let date = key.name.flatMap(LocalDate.init(iso:)) else { return key.name ?? "" }
            return "\(Weekday(rawValue: date.weekday)?.shortName ?? "") \(date)"
        case .week:
            guard let date = key.name.flatMap(LocalDate.init(iso:)) else { return key.name ?? "" }
            return "week \(date) – \(date.adding(days: 6))"
        }
    }

    /// A level's groups in report order: days and weeks by date, the rest
    /// largest first (ties by name, as `summary` orders its lines).
    func ordered(_ node: Node, level: Int) -> [(key: GroupKey, value: Node)] {
        let grouping = request.grouping[level]
        return node.children.sorted { a, b in
            if grouping == .day || grouping == .week { return (a.key.name ?? "") < (b.key.name ?? "") }
            if a.value.counted.seconds != b.value.counted.seconds { return a.value.counted.seconds > b.value.counted.seconds }
            if (a.key.name ?? "") != (b.key.name ?? "") { return (a.key.name ?? "") < (b.key.name ?? "") }
            return (a.key.client ?? "") < (b.key.client ?? "")
        }
    }

    func groups(_ node: Node, level: Int) -> [ReportGroup] {
        let grouping = request.grouping[level]
        let last = level == request.grouping.count - 1
        return ordered(node, level: level).map { key, child in
            ReportGroup(
                name: key.name, label: label(grouping, key), totals: child.counted.totals,
                groups: last ? [] : groups(child, level: level + 1),
                entryIDs: last && request.kind == .detailed ? child.entryIDs : nil)
        }
    }

    func report() -> Report {
        let zone = request.zone
        let ranked = projects.sorted {
            $0.value.counted.seconds != $1.value.counted.seconds
                ? $0.value.counted.seconds > $1.value.counted.seconds
                : ($0.key.name ?? "", $0.key.client ?? "") < ($1.key.name ?? "", $1.key.client ?? "")
        }
        let palette = ReportBuilder.palette
        let reportProjects = ranked.enumerated().map { rank, item in
            ReportProject(name: item.key.name, client: item.key.client, billable: item.value.billable,
                          color: palette[rank % palette.count], seconds: item.value.counted.seconds)
        }
        let days = dates.indices.map { day in
            ReportDay(date: dates[day].description, seconds: dayTotals[day], projects: ranked.compactMap { key, _ in
                dayProjects[day][key].map { ReportSlice(name: key.name, seconds: $0, client: key.client) }
            })
        }
        let shares = clients.sorted {
            $0.value.seconds != $1.value.seconds ? $0.value.seconds > $1.value.seconds : ($0.key ?? "") < ($1.key ?? "")
        }.map { ReportShare(name: $0.key, seconds: $0.value.seconds, amountCents: $0.value.amountCents) }
        let groups = groups(root, level: 0)
        let totals = total.totals
        var weekly: ReportWeek?
        if request.kind == .weekly {
            weekly = ReportWeek(
                days: dates.map(\.description),
                rows: ordered(root, level: 0).map { key, node in
                    ReportWeekRow(label: label(request.grouping[0], key), secondsByDay: node.byDay, seconds: node.counted.seconds)
                },
                totals: dayTotals, seconds: totals.seconds)
        }
        return Report(
            kind: request.kind, title: request.title, from: zone.iso8601(request.span.start), to: zone.iso8601(request.span.end),
            zone: zone.identifier, grouping: request.grouping, roundingMinutes: request.roundingMinutes,
            currency: totals.amountCents == nil ? nil : request.currency, filters: request.filters,
            generatedAt: zone.iso8601(request.now), total: totals, groups: groups, days: days, projects: reportProjects,
            clients: shares, entries: request.kind == .detailed ? entries : nil, weekly: weekly)
    }
}

extension Node {
    func child(_ key: GroupKey, days: Int) -> Node {
        if let node = children[key] { return node }
        let node = Node(days: days)
        children[key] = node
        return node
    }
}

extension LocalDate {
    /// `2026-11-23`; nil for anything else.
    init?(iso text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
    }
}
