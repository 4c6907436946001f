import TrackeeReport

/// The report as a workbook, a sheet per section: `Report` (the title
/// block and the totals), then `Entries` (detailed) or `Week` (weekly),
/// `Summary` (the groups) and `Days` (each day by project). Durations are
/// Excel time values shown `[h]:mm`, amounts numbers in the currency,
/// dates dates; totals are formulas with their value stored, written as a
/// formula only where the rows really add up to the report's total (an
/// entry under several tags counts under each tag but once in a total;
/// there the total is the number, with a note saying so).
struct XLSXReport {
    static func write(_ report: Report, to path: String) throws(ToolError) {
        let book = try XLSXBook(path: path, currency: report.currency)
        let sheets = XLSXReport(report: report, book: book)
        sheets.about()
        switch report.kind {
        case .summary: break
        case .detailed: sheets.entries()
        case .weekly: sheets.week()
        }
        sheets.summary()
        sheets.days()
        try book.close()
    }

    /// A number the report totals, and how a cell shows it.
    struct Metric {
        var title: String
        var value: (ReportTotals) -> Int64?
        var style: XLSXBook.Style
        var boldStyle: XLSXBook.Style
        /// What one unit of `value` is in the cell: seconds in days, cents in units.
        var scale: Double
    }

    static let durationScale = 1.0 / 86_400
    static let notASum = "Not the sum of the rows above: an entry under several of them (several tags) counts under each, but once here."

    let report: Report
    let book: XLSXBook

    var metrics: [Metric] {
        [
            Metric(title: "Duration", value: \.seconds, style: .duration, boldStyle: .durationBold, scale: Self.durationScale),
            Metric(title: "Billable", value: \.billableSeconds, style: .duration, boldStyle: .durationBold,
                   scale: Self.durationScale),
            Metric(title: "Non-billable", value: \.nonBillableSeconds, style: .duration, boldStyle: .durationBold,
                   scale: Self.durationScale),
            Metric(title: "Amount" + (report.currency.map { " (\($0))" } ?? ""), value: \.amountCents, style: .money,
                   boldStyle: .moneyBold, scale: 0.01),
            Metric(title: "Entries", value: { Int64($0.entries) }, style: .integer, boldStyle: .integerBold, scale: 1),
        ]
    }

    // MARK: Report

    /// The title block and the totals, a label and a value a row.
    func about() {
        let sheet = book.sheet("Report")
        book.text(sheet, 0, 0, report.title, .bold)
        var row = 2
        for line in ReportText.titleBlock(report) {
            book.text(sheet, row, 0, line.label, .bold)
            if line.label == "Generated", let time = WallTime(line.value) {
                book.number(sheet, row, 1, time.excelSerial, .dateTime)
            } else {
                book.text(sheet, row, 1, line.value)
            }
            row += 1
        }
        for (label, text) in [("From", report.from), ("To", report.to)] {
            book.text(sheet, row, 0, label, .bold)
            if let date = WallTime(text) { book.number(sheet, row, 1, date.excelSerial, .date) } else { book.text(sheet, row, 1, text) }
            row += 1
        }
        row += 1
        for metric in metrics {
            guard let value = metric.value(report.total) else { continue }
            book.text(sheet, row, 0, metric.title, .bold)
            book.number(sheet, row, 1, Double(value) * metric.scale, metric.style)
            row += 1
        }
        book.columnWidth(sheet, 0, 0, 16)
        book.columnWidth(sheet, 1, 1, 60)
    }

    // MARK: Summary

    /// Every group: one level, or the second under the first (the first's
    /// row then totals its own with SUBTOTAL, which a total over the whole
    /// column leaves out); the total row last.
    func summary() {
        let sheet = book.sheet("Summary")
        let twoLevels = report.groups.contains { !$0.groups.isEmpty }
        let labels = twoLevels ? 2 : 1
        let levelNames = report.grouping.map { $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst() }
        book.text(sheet, 0, 0, levelNames.first ?? "Group", .header)
        if twoLevels { book.text(sheet, 0, 1, levelNames.dropFirst().first ?? "Subgroup", .header) }
        for (index, metric) in metrics.enumerated() { book.text(sheet, 0, labels + index, metric.title, .header) }
        var row = 1
        /// Whether every first-level row is its subgroups' SUBTOTAL, per metric.
        var allSubtotals = Array(repeating: true, count: metrics.count)
        var leaves: [[Int64?]] = Array(repeating: [], count: metrics.count)
        for group in report.groups {
            book.text(sheet, row, 0, group.label, twoLevels ? .bold : .text)
            let groupRow = row
            row += 1
            for sub in group.groups {
                book.text(sheet, row, 1, sub.label)
                for (index, metric) in metrics.enumerated() {
                    let value = metric.value(sub.totals)
                    leaves[index].append(value)
                    if let value { book.number(sheet, row, labels + index, Double(value) * metric.scale, metric.style) }
                }
                row += 1
            }
            for (index, metric) in metrics.enumerated() {
                let column = labels + index
                if group.groups.isEmpty {
                    leaves[index].append(metric.value(group.totals))
                    if let value = metric.value(group.totals) {
                        book.number(sheet, groupRow, column, Double(value) * metric.scale, twoLevels ? metric.boldStyle : metric.style)
                    }
                    continue
                }
                let formula = "=SUBTOTAL(9,\(Self.cell(groupRow + 1, column)):\(Self.cell(row - 1, column)))"
                let parts = group.groups.map { metric.value($0.totals) }
                if !total(sheet, groupRow, column, formula, parts: parts, value: metric.value(group.totals), metric, note: false) {
                    allSubtotals[index] = false
                }
            }
        }
        book.text(sheet, row, 0, "Total", .bold)
        for (index, metric) in metrics.enumerated() {
            let column = labels + index
            let range = "\(Self.cell(1, column)):\(Self.cell(max(1, row - 1), column))"
            let formula = twoLevels ? "=SUBTOTAL(9,\(range))" : "=SUM(\(range))"
            total(sheet, row, column, formula, parts: allSubtotals[index] ? leaves[index] : [nil, 0],
                  value: metric.value(report.total), metric, note: true)
        }
        book.freeze(sheet, rows: 1, columns: 0)
        book.columnWidth(sheet, 0, labels - 1, 28)
        book.columnWidth(sheet, labels, labels + metrics.count - 1, 13)
    }

    /// Writes `value` at the cell: as `formula` when `parts` add up to it,
    /// else as the number (with a note when `note`). Returns whether it
    /// wrote the formula.
    @discardableResult
    func total(_ sheet: Int, _ row: Int, _ column: Int, _ formula: String, parts: [Int64?], value: Int64?, _ metric: Metric,
               note: Bool) -> Bool
    {
        guard let value else { return parts.allSatisfy { $0 == nil } }
        let sum = parts.reduce(Int64(0)) { $0 + ($1 ?? 0) }
        if sum == value, !parts.isEmpty {
            book.formula(sheet, row, column, formula, value: Double(value) * metric.scale, metric.boldStyle)
            return true
        }
        book.number(sheet, row, column, Double(value) * metric.scale, metric.boldStyle)
        if note { book.comment(sheet, row, column, Self.notASum) }
        return false
    }

    // MARK: Days

    /// A row per day: its date, its total, each project's time in a column
    /// headed in the project's colour; the columns' totals last.
    func days() {
        let sheet = book.sheet("Days")
        let duration = metrics[0]
        book.text(sheet, 0, 0, "Date", .header)
        book.text(sheet, 0, 1, "Total", .header)
        let projectIndex = ReportProjectIndex(report)
        for (index, project) in report.projects.enumerated() {
            book.text(sheet, 0, 2 + index, ReportText.projectName(project.name),
                      .headerFill((RGB(hex: project.color) ?? .neutral).packed))
        }
        let lastColumn = max(1, 1 + report.projects.count)
        var perProject = Array(repeating: [Int64?](), count: report.projects.count)
        for (index, day) in report.days.enumerated() {
            let row = 1 + index
            if let date = WallTime(day.date) { book.number(sheet, row, 0, date.excelSerial, .date) } else { book.text(sheet, row, 0, day.date) }
            var slices = Array(repeating: Int64?.none, count: report.projects.count)
            for slice in day.projects {
                guard let column = projectIndex[slice].map({ 2 + $0 }) else { continue }
                slices[column - 2] = (slices[column - 2] ?? 0) + slice.seconds
            }
            for (p, seconds) in slices.enumerated() {
                perProject[p].append(seconds)
                if let seconds { book.number(sheet, row, 2 + p, Double(seconds) * duration.scale, .duration) }
            }
            if report.projects.isEmpty {
                book.number(sheet, row, 1, Double(day.seconds) * duration.scale, .durationBold)
            } else {
                let formula = "=SUM(\(Self.cell(row, 2)):\(Self.cell(row, lastColumn)))"
                total(sheet, row, 1, formula, parts: slices, value: day.seconds, duration, note: true)
            }
        }
        let totalRow = 1 + report.days.count
        book.text(sheet, totalRow, 0, "Total", .bold)
        func columnSum(_ column: Int) -> String {
            "=SUM(\(Self.cell(1, column)):\(Self.cell(max(1, totalRow - 1), column)))"
        }
        total(sheet, totalRow, 1, columnSum(1), parts: report.days.map(\.seconds), value: report.total.seconds, duration,
              note: true)
        for (p, project) in report.projects.enumerated() {
            total(sheet, totalRow, 2 + p, columnSum(2 + p), parts: perProject[p], value: project.seconds, duration, note: true)
        }
        book.freeze(sheet, rows: 1, columns: 1)
        book.columnWidth(sheet, 0, 0, 12)
        book.columnWidth(sheet, 1, lastColumn, 14)
    }

    // MARK: Entries

    /// Every entry under its groups (an entry under two tags is a row
    /// under each), with the groups' labels in the first columns.
    func entries() {
        let sheet = book.sheet("Entries")
        let levels = max(1, report.grouping.count)
        let levelNames = report.grouping.map { $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst() }
        var titles = (0..<levels).map { levelNames[safe: $0] ?? "Group" }
        titles += ["Date", "Start", "End", "Project", "Client", "Description", "Tags", "Billable", "Duration"]
        if report.roundingMinutes != nil { titles.append("Unrounded") }
        titles.append("Amount" + (report.currency.map { " (\($0))" } ?? ""))
        for (column, title) in titles.enumerated() { book.text(sheet, 0, column, title, .header) }
        var byID: [String: ReportEntry] = [:]
        for entry in report.entries ?? [] { byID[entry.id] = entry }
        var rows: [(path: [String], entry: ReportEntry)] = []
        func collect(_ group: ReportGroup, _ path: [String]) {
            for sub in group.groups { collect(sub, path + [group.label]) }
            for id in group.entryIDs ?? [] { if let entry = byID[id] { rows.append((path + [group.label], entry)) } }
        }
        for group in report.groups { collect(group, []) }
        if rows.isEmpty { rows = (report.entries ?? []).map { ([], $0) } }
        let durationColumn = levels + 8
        let amountColumn = titles.count - 1
        for (index, item) in rows.enumerated() {
            let row = 1 + index, e = item.entry
            for (level, label) in item.path.prefix(levels).enumerated() { book.text(sheet, row, level, label) }
            let start = WallTime(e.start)
            if let start {
                book.number(sheet, row, levels, Double(start.epochDay + 25_569), .date)
                book.number(sheet, row, levels + 1, start.excelSerial, .dateTime)
            }
            if e.running {
                book.text(sheet, row, levels + 2, "running", .note)
            } else if let end = e.end.flatMap(WallTime.init) {
                book.number(sheet, row, levels + 2, end.excelSerial, .dateTime)
            }
            book.text(sheet, row, levels + 3, ReportText.projectName(e.project))
            if let client = e.client { book.text(sheet, row, levels + 4, client) }
            book.text(sheet, row, levels + 5, e.description)
            book.text(sheet, row, levels + 6, e.tags.map { $0.contains(",") ? "\"\($0)\"" : $0 }.joined(separator: ", "))
            book.boolean(sheet, row, levels + 7, e.billable)
            book.number(sheet, row, durationColumn, Double(e.roundedSeconds) * Self.durationScale, .duration)
            if report.roundingMinutes != nil {
                book.number(sheet, row, durationColumn + 1, Double(e.seconds) * Self.durationScale, .duration)
            }
            if let cents = e.amountCents { book.number(sheet, row, amountColumn, Double(cents) / 100, .money) }
        }
        let totalRow = 1 + rows.count
        book.text(sheet, totalRow, 0, "Total", .bold)
        func columnSum(_ column: Int) -> String { "=SUM(\(Self.cell(1, column)):\(Self.cell(max(1, totalRow - 1), column)))" }
        total(sheet, totalRow, durationColumn, columnSum(durationColumn), parts: rows.map { $0.entry.roundedSeconds },
              value: report.total.seconds, metrics[0], note: true)
        total(sheet, totalRow, amountColumn, columnSum(amountColumn), parts: rows.map { $0.entry.amountCents },
              value: report.total.amountCents, metrics[3], note: true)
        book.freeze(sheet, rows: 1, columns: 0)
        book.columnWidth(sheet, 0, levels - 1, 22)
        book.columnWidth(sheet, levels, levels, 11)
        book.columnWidth(sheet, levels + 1, levels + 2, 16)
        book.columnWidth(sheet, levels + 3, levels + 4, 18)
        book.columnWidth(sheet, levels + 5, levels + 5, 36)
        book.columnWidth(sheet, levels + 6, levels + 6, 18)
        book.columnWidth(sheet, levels + 7, titles.count - 1, 11)
    }

    // MARK: Week

    /// The grid: a row per group, a column per day, the rows' and the
    /// columns' totals.
    func week() {
        guard let week = report.weekly else { return }
        let sheet = book.sheet("Week")
        let duration = metrics[0]
        let name = report.grouping.first.map { $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst() } ?? "Group"
        book.text(sheet, 0, 0, name, .header)
        for (index, day) in week.days.enumerated() {
            if let date = WallTime(day) { book.number(sheet, 0, 1 + index, date.excelSerial, .headerDate) } else { book.text(sheet, 0, 1 + index, day, .header) }
        }
        let totalColumn = 1 + week.days.count
        book.text(sheet, 0, totalColumn, "Total", .header)
        for (index, line) in week.rows.enumerated() {
            let row = 1 + index
            book.text(sheet, row, 0, line.label)
            for (day, seconds) in line.secondsByDay.enumerated() where seconds != 0 {
                book.number(sheet, row, 1 + day, Double(seconds) * duration.scale, .duration)
            }
            let formula = "=SUM(\(Self.cell(row, 1)):\(Self.cell(row, max(1, totalColumn - 1))))"
            total(sheet, row, totalColumn, formula, parts: line.secondsByDay, value: line.seconds, duration, note: true)
        }
        let totalRow = 1 + week.rows.count
        book.text(sheet, totalRow, 0, "Total", .bold)
        func columnSum(_ column: Int) -> String { "=SUM(\(Self.cell(1, column)):\(Self.cell(max(1, totalRow - 1), column)))" }
        for (day, seconds) in week.totals.enumerated() {
            total(sheet, totalRow, 1 + day, columnSum(1 + day), parts: week.rows.map { $0.secondsByDay[safe: day] ?? 0 },
                  value: seconds, duration, note: true)
        }
        if week.rows.reduce(0, { $0 + $1.seconds }) == week.seconds {
            total(sheet, totalRow, totalColumn, columnSum(totalColumn), parts: week.rows.map(\.seconds), value: week.seconds,
                  duration, note: true)
        } else {
            let formula = "=SUM(\(Self.cell(totalRow, 1)):\(Self.cell(totalRow, max(1, totalColumn - 1))))"
            total(sheet, totalRow, totalColumn, formula, parts: week.totals, value: week.seconds, duration, note: true)
        }
        book.freeze(sheet, rows: 1, columns: 1)
        book.columnWidth(sheet, 0, 0, 28)
        book.columnWidth(sheet, 1, totalColumn, 15)
    }

    // MARK: cells

    /// `B2` for row 1, column 1 (both from 0).
    static func cell(_ row: Int, _ column: Int) -> String {
        var name = ""
        var c = column + 1
        while c > 0 {
            let digit = (c - 1) % 26
            name = String(UnicodeScalar(UInt8(65 + digit))) + name
            c = (c - 1) / 26
        }
        return name + String(row + 1)
    }
}
