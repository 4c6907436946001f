import TrackeeReport

/// The report as an A4 PDF: the title block, then by kind: `summary` a bar
/// per group, a stacked bar per day by project and the table of groups;
/// `detailed` the entries under their groups with subtotals; `weekly` the
/// grid of days and the stacked bar per day. A chart that does not fit
/// starts a page, the summary's table starts one, and a table that runs
/// over a page goes on with its header repeated.
struct PDFReport {
    static func write(_ report: Report, to path: String) throws(ToolError) {
        let canvas = try PDFCanvas(path: path, title: report.title)
        var document = PDFReport(report: report, canvas: canvas)
        document.draw()
        document.footer()
        try canvas.finish(path)
    }

    /// A table's column: its heading, width in points, right-aligned or not.
    struct Column {
        var title: String
        var width: Double
        var right = false
    }

    /// A table's row: its cells, how it is set, how far its first cell is indented.
    struct Row {
        enum Style { case plain, heading, subtotal, total }
        var cells: [String]
        var style = Style.plain
        var level = 0
    }

    let report: Report
    let canvas: PDFCanvas
    /// Each project's, in `Report.projects`' order, found through `projectIndex`.
    let colors: [RGB]
    let projectIndex: ReportProjectIndex
    let margin = 40.0
    var page = 1
    var y: Double

    init(report: Report, canvas: PDFCanvas) {
        self.report = report
        self.canvas = canvas
        colors = ReportText.colors(report)
        projectIndex = ReportProjectIndex(report)
        y = margin
    }

    var contentWidth: Double { canvas.width - 2 * margin }
    var bottom: Double { canvas.height - margin - 14 }

    mutating func draw() {
        titleBlock()
        guard report.total.entries > 0 || !report.groups.isEmpty else {
            canvas.font(size: 11)
            canvas.text("Nothing was tracked in this range.", x: margin, y: y + 14)
            return
        }
        switch report.kind {
        case .summary:
            // The charts together (the days' on a page of their own when
            // the groups' bars leave too little room), then the table.
            groupBars()
            y += 12
            room(330)
            dayChart()
            section()
            groupTable()
        case .detailed:
            entriesTable()
        case .weekly:
            // The grid, then each day's time by project as the summary draws it.
            weekGrid()
            y += 12
            room(330)
            dayChart()
        }
    }

    // MARK: pages

    /// The page's foot: the title and the page's number.
    func footer() {
        canvas.font(size: 7)
        let text = "\(report.title) · page \(page)"
        canvas.text(canvas.fit(text, contentWidth), x: margin, y: canvas.height - margin + 10, color: .grey)
    }

    mutating func newPage() {
        footer()
        canvas.nextPage()
        page += 1
        y = margin
    }

    /// A new section: a new page.
    mutating func section() { newPage() }

    /// Room for `height` more points on this page, or a new page.
    /// Returns whether a page was started.
    @discardableResult
    mutating func room(_ height: Double) -> Bool {
        guard y + height > bottom else { return false }
        newPage()
        return true
    }

    mutating func heading(_ text: String) {
        room(40)
        canvas.font(size: 13, bold: true)
        canvas.text(canvas.fit(text, contentWidth), x: margin, y: y + 13)
        y += 24
    }

    // MARK: the title block

    mutating func titleBlock() {
        canvas.font(size: 18, bold: true)
        canvas.text(canvas.fit(report.title, contentWidth), x: margin, y: y + 18)
        y += 30
        canvas.font(size: 9, bold: true)
        let labelWidth = ReportText.titleBlock(report).map { canvas.width($0.label) }.max() ?? 0
        for line in ReportText.titleBlock(report) {
            canvas.font(size: 9, bold: true)
            canvas.text(line.label, x: margin, y: y + 9, color: .grey)
            canvas.font(size: 9)
            canvas.text(canvas.fit(line.value, contentWidth - labelWidth - 10), x: margin + labelWidth + 10, y: y + 9)
            y += 13
        }
        y += 4
        canvas.font(size: 10, bold: true)
        canvas.text(canvas.fit(ReportText.totalLine(report), contentWidth), x: margin, y: y + 10)
        y += 16
        canvas.line(x1: margin, y1: y, x2: margin + contentWidth, y2: y)
        y += 14
    }

    // MARK: summary

    /// `By client, then project`.
    var groupingTitle: String {
        report.grouping.isEmpty ? "Total" : "By " + report.grouping.map(\.rawValue).joined(separator: ", then ")
    }

    /// One bar per first-level group, longest as wide as there is room;
    /// by project in the projects' colours, by another grouping then by
    /// project in stacked colours, otherwise in one colour.
    mutating func groupBars() {
        heading(groupingTitle)
        let labelWidth = 150.0, valueWidth = 48.0
        let barRoom = contentWidth - labelWidth - valueWidth - 10
        let longest = Double(max(1, report.groups.map(\.totals.seconds).max() ?? 1))
        for group in report.groups {
            if room(16) { heading(groupingTitle + " (continued)") }
            canvas.font(size: 8)
            canvas.text(canvas.fit(group.label, labelWidth - 6), x: margin, y: y + 10)
            var x = margin + labelWidth
            for (seconds, color) in segments(group) {
                let width = barRoom * Double(seconds) / longest
                canvas.fill(x: x, y: y + 2, width: width, height: 10, color: color)
                x += width
            }
            canvas.text(ReportText.duration(group.totals.seconds), x: x + 4, y: y + 10)
            y += 15
        }
    }

    /// A group's bar, in pieces: by project when its own or its second
    /// level is the project and the pieces add up to it.
    func segments(_ group: ReportGroup) -> [(Int64, RGB)] {
        if report.grouping.first == .project { return [(group.totals.seconds, color(of: group, in: nil))] }
        if report.grouping.dropFirst().first == .project, !group.groups.isEmpty,
           group.groups.reduce(0, { $0 + $1.totals.seconds }) == group.totals.seconds
        {
            return group.groups.map { ($0.totals.seconds, color(of: $0, in: group)) }
        }
        return [(group.totals.seconds, .neutral)]
    }

    /// A project group's colour (`ReportProjectIndex.project(of:in:)`).
    func color(of group: ReportGroup, in outer: ReportGroup?) -> RGB {
        projectIndex.project(of: group, in: outer, report).map { colors[$0] } ?? .neutral
    }

    /// A stacked bar per day by project, with hour lines and a legend.
    mutating func dayChart() {
        heading("Each day, by project")
        let axis = 30.0, chartHeight = 220.0
        let x0 = margin + axis, chartWidth = contentWidth - axis
        let base = y + 4 + chartHeight
        let most = report.days.map(\.seconds).max() ?? 0
        let step = Self.hourStep(most)
        let scale = Double(max(1, (most + step - 1) / step) * step)
        canvas.font(size: 7)
        var mark: Int64 = 0
        while Double(mark) <= scale {
            let lineY = base - chartHeight * Double(mark) / scale
            canvas.line(x1: x0, y1: lineY, x2: x0 + chartWidth, y2: lineY, width: mark == 0 ? 0.8 : 0.3)
            let label = "\(mark / 3600)h"
            canvas.text(label, x: x0 - 4 - canvas.width(label), y: lineY + 2.5, color: .grey)
            mark += step
        }
        let count = max(1, report.days.count)
        let slot = chartWidth / Double(count)
        let barWidth = max(0.5, slot * (count > 60 ? 0.9 : 0.7))
        for (index, day) in report.days.enumerated() {
            var barTop = base
            let x = x0 + slot * Double(index) + (slot - barWidth) / 2
            for slice in day.projects {
                let h = chartHeight * Double(slice.seconds) / scale
                barTop -= h
                canvas.fill(x: x, y: barTop, width: barWidth, height: h, color: projectIndex[slice].map { colors[$0] } ?? .neutral)
            }
            if let label = dayLabel(day.date, index: index, count: count) {
                canvas.text(label, x: x0 + slot * Double(index) + slot / 2 - canvas.width(label) / 2, y: base + 10,
                            color: .grey)
            }
        }
        y = base + 24
        legend()
    }

    /// Hour lines every 1, 2, 4, 6, 8, 12 or 24 hours: at most six.
    static func hourStep(_ most: Int64) -> Int64 {
        for hours: Int64 in [1, 2, 4, 6, 8, 12, 24] where most / (hours * 3600) <= 5 { return hours * 3600 }
        return (most / 5 / 86_400 + 1) * 86_400
    }

    /// `Mon 23` for a fortnight or less, `11-23` each Monday up to two
    /// months, `Jan` on each month's first day beyond.
    func dayLabel(_ date: String, index: Int, count: Int) -> String? {
        guard let day = WallTime(date) else { return nil }
        if count <= 14 { return "\(day.weekday) \(day.day)" }
        if count <= 62 { return day.weekday == "Mon" ? String(date.dropFirst(5)) : nil }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return day.day == 1 ? months[day.month - 1] : nil
    }

    /// Each project's colour, name and time, flowing in lines.
    mutating func legend() {
        canvas.font(size: 8)
        var x = margin
        room(14)
        for (index, project) in report.projects.enumerated() {
            let text = canvas.fit("\(ReportText.projectName(project.name)) \(ReportText.duration(project.seconds))", 220)
            let width = 14 + canvas.width(text) + 14
            if x + width > margin + contentWidth, x > margin {
                x = margin
                y += 13
                room(14)
                canvas.font(size: 8)
            }
            canvas.fill(x: x, y: y + 2, width: 9, height: 9, color: colors[index])
            canvas.text(text, x: x + 13, y: y + 10)
            x += width
        }
        y += 18
    }

    /// Every group, the second level indented under the first, with totals.
    mutating func groupTable() {
        heading(groupingTitle)
        let columns = [
            Column(title: "Group", width: contentWidth - 290), Column(title: "Duration", width: 60, right: true),
            Column(title: "Billable", width: 60, right: true), Column(title: "Entries", width: 50, right: true),
            Column(title: "Amount", width: 120, right: true),
        ]
        var rows: [Row] = []
        func add(_ group: ReportGroup, level: Int) {
            rows.append(Row(cells: [group.label] + totals(group.totals, entries: true),
                            style: level == 0 && !group.groups.isEmpty ? .heading : .plain, level: level))
            for sub in group.groups { add(sub, level: level + 1) }
        }
        for group in report.groups { add(group, level: 0) }
        rows.append(Row(cells: ["Total"] + totals(report.total, entries: true), style: .total))
        table(columns, rows)
    }

    func totals(_ t: ReportTotals, entries: Bool) -> [String] {
        [ReportText.duration(t.seconds), ReportText.duration(t.billableSeconds)] + (entries ? ["\(t.entries)"] : [])
            + [ReportText.money(t.amountCents, report)]
    }

    // MARK: detailed

    /// Each last-level group's entries under its headings, a subtotal after each group.
    mutating func entriesTable() {
        heading("Entries, " + groupingTitle.prefix(1).lowercased() + groupingTitle.dropFirst())
        let columns = [
            Column(title: "Date", width: 56), Column(title: "Time", width: 84),
            Column(title: "Description", width: contentWidth - 56 - 84 - 74 - 46 - 82),
            Column(title: "Tags", width: 74), Column(title: "Duration", width: 46, right: true),
            Column(title: "Amount", width: 82, right: true),
        ]
        var byID: [String: ReportEntry] = [:]
        for entry in report.entries ?? [] { byID[entry.id] = entry }
        let showProject = !report.grouping.contains(.project)
        var rows: [Row] = []
        func add(_ group: ReportGroup, level: Int) {
            rows.append(Row(cells: [group.label], style: .heading, level: level))
            for sub in group.groups { add(sub, level: level + 1) }
            for id in group.entryIDs ?? [] {
                guard let entry = byID[id] else { continue }
                rows.append(Row(cells: entryCells(entry, showProject: showProject)))
            }
            rows.append(Row(cells: ["Subtotal \(group.label)", "", "", "", ReportText.duration(group.totals.seconds),
                                    ReportText.money(group.totals.amountCents, report)], style: .subtotal, level: level))
        }
        for group in report.groups { add(group, level: 0) }
        rows.append(Row(cells: ["Total", "", "", "", ReportText.duration(report.total.seconds),
                                ReportText.money(report.total.amountCents, report)], style: .total))
        table(columns, rows)
    }

    func entryCells(_ entry: ReportEntry, showProject: Bool) -> [String] {
        let start = WallTime(entry.start)
        let end = entry.end.flatMap(WallTime.init)
        var time = start?.time ?? entry.start
        // An end on another day with its date: `23:00–11-26 01:00`.
        time += "–" + (entry.running ? "running" : end.map { $0.date == start?.date ? $0.time : "\($0.date.dropFirst(5)) \($0.time)" } ?? "")
        var description = entry.description
        if showProject { description = ReportText.projectName(entry.project) + (description.isEmpty ? "" : " · " + description) }
        let tags = entry.tags.map { $0.contains(",") ? "\"\($0)\"" : $0 }.joined(separator: ", ")
        return [start?.date ?? "", time, description, tags, ReportText.duration(entry.roundedSeconds),
                ReportText.money(entry.amountCents, report)]
    }

    // MARK: weekly

    /// The grid: a row per group, a column per day, seven days a table,
    /// the rows' totals in the last table, the columns' totals under each.
    mutating func weekGrid() {
        guard let week = report.weekly else { return }
        let chunks = stride(from: 0, to: max(week.days.count, 1), by: 7).map { $0..<min($0 + 7, week.days.count) }
        for (index, chunk) in chunks.enumerated() {
            let last = index == chunks.count - 1
            if chunks.count > 1, let first = week.days[safe: chunk.lowerBound], let end = week.days[safe: chunk.upperBound - 1] {
                if index > 0 { room(120) }
                heading("\(first) – \(end)")
            } else {
                heading("Week, by \(report.grouping.first?.rawValue ?? "project")")
            }
            let dayWidth = 46.0, totalWidth = last ? 56.0 : 0
            var columns = [Column(title: "", width: contentWidth - dayWidth * Double(chunk.count) - totalWidth)]
            for day in chunk {
                let date = WallTime(week.days[day])
                columns.append(Column(title: date.map { "\($0.weekday) \($0.day)" } ?? week.days[day], width: dayWidth, right: true))
            }
            if last { columns.append(Column(title: "Total", width: totalWidth, right: true)) }
            func cell(_ seconds: Int64) -> String { seconds == 0 ? "" : ReportText.duration(seconds) }
            var rows = week.rows.map { row in
                Row(cells: [row.label] + chunk.map { cell(row.secondsByDay[safe: $0] ?? 0) }
                    + (last ? [ReportText.duration(row.seconds)] : []))
            }
            rows.append(Row(cells: ["Total"] + chunk.map { ReportText.duration(week.totals[safe: $0] ?? 0) }
                            + (last ? [ReportText.duration(week.seconds)] : []), style: .total))
            table(columns, rows)
            y += 10
        }
    }

    // MARK: tables

    /// Draws `rows` under `columns`' headings; a row that does not fit
    /// starts a page, which repeats the headings.
    mutating func table(_ columns: [Column], _ rows: [Row]) {
        let rowHeight = 13.0
        func header(_ d: inout PDFReport) {
            d.canvas.fill(x: d.margin, y: d.y, width: d.contentWidth, height: rowHeight + 2, color: .shade)
            d.canvas.font(size: 8, bold: true)
            d.cells(columns, columns.map(\.title), level: 0)
            d.y += rowHeight + 2
            d.canvas.line(x1: d.margin, y1: d.y, x2: d.margin + d.contentWidth, y2: d.y, color: .grey)
        }
        room(rowHeight * 3)
        header(&self)
        for row in rows {
            if room(rowHeight + 2) { header(&self) }
            switch row.style {
            case .plain:
                canvas.font(size: 8)
            case .heading, .subtotal:
                canvas.font(size: 8, bold: true)
            case .total:
                canvas.line(x1: margin, y1: y + 1, x2: margin + contentWidth, y2: y + 1, color: .black, width: 0.8)
                canvas.font(size: 8.5, bold: true)
            }
            cells(columns, row.cells, level: row.level)
            y += rowHeight
            if row.style == .subtotal {
                canvas.line(x1: margin, y1: y - 1, x2: margin + contentWidth, y2: y - 1)
                y += 3
            }
        }
    }

    /// One line of cells, each cut to its column; a left-aligned cell
    /// runs on over the empty cells after it (a group's heading, a subtotal's label).
    func cells(_ columns: [Column], _ values: [String], level: Int) {
        var x = margin
        for (index, column) in columns.enumerated() {
            defer { x += column.width }
            let value = values[safe: index] ?? ""
            guard !value.isEmpty else { continue }
            var width = column.width
            if !column.right {
                for next in columns.indices.dropFirst(index + 1) {
                    guard (values[safe: next] ?? "").isEmpty, !columns[next].right else { break }
                    width += columns[next].width
                }
            }
            let indent = index == 0 ? 10.0 * Double(level) : 0
            let text = canvas.fit(value, width - indent - 4)
            let left = column.right ? x + column.width - 2 - canvas.width(text) : x + indent + 2
            canvas.text(text, x: left, y: y + 9.5)
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
