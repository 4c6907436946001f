import TrackeeCore

/// The HTML report's charts, as inline SVG: a stacked bar per day by
/// project and a horizontal bar per project and per client.
///
/// Horizontal positions are percentages of the chart's width and text is
/// never scaled, so a chart fits 375 px and 1280 px alike with labels of
/// one size. Every bar carries its exact value in `data-seconds` (and its
/// day, project or client as `data-day`, `data-project`, `data-client`,
/// an index into `Report.projects` or `Report.clients`) and a `<title>`,
/// so the chart's totals can be checked against the report.
enum ReportHTMLCharts {
    /// Pixels: room above the tallest bar for its total, the plot, the
    /// axis labels below it.
    static let top = 18.0
    static let plot = 170.0
    static let bottom = 36.0

    /// The stacked bar per day, the hour axis beside it and the legend.
    static func days(_ report: Report) -> String {
        let days = report.days
        guard !days.isEmpty else { return "" }
        let index = ReportProjectIndex(report)
        let (step, ceiling) = axis(days.map(\.seconds).max() ?? 0)
        let height = top + plot + bottom
        let n = days.count
        let dense = n > 7
        var svg = "<div class=\"chartbox\">"
        // The hour axis, in a column of its own so the bars' percentages
        // start after it.
        svg += "<svg class=\"yaxis\" width=\"40\" height=\"\(Int(height))\" aria-hidden=\"true\">"
        var mark: Int64 = 0
        while mark <= ceiling {
            let y = top + plot - Double(mark) / Double(ceiling) * plot
            svg += "<text x=\"34\" y=\"\(HTMLText.fixed(y + 4))\" text-anchor=\"end\">\(mark / 3600)h</text>"
            mark += step
        }
        svg += "</svg>"
        let total = HTMLText.duration(days.reduce(0) { $0 + $1.seconds })
        svg += "<svg id=\"chart-days\" class=\"chart\(dense ? " dense" : "")\" width=\"100%\" height=\"\(Int(height))\" "
            + "role=\"img\" aria-label=\"Time per day by project: \(total) over \(counted(n, "day", "days"))\">"
        mark = 0
        while mark <= ceiling {
            let y = HTMLText.fixed(top + plot - Double(mark) / Double(ceiling) * plot)
            svg += "<line class=\"\(mark == 0 ? "base" : "grid")\" x1=\"0\" x2=\"100%\" y1=\"\(y)\" y2=\"\(y)\"/>"
            mark += step
        }
        let slot = 100.0 / Double(n)
        // Past two months the bars touch: a gap under a pixel wide would
        // only blur them.
        let gap = n > 62 ? 0 : 0.18
        for (i, day) in days.enumerated() {
            let x = HTMLText.percent(Double(i) * slot + slot * gap)
            let width = HTMLText.percent(slot * (1 - 2 * gap))
            let date = HTMLText.escaped(day.date)
            let dayLabel = HTMLText.escaped(HTMLText.day(day.date))
            svg += "<g data-day=\"\(date)\">"
            var stacked: Int64 = 0
            for slice in day.projects where slice.seconds > 0 {
                let y0 = top + plot - Double(stacked + slice.seconds) / Double(ceiling) * plot
                let h = Double(slice.seconds) / Double(ceiling) * plot
                stacked += slice.seconds
                let i = index[slice]
                let color = i.map { HTMLText.color(report.projects[$0].color) } ?? "#808080"
                svg += "<rect x=\"\(x)\" y=\"\(HTMLText.fixed(y0))\" width=\"\(width)\" height=\"\(HTMLText.fixed(h))\" "
                    + "fill=\"\(color)\" data-day=\"\(date)\" data-project=\"\(i.map(String.init) ?? "")\" "
                    + "data-seconds=\"\(slice.seconds)\"><title>"
                    + HTMLText.escaped(slice.name ?? "(no project)") + ", \(dayLabel): \(HTMLText.duration(slice.seconds))"
                    + "</title></rect>"
            }
            let center = HTMLText.percent(Double(i) * slot + slot / 2)
            if n <= 31, day.seconds > 0 {
                let y = top + plot - Double(stacked) / Double(ceiling) * plot - 4
                svg += "<text class=\"dtot\(dense ? " wide-only" : "")\" x=\"\(center)\" y=\"\(HTMLText.fixed(y))\" "
                    + "text-anchor=\"middle\">\(HTMLText.duration(day.seconds))</text>"
            }
            svg += axisLabel(day.date, n: n, first: i == 0, x: center, slotStart: HTMLText.percent(Double(i) * slot))
            svg += "</g>"
        }
        svg += "</svg></div>"
        return svg + legend(report)
    }

    /// The label under a day's bar: its weekday and day of the month for a
    /// week; the day of the month for up to a month (only Mondays' on a
    /// narrow screen); the months' names for longer ranges.
    static func axisLabel(_ text: String, n: Int, first: Bool, x: String, slotStart: String) -> String {
        guard let date = HTMLText.date(text) else { return "" }
        let y1 = HTMLText.fixed(top + plot + 15)
        let y2 = HTMLText.fixed(top + plot + 30)
        if n <= 7 {
            return "<text class=\"xl\" x=\"\(x)\" y=\"\(y1)\" text-anchor=\"middle\">\(HTMLText.weekday(date))</text>"
                + "<text class=\"xl\" x=\"\(x)\" y=\"\(y2)\" text-anchor=\"middle\">\(date.day)</text>"
        }
        if n <= 31 {
            let monday = date.weekday == 1
            var label = "<text class=\"xl\(monday || first ? "" : " wide-only")\" x=\"\(x)\" y=\"\(y1)\" "
                + "text-anchor=\"middle\">\(date.day)</text>"
            if monday {
                label += "<text class=\"xl\" x=\"\(x)\" y=\"\(y2)\" text-anchor=\"middle\">Mon</text>"
            }
            return label
        }
        // Longer: each month's name on its first day (the range's first day
        // too when its month has two weeks or more left), only each
        // quarter's on a narrow screen.
        let left = LocalDate.daysIn(year: date.year, month: date.month) - date.day + 1
        guard date.day == 1 || (first && left >= 14) else { return "" }
        let shown = date.month % 3 == 1 ? "" : " roomy-only"
        return "<line class=\"tick\(shown)\" x1=\"\(slotStart)\" x2=\"\(slotStart)\" y1=\"\(HTMLText.fixed(top + plot))\" "
            + "y2=\"\(HTMLText.fixed(top + plot + 5))\"/>"
            + "<text class=\"xl\(shown)\" x=\"\(slotStart)\" y=\"\(y1)\">\(HTMLText.month(date))</text>"
            + (date.month == 1 || first
                ? "<text class=\"xl\(shown)\" x=\"\(slotStart)\" y=\"\(y2)\">\(date.year)</text>" : "")
    }

    /// The hour axis: a step of whole hours giving at most four lines above
    /// the base, and the top of the scale, a multiple of it.
    static func axis(_ largest: Int64) -> (step: Int64, ceiling: Int64) {
        let hours: [Int64] = [1, 2, 3, 4, 6, 8, 12, 24]
        var step = hours.first { largest <= $0 * 3600 * 4 }.map { $0 * 3600 } ?? 86_400
        while largest > step * 4 { step *= 2 }
        let ceiling = max(step, (largest + step - 1) / step * step)
        return (step, ceiling)
    }

    /// The projects, largest first, each with its colour and its time.
    static func legend(_ report: Report) -> String {
        var html = "<ul class=\"legend\">"
        for project in report.projects {
            html += "<li>" + HTMLText.swatch(project.color)
                + HTMLText.escaped(projectLabel(project)) + " <span class=\"muted\">"
                + HTMLText.duration(project.seconds) + "</span></li>"
        }
        return html + "</ul>"
    }

    /// `Docs (Acme)`, `(no project)`.
    static func projectLabel(_ project: ReportProject) -> String {
        (project.name ?? "(no project)") + (project.client.map { " (\($0))" } ?? "")
    }

    /// One bar of a share chart.
    struct Share {
        var label: String
        var seconds: Int64
        var color: String
    }

    /// A horizontal bar per row, as long as its share of the rows' sum,
    /// its name and its time with the share above it. `attribute` names
    /// what the bars are of (`data-project`): each bar has its row's index.
    static func shares(id: String, title: String, attribute: String, _ rows: [Share]) -> String {
        guard !rows.isEmpty else { return "" }
        let sum = rows.reduce(0) { $0 + $1.seconds }
        let rowHeight = 38
        var svg = "<svg id=\"\(id)\" class=\"chart\" width=\"100%\" height=\"\(rows.count * rowHeight)\" role=\"img\" "
            + "aria-label=\"\(title)\">"
        for (i, row) in rows.enumerated() {
            let y = i * rowHeight
            let share = sum > 0 ? Double(row.seconds) / Double(sum) * 100 : 0
            let percent = row.seconds > 0 && share < 0.5 ? "<1 %" : "\(Int(share.rounded())) %"
            let value = HTMLText.duration(row.seconds) + " · " + percent
            let name = HTMLText.escaped(row.label)
            svg += "<text x=\"0\" y=\"\(y + 14)\">\(HTMLText.escaped(HTMLText.shortened(row.label, 36)))</text>"
                + "<text class=\"val\" x=\"100%\" y=\"\(y + 14)\" text-anchor=\"end\">\(value)</text>"
                + "<rect class=\"track\" x=\"0\" y=\"\(y + 20)\" width=\"100%\" height=\"10\" rx=\"2\"/>"
                + "<rect x=\"0\" y=\"\(y + 20)\" width=\"\(HTMLText.percent(share))\" height=\"10\" rx=\"2\" "
                + "fill=\"\(HTMLText.color(row.color))\" \(attribute)=\"\(i)\" data-seconds=\"\(row.seconds)\">"
                + "<title>\(name): \(value)</title></rect>"
        }
        return svg + "</svg>"
    }
}
