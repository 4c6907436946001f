import TrackeeCore

/// `trackee report` in the terminal: the groups with their totals and a bar
/// each, then every day of the range with a bar stacked by project, drawn
/// with Unicode blocks to an eighth of a cell, in the manner of `timew
/// summary` and `timew week`. No line is wider than `width` columns (a
/// label that does not fit is cut with `…`); colour only as `style` says.
public struct ReportText {
    public let report: Report
    public let width: Int
    public let style: TextStyle

    public init(_ report: Report, width: Int, style: TextStyle) {
        self.report = report
        self.width = max(1, width)
        self.style = style
    }

    /// The lines, without their newlines.
    public func lines() -> [String] {
        var out = header()
        if report.total.entries == 0 {
            out.append(report.filters.isEmpty ? "no time tracked" : "no time tracked that matches")
            return out.map(clip)
        }
        switch report.kind {
        case .summary: out += groupsChart()
        case .detailed: out += detailed()
        case .weekly: out += weekly()
        }
        if report.kind != .weekly {
            out.append("")
            out += daysChart()
        }
        return out.map(clip)
    }

    // MARK: - Pieces

    func header() -> [String] {
        var notes = [report.zone] + report.filters
        if let minutes = report.roundingMinutes { notes.append("rounded up per entry to \(minutes) min") }
        if let currency = report.currency { notes.append("amounts in \(currency)") }
        return [style.bold("\(report.kind.rawValue.capitalized) report, \(report.title)"), style.dim(notes.joined(separator: " · "))]
    }

    /// The columns of a table of groups: label, duration, amount, bar.
    struct Columns {
        var label: Int
        var duration: Int
        var amount: Int?
        var bar: Int
    }

    func columns(labels: [String], durations: [Int64], amounts: Bool, indent: Int) -> Columns {
        let duration = max(5, durations.map { clock($0).count }.max() ?? 0)
        let amount: Int? = amounts ? max(6, formatMoney(report.total.amountCents ?? 0).count) : nil
        let fixed = indent + 2 + duration + (amount.map { $0 + 2 } ?? 0) + 2
        let wanted = labels.map(\.count).max() ?? 0
        // The label gives way first, down to 12 columns; then the bar.
        let label = max(min(wanted, width - fixed - 12), min(wanted, 12))
        return Columns(label: label, duration: duration, amount: amount, bar: max(0, width - fixed - label))
    }

    func row(_ text: String, _ seconds: Int64, _ cents: Int64?, _ c: Columns, indent: Int, bar: String = "") -> String {
        var line = String(repeating: " ", count: indent) + fit(text, c.label) + "  " + clock(seconds).leftPadded(c.duration)
        if let amount = c.amount, cents != nil || !bar.isEmpty {
            line += "  " + (cents.map(formatMoney) ?? "").leftPadded(amount)
        }
        return bar.isEmpty ? line : line + "  " + bar
    }

    func groupsChart() -> [String] {
        let title = "By " + report.grouping.map(\.rawValue).joined(separator: ", then ")
        let inner = report.groups.flatMap(\.groups)
        let labels = report.groups.map(\.label) + inner.map { "  " + $0.label } + ["billable", "non-billable", "total"]
        let c = columns(labels: labels, durations: report.groups.map(\.totals.seconds) + [report.total.seconds],
                        amounts: report.total.amountCents != nil, indent: 2)
        let most = report.groups.map(\.totals.seconds).max() ?? 0
        var out = [style.bold(title)]
        for group in report.groups {
            out.append(row(group.label, group.totals.seconds, group.totals.amountCents, c, indent: 2,
                           bar: bar(group.totals.seconds, of: most, cells: c.bar, color: color(of: group))))
            for sub in group.groups {
                out.append(row("  " + sub.label, sub.totals.seconds, sub.totals.amountCents, c, indent: 2,
                               bar: style.dim(bar(sub.totals.seconds, of: most, cells: c.bar))))
            }
        }
        out += totals(c, indent: 2)
        return out
    }

    func totals(_ c: Columns, indent: Int) -> [String] {
        var out: [String] = []
        let t = report.total
        if t.billableSeconds > 0 {
            out.append(row("billable", t.billableSeconds, t.amountCents, c, indent: indent))
            out.append(row("non-billable", t.nonBillableSeconds, nil, c, indent: indent))
        }
        var total = row("total", t.seconds, nil, c, indent: indent)
        if report.grouping.contains(.tag) { total += "  (each moment once)" }
        out.append(style.bold(total))
        return out
    }

    func daysChart() -> [String] {
        let labels = report.days.map(dayLabel)
        let c = columns(labels: labels, durations: report.days.map(\.seconds), amounts: false, indent: 2)
        let most = report.days.map(\.seconds).max() ?? 0
        var out = [style.bold("By day")]
        for (day, label) in zip(report.days, labels) {
            out.append(row(label, day.seconds, nil, c, indent: 2, bar: stacked(day, of: most, cells: c.bar)))
        }
        return out
    }

    func detailed() -> [String] {
        let byID = Dictionary((report.entries ?? []).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        // Nested groups are indented inside the label column, so every
        // duration and amount lines up.
        func labels(_ groups: [ReportGroup], _ indent: String) -> [String] {
            groups.flatMap { [indent + $0.label] + labels($0.groups, indent + "  ") }
        }
        let c = columns(labels: labels(report.groups, "") + ["non-billable"], durations: [report.total.seconds],
                        amounts: report.total.amountCents != nil, indent: 0)
        var out: [String] = []
        func walk(_ groups: [ReportGroup], indent: String) {
            for group in groups {
                out.append(style.bold(row(indent + group.label, group.totals.seconds, group.totals.amountCents, c, indent: 0)))
                walk(group.groups, indent: indent + "  ")
                for id in group.entryIDs ?? [] {
                    guard let e = byID[id] else { continue }
                    out.append(indent + "  " + entryLine(e))
                }
            }
        }
        walk(report.groups, indent: "")
        out.append("")
        out += totals(c, indent: 0)
        return out
    }

    /// `#12 Mon 2026-11-23 09:00–10:30  1:30  Docs (Acme)  review #a #b`.
    func entryLine(_ e: ReportEntry) -> String {
        let start = e.start.prefix(16).replacingFirst("T", with: " ")
        let end = e.end.map { String($0.dropFirst(11).prefix(5)) } ?? "now"
        var text = style.dim("#\(e.id)") + " \(start)–\(end)  " + clock(e.roundedSeconds).leftPadded(5)
        if e.roundedSeconds != e.seconds { text += style.dim(" (\(clock(e.seconds)))") }
        text += "  " + (e.project ?? "(no project)") + (e.client.map { " (\($0))" } ?? "")
        if !e.description.isEmpty { text += "  " + e.description }
        if !e.tags.isEmpty { text += "  " + e.tags.map { "#" + $0 }.joined(separator: " ") }
        if let cents = e.amountCents { text += "  " + formatMoney(cents) }
        return text
    }

    /// The grid, cut into blocks of as many day columns as fit the width.
    func weekly() -> [String] {
        guard let week = report.weekly else { return [] }
        let cell = max(6, clock(week.seconds).count + 1)
        let labels = week.rows.map(\.label) + ["total"]
        let label = min(labels.map(\.count).max() ?? 0, max(8, width / 3))
        let perBlock = max(1, (width - label - cell) / cell)
        var out = [style.bold("By " + (report.grouping.first?.rawValue ?? "") + " and day")]
        var first = 0
        repeat {
            let days = first..<min(week.days.count, first + perBlock)
            let lastBlock = days.upperBound == week.days.count
            var head = "".rightPadded(label)
            for d in days {
                let date = LocalDate(iso: week.days[d])
                head += (date.map { Weekday(rawValue: $0.weekday)?.shortName ?? "" } ?? "").leftPadded(cell)
            }
            var dates = "".rightPadded(label)
            for d in days { dates += String(week.days[d].suffix(5)).leftPadded(cell) }
            if lastBlock { head += "total".leftPadded(cell) }
            out += [style.dim(head), style.dim(dates)]
            func line(_ text: String, _ values: [Int64], _ total: Int64) -> String {
                var s = fit(text, label)
                for d in days { s += (values[d] == 0 ? "·" : clock(values[d])).leftPadded(cell) }
                if lastBlock { s += clock(total).leftPadded(cell) }
                return s
            }
            for r in week.rows { out.append(line(r.label, r.secondsByDay, r.seconds)) }
            out.append(style.bold(line("total", week.totals, week.seconds)))
            first = days.upperBound
            if !lastBlock { out.append("") }
        } while first < week.days.count
        if report.grouping.first == .tag { out.append("(the totals count each moment once)") }
        return out
    }

    // MARK: - Drawing

    static let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// A bar of `seconds` where `most` fills `cells` columns.
    func bar(_ seconds: Int64, of most: Int64, cells: Int, color: String? = nil) -> String {
        guard cells > 0, most > 0, seconds > 0 else { return "" }
        let eighths = Int((Int64(cells) * 8 * seconds + most / 2) / most)
        let text = String(repeating: "█", count: eighths / 8) + Self.eighths[eighths % 8]
        return color.map { style.rgb(text, hex: $0) } ?? text
    }

    /// A day's bar, each project's part in its colour: whole cells go to
    /// the project under their middle, the last eighths to the last one.
    func stacked(_ day: ReportDay, of most: Int64, cells: Int) -> String {
        guard cells > 0, most > 0, day.seconds > 0 else { return "" }
        let eighths = Int((Int64(cells) * 8 * day.seconds + most / 2) / most)
        var ends: [(end: Int, color: String)] = []
        var sum: Int64 = 0
        for slice in day.projects {
            sum += slice.seconds
            ends.append((Int((Int64(eighths) * sum + day.seconds / 2) / day.seconds), color(ofProject: slice.name)))
        }
        func colorAt(_ eighth: Int) -> String { ends.first { eighth < $0.end }?.color ?? ends.last?.color ?? "" }
        // Runs of one colour share one escape sequence.
        var runs: [(color: String, text: String)] = []
        func append(_ block: String, _ color: String) {
            if runs.last?.color == color { runs[runs.count - 1].text += block } else { runs.append((color, block)) }
        }
        for cell in 0..<(eighths / 8) { append("█", colorAt(cell * 8 + 4)) }
        if eighths % 8 > 0 { append(Self.eighths[eighths % 8], colorAt(eighths - 1)) }
        return runs.map { style.rgb($0.text, hex: $0.color) }.joined()
    }

    func color(of group: ReportGroup) -> String? {
        report.grouping.first == .project ? color(ofProject: group.name, label: group.label) : nil
    }

    func color(ofProject name: String?, label: String? = nil) -> String {
        let matches = report.projects.filter { $0.name == name }
        let project = matches.count > 1
            ? matches.first { ($0.name ?? "(no project)") + ($0.client.map { " (\($0))" } ?? "") == label } : matches.first
        return (project ?? matches.first)?.color ?? "#7f7f7f"
    }

    func dayLabel(_ day: ReportDay) -> String {
        guard let date = LocalDate(iso: day.date) else { return day.date }
        return "\(Weekday(rawValue: date.weekday)?.shortName ?? "") \(day.date)"
    }

    func clock(_ seconds: Int64) -> String { formatDuration(seconds, .clock) }

    /// `text` in `width` columns: padded, or cut with `…`.
    func fit(_ text: String, _ width: Int) -> String {
        guard text.count > width else { return text.rightPadded(width) }
        return width <= 0 ? "" : text.prefix(width - 1) + "…"
    }

    /// The line cut to `width` visible columns; escape sequences take none,
    /// and a cut inside colour ends it.
    func clip(_ line: String) -> String {
        // Most lines fit: a line of no more bytes than columns cannot be wider.
        if line.utf8.count <= width { return line }
        // By Unicode scalar, not by Character: the block characters and
        // the escape sequences are single scalars, and grapheme breaking
        // was most of a long report's drawing.
        var out = String.UnicodeScalarView()
        var visible = 0
        var escape = false
        var cut = false
        for scalar in line.unicodeScalars {
            if escape {
                out.append(scalar)
                if scalar.properties.isAlphabetic { escape = false }
                continue
            }
            if scalar == "\u{1B}" {
                escape = true
                out.append(scalar)
                continue
            }
            if visible == width {
                cut = true
                continue
            }
            out.append(scalar)
            visible += 1
        }
        var clipped = String(out)
        if cut && style.color { clipped += "\u{1B}[0m" }
        return clipped
    }
}

extension Substring {
    func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let i = firstIndex(of: target) else { return String(self) }
        return String(self[..<i]) + replacement + String(self[index(after: i)...])
    }
}
