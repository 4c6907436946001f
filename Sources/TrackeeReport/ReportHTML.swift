import TrackeeCore

/// `trackee report --format html`: the report as one self-contained HTML
/// page, a pure function of the `Report`.
///
/// Nothing in it is fetched: a Content-Security-Policy meta allows only
/// inline styles and `data:` images, there is no script and no URL, the
/// charts are inline SVG (ReportHTMLCharts) and the CSS is inline. Every
/// text a person or another device gave (projects, clients, tags,
/// descriptions, filters, group labels) is HTML-escaped, in the SVG too.
/// Sections: the header with the totals and the charts, then the kind's
/// tables (the weekly grid, the entries under their groups, the groups),
/// each starting a new page when printed.
public enum ReportHTML {
    public static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

    public static func render(_ report: Report) -> String {
        var html = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            + "<meta http-equiv=\"Content-Security-Policy\" content=\"\(contentSecurityPolicy)\">\n"
            + "<meta name=\"generator\" content=\"trackee\">\n"
            + "<title>\(HTMLText.escaped(heading(report)))</title>\n<style>\(style)</style>\n</head>\n<body>\n"
        html += header(report)
        if report.total.entries == 0 {
            html += empty(report) + "</section>\n"
        } else {
            html += charts(report) + "</section>\n"
            let groups = groupsSection(report)
            switch report.kind {
            case .summary: html += groups
            case .detailed: html += entriesSection(report) + groups
            case .weekly: html += weeklySection(report) + groups
            }
        }
        html += "<footer><p>Made by trackee on \(HTMLText.escaped(HTMLText.moment(report.generatedAt))). Durations are hours and "
            + "minutes (h:mm)\(report.roundingMinutes.map { ", rounded up per entry to \($0) min" } ?? "").</p></footer>\n"
        return html + "</body>\n</html>\n"
    }

    /// `Weekly report: week 2026-11-23 – 2026-11-29`.
    static func heading(_ report: Report) -> String {
        let kind = report.kind.rawValue
        return kind.prefix(1).uppercased() + kind.dropFirst() + " report: " + report.title
    }

    /// `Client / Project`: the grouping levels as a column's heading.
    static func groupingHeading(_ report: Report) -> String {
        let names = report.grouping.map { $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst() }
        return names.isEmpty ? "Group" : names.joined(separator: " / ")
    }

    /// The first section: title, range, zone, filters, rounding, when it
    /// was made, and the totals. Left open for the charts.
    static func header(_ report: Report) -> String {
        var facts: [(String, String)] = [
            ("Range", HTMLText.escaped(report.from) + " – " + HTMLText.escaped(report.to)),
            ("Zone", HTMLText.escaped(report.zone)),
            ("Grouped by", HTMLText.escaped(report.grouping.map(\.rawValue).joined(separator: ", "))),
            ("Filters", report.filters.isEmpty ? "none" : report.filters.map { HTMLText.escaped($0) }.joined(separator: "; ")),
            ("Rounding", report.roundingMinutes.map { "rounded up per entry to \($0) min" } ?? "none: exact seconds"),
            ("Generated", "<time datetime=\"\(HTMLText.escaped(report.generatedAt))\">"
                + HTMLText.escaped(HTMLText.moment(report.generatedAt)) + "</time>"),
        ]
        if let currency = report.currency { facts.append(("Currency", HTMLText.escaped(currency))) }
        // Dates in the title are not broken at their hyphens.
        let title = heading(report).split(separator: " ", omittingEmptySubsequences: false).map { word in
            word.contains { $0.isNumber } && word.contains("-")
                ? "<span class=\"nw\">\(HTMLText.escaped(word))</span>" : HTMLText.escaped(word)
        }.joined(separator: " ")
        var html = "<section id=\"overview\">\n<header>\n<h1>\(title)</h1>\n<dl class=\"facts\">"
        for (term, value) in facts { html += "<dt>\(term)</dt><dd>\(value)</dd>" }
        return html + "</dl>\n" + totals(report) + "</header>\n"
    }

    /// The totals: time, billable, non-billable, the amount, the entries.
    static func totals(_ report: Report) -> String {
        var html = "<div class=\"totals\">"
        let total = report.total
        var figures = [
            ("Total", HTMLText.duration(total.seconds)),
            ("Billable", HTMLText.duration(total.billableSeconds)),
            ("Non-billable", HTMLText.duration(total.nonBillableSeconds)),
        ]
        if let amount = total.amountCents { figures.append(("Amount", HTMLText.money(amount, report.currency))) }
        figures.append(("Entries", String(total.entries)))
        for (name, value) in figures { html += "<div><span class=\"muted\">\(name)</span><b>\(value)</b></div>" }
        return html + "</div>\n"
    }

    /// What a report of no entries says instead of its charts.
    static func empty(_ report: Report) -> String {
        "<p class=\"empty\">No time was tracked in this range" + (report.filters.isEmpty ? "" : " with these filters") + ".</p>\n"
    }

    /// The report without its page and its title block: the totals, the
    /// charts and the kind's tables, for a page of its own that shows the
    /// report (the web page's week). The page's style sheet must hold
    /// ``style``.
    public static func fragment(_ report: Report) -> String {
        var html = totals(report)
        guard report.total.entries > 0 else {
            return html + empty(report)
        }
        html += charts(report)
        switch report.kind {
        case .summary: html += groupsSection(report)
        case .detailed: html += entriesSection(report) + groupsSection(report)
        case .weekly: html += weeklySection(report)
        }
        return html
    }

    static func charts(_ report: Report) -> String {
        var html = "<h2>Time per day</h2>\n<figure class=\"daychart\">" + ReportHTMLCharts.days(report) + "</figure>\n"
        html += "<div class=\"shares\"><div><h2>Share per project</h2>\n"
        html += ReportHTMLCharts.shares(
            id: "chart-projects", title: "Share of time per project", attribute: "data-project",
            report.projects.map { .init(label: ReportHTMLCharts.projectLabel($0), seconds: $0.seconds, color: $0.color) })
        html += "</div>\n<div><h2>Share per client</h2>\n"
        html += ReportHTMLCharts.shares(
            id: "chart-clients", title: "Share of time per client", attribute: "data-client",
            report.clients.map { .init(label: $0.name ?? "(no client)", seconds: $0.seconds, color: "#4e6e8e") })
        return html + "</div></div>\n"
    }

    /// A table in a box of its own that scrolls sideways when it is wider
    /// than the screen, so the page never does.
    static func table(_ id: String, _ className: String, head: String, body: String, foot: String) -> String {
        "<div class=\"scroll\"><table id=\"\(id)\" class=\"\(className)\">\n<thead>\(head)</thead>\n"
            + "<tbody>\n\(body)</tbody>\n<tfoot>\(foot)</tfoot>\n</table></div>\n"
    }

    // MARK: the groups

    /// The groups, two levels, each with its entries, time, billable time
    /// and amount; the total below.
    static func groupsSection(_ report: Report) -> String {
        let money = report.total.amountCents != nil
        let head = "<tr><th scope=\"col\">\(groupingHeading(report))</th><th scope=\"col\" class=\"n\">Entries</th>"
            + "<th scope=\"col\" class=\"n\">Time</th><th scope=\"col\" class=\"n\">Billable</th>"
            + (money ? "<th scope=\"col\" class=\"n\">Amount</th>" : "") + "</tr>"
        var body = ""
        let twoLevels = report.groups.contains { !$0.groups.isEmpty }
        for group in report.groups {
            body += groupRow(group, level: twoLevels ? 1 : 0, outer: nil, report: report, money: money)
            for inner in group.groups {
                body += groupRow(inner, level: 2, outer: group, report: report, money: money)
            }
        }
        let foot = "<tr><th scope=\"row\">Total</th>" + figures(report.total, report.currency, money: money) + "</tr>"
        return "<section id=\"summary\">\n<h2>Summary by \(HTMLText.escaped(report.grouping.map(\.rawValue).joined(separator: ", ")))</h2>\n"
            + table("groups", "groups", head: head, body: body, foot: foot) + "</section>\n"
    }

    static func groupRow(_ group: ReportGroup, level: Int, outer: ReportGroup?, report: Report, money: Bool) -> String {
        let grouping = report.grouping.count > max(0, level - 1) ? report.grouping[max(0, level - 1)] : nil
        // The swatch sits in the cell's padding, so a narrow column never
        // puts it on a line of its own.
        let swatch = grouping == .project
            ? ReportProjectIndex(report).project(of: group, in: outer, report).map {
                HTMLText.swatch(report.projects[$0].color)
            }
            : nil
        return "<tr class=\"g\(level)\"><th scope=\"row\"\(swatch == nil ? "" : " class=\"p\"")>\(swatch ?? "")"
            + "\(HTMLText.escaped(group.label))</th>"
            + figures(group.totals, report.currency, money: money) + "</tr>\n"
    }

    /// The cells of a row of totals: entries, time, billable time, amount.
    static func figures(_ totals: ReportTotals, _ currency: String?, money: Bool) -> String {
        "<td class=\"n\">\(totals.entries)</td><td class=\"n\">\(HTMLText.duration(totals.seconds))</td>"
            + "<td class=\"n\">\(HTMLText.duration(totals.billableSeconds))</td>"
            + (money ? "<td class=\"n\">\(totals.amountCents.map { HTMLText.money($0, currency) } ?? "")</td>" : "")
    }

    // MARK: the entries

    /// `detailed`: every entry under its groups (one or two levels), each
    /// group with its subtotal.
    static func entriesSection(_ report: Report) -> String {
        guard let entries = report.entries else { return "" }
        var byID: [String: ReportEntry] = [:]
        for entry in entries { byID[entry.id] = entry }
        let rounded = report.roundingMinutes != nil
        let money = report.total.amountCents != nil
        var columns = ["Date", "Time", "Description", "Project", "Tags"]
        let numbers = (rounded ? ["Tracked", "Rounded"] : ["Time"]) + (money ? ["Amount"] : [])
        columns[1] = "Start – end"
        let width = columns.count + numbers.count
        let head = "<tr>" + columns.map { "<th scope=\"col\">\($0)</th>" }.joined()
            + numbers.map { "<th scope=\"col\" class=\"n\">\($0)</th>" }.joined() + "</tr>"
        var body = ""
        for group in report.groups {
            body += "<tr class=\"gh\"><th colspan=\"\(width)\" scope=\"colgroup\">\(HTMLText.escaped(group.label))</th></tr>\n"
            if group.groups.isEmpty {
                body += entryRows(group.entryIDs ?? [], byID, report: report, rounded: rounded, money: money)
            }
            for inner in group.groups {
                body += "<tr class=\"gh g2\"><th colspan=\"\(width)\" scope=\"colgroup\">"
                    + "\(HTMLText.escaped(group.label)) / \(HTMLText.escaped(inner.label))</th></tr>\n"
                body += entryRows(inner.entryIDs ?? [], byID, report: report, rounded: rounded, money: money)
                body += subtotal(inner, prefix: group.label + " / ", span: columns.count, report: report, rounded: rounded, money: money)
            }
            body += subtotal(group, prefix: "", span: columns.count, report: report, rounded: rounded, money: money)
        }
        let foot = "<tr><th scope=\"row\" colspan=\"\(columns.count)\">Total</th>"
            + durationCells(report.total, rounded: rounded) + (money ? amountCell(report.total.amountCents, report.currency) : "")
            + "</tr>"
        return "<section id=\"detailed\">\n<h2>Entries</h2>\n" + table("entries", "entries", head: head, body: body, foot: foot)
            + "</section>\n"
    }

    static func entryRows(_ ids: [String], _ byID: [String: ReportEntry], report: Report, rounded: Bool, money: Bool) -> String {
        var rows = ""
        for id in ids {
            guard let entry = byID[id] else { continue }
            let date = String(entry.start.prefix(10))
            var span = HTMLText.clock(entry.start) ?? HTMLText.escaped(entry.start)
            if entry.running {
                span += " – <span class=\"run\">running</span>"
            } else if let end = entry.end {
                let endDay = String(end.prefix(10))
                let clock = HTMLText.clock(end) ?? HTMLText.escaped(end)
                span += " – " + (endDay == date ? clock : HTMLText.escaped(HTMLText.day(endDay)) + " " + clock)
            }
            let tags = entry.tags.map { "<span class=\"tag\">\(HTMLText.escaped($0))</span>" }.joined(separator: " ")
            rows += "<tr><td class=\"nw\">\(HTMLText.escaped(HTMLText.day(date)))</td><td class=\"nw\">\(span)</td>"
                + "<td>\(HTMLText.escaped(entry.description))</td>"
                + "<td>\(HTMLText.escaped(entry.project ?? "(no project)"))"
                + (entry.client.map { " <span class=\"muted\">(\(HTMLText.escaped($0)))</span>" } ?? "") + "</td>"
                + "<td>\(tags)</td>"
                + (rounded ? "<td class=\"n\">\(HTMLText.duration(entry.seconds))</td>" : "")
                + "<td class=\"n\">\(HTMLText.duration(entry.roundedSeconds))</td>"
                + (money ? amountCell(entry.amountCents, report.currency) : "") + "</tr>\n"
        }
        return rows
    }

    static func subtotal(_ group: ReportGroup, prefix: String, span: Int, report: Report, rounded: Bool, money: Bool) -> String {
        "<tr class=\"sub\"><th scope=\"row\" colspan=\"\(span)\">Subtotal \(HTMLText.escaped(prefix + group.label))"
            + " <span class=\"muted\">(\(counted(group.totals.entries, "entry", "entries")))</span></th>"
            + durationCells(group.totals, rounded: rounded) + (money ? amountCell(group.totals.amountCents, report.currency) : "")
            + "</tr>\n"
    }

    /// With rounding, totals are of rounded entries and the tracked time
    /// before rounding is not a total the report keeps: its cell is empty.
    static func durationCells(_ totals: ReportTotals, rounded: Bool) -> String {
        (rounded ? "<td class=\"n\"></td>" : "") + "<td class=\"n\">\(HTMLText.duration(totals.seconds))</td>"
    }

    static func amountCell(_ cents: Int64?, _ currency: String?) -> String {
        "<td class=\"n\">\(cents.map { HTMLText.money($0, currency) } ?? "")</td>"
    }

    // MARK: the weekly grid

    /// `weekly`: a row per group of the first grouping, a column per day,
    /// with each row's and each column's total.
    static func weeklySection(_ report: Report) -> String {
        guard let week = report.weekly else { return "" }
        let first = report.grouping.first.map { $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst() } ?? "Group"
        var head = "<tr><th scope=\"col\" class=\"rh\">\(first)</th>"
        for day in week.days {
            if let date = HTMLText.date(day) {
                head += "<th scope=\"col\" class=\"n\">\(HTMLText.weekday(date))<br><span class=\"muted\">"
                    + "\(pad(date.month, 2))-\(pad(date.day, 2))</span></th>"
            } else {
                head += "<th scope=\"col\" class=\"n\">\(HTMLText.escaped(day))</th>"
            }
        }
        head += "<th scope=\"col\" class=\"n\">Total</th></tr>"
        var body = ""
        for row in week.rows {
            body += "<tr><th scope=\"row\" class=\"rh\">\(HTMLText.escaped(row.label))</th>"
            for seconds in row.secondsByDay { body += cell(seconds) }
            body += "<td class=\"n rt\">\(HTMLText.duration(row.seconds))</td></tr>\n"
        }
        var foot = "<tr><th scope=\"row\" class=\"rh\">Total</th>"
        for seconds in week.totals { foot += "<td class=\"n\">\(HTMLText.duration(seconds))</td>" }
        foot += "<td class=\"n\">\(HTMLText.duration(week.seconds))</td></tr>"
        return "<section id=\"weekly\">\n<h2>Week by \(HTMLText.escaped(first.lowercased())) and day</h2>\n"
            + table("week", "weekly\(week.days.count > 10 ? " many" : "")", head: head, body: body, foot: foot)
            + "</section>\n"
    }

    /// A day's time in the grid; a day without any is a dimmed dash.
    static func cell(_ seconds: Int64) -> String {
        seconds == 0
            ? "<td class=\"n muted\"><span aria-label=\"none\">–</span></td>"
            : "<td class=\"n\">\(HTMLText.duration(seconds))</td>"
    }

    // MARK: style

    /// Inline CSS: light colours with AA contrast for all text (#1b1b1b and
    /// the muted #575757 on white and on the headers' #eef1f5), tables
    /// scrolling in their own box, and print rules: page margins, each
    /// section on a new page, headers repeated (the totals in the footer
    /// once, at the end), no row cut in two.
    public static let style = """

    :root{color-scheme:light}
    *{box-sizing:border-box}
    html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
    body{margin:0 auto;max-width:1200px;padding:20px;font:15px/1.45 system-ui,"DejaVu Sans",Roboto,Helvetica,Arial,sans-serif;\
    color:#1b1b1b;background:#fff;overflow-wrap:break-word}
    h1{font-size:1.5rem;line-height:1.25;margin:0 0 .5rem}
    h2{font-size:1.1rem;margin:1.4rem 0 .5rem}
    .muted{color:#575757}
    .facts{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;margin:0 0 1rem}
    .facts dt{color:#575757}.facts dd{margin:0}
    .totals{display:flex;flex-wrap:wrap;gap:.5rem 2rem;padding:.6rem .9rem;background:#eef1f5;border-radius:6px}
    .totals b{display:block;font-size:1.3rem;font-variant-numeric:tabular-nums}
    .totals span{font-size:.85rem}
    .empty{font-size:1.1rem;padding:1rem;border:1px solid #c8ccd2;border-radius:6px}
    figure{margin:0}
    .chartbox{display:flex;align-items:flex-start}
    .yaxis{flex:none}
    .chart{display:block;flex:1 1 auto;min-width:0;overflow:visible}
    svg text{font-size:12px;fill:#1b1b1b}
    .yaxis text,.xl{fill:#575757}
    .dtot{font-size:11px}
    .grid{stroke:#dde1e6;stroke-width:1}
    .base,.tick{stroke:#8a9099;stroke-width:1}
    .track{fill:#eef1f5}
    .shares{display:grid;grid-template-columns:1fr 1fr;gap:0 2.5rem}
    .legend{list-style:none;padding:0;margin:.5rem 0 0;display:flex;flex-wrap:wrap;gap:.2rem 1.2rem;font-size:.9rem}
    .sw{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin-right:.4em;vertical-align:-.05em;\
    -webkit-print-color-adjust:exact;print-color-adjust:exact}
    .scroll{overflow-x:auto;max-width:100%}
    table{border-collapse:collapse;width:100%;font-size:.9rem}
    th,td{padding:.3rem .55rem;border-bottom:1px solid #d5d9de;text-align:left;vertical-align:top}
    .n{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
    .nw{white-space:nowrap}
    thead th{background:#eef1f5;border-bottom:2px solid #8a9099;vertical-align:bottom;white-space:nowrap}
    tfoot th,tfoot td{font-weight:700;border-top:2px solid #8a9099;border-bottom:0}
    tbody th{font-weight:400}
    tr.g1 th,tr.g1 td{font-weight:600}
    tr.g2 th{padding-left:1.6rem;font-weight:400}
    th.p{position:relative;padding-left:1.75rem}th.p .sw{position:absolute;left:.55rem;top:.55em}
    tr.g2 th.p{padding-left:2.8rem}tr.g2 th.p .sw{left:1.6rem}
    tr.gh th{background:#f6f7f9;font-weight:600;padding-top:.6rem}
    tr.gh.g2 th{font-weight:400;padding-left:1.2rem}
    tr.sub th,tr.sub td{font-weight:600}
    .tag{display:inline-block;padding:0 .35em;border:1px solid #c8ccd2;border-radius:3px;font-size:.85em}
    .run{font-weight:600;color:#1a5c2e}
    .weekly .rh{position:sticky;left:0;background:#fff;z-index:1}
    .weekly thead .rh{background:#eef1f5}
    footer{margin-top:2rem;font-size:.85rem;color:#575757}
    @media (max-width:900px){.dense .wide-only{display:none}}
    @media (max-width:640px){body{padding:12px;font-size:14px}.shares{grid-template-columns:1fr}h1{font-size:1.3rem}
    table{font-size:.85rem}th,td{padding:.25rem .35rem}tr.g2 th{padding-left:1rem}.dense .roomy-only{display:none}
    th.p{padding-left:1.5rem}th.p .sw{left:.35rem}tr.g2 th.p{padding-left:2.15rem}tr.g2 th.p .sw{left:1rem}}
    @page{margin:14mm 12mm}
    @media print{
    body{max-width:none;padding:0;font-size:10pt}
    section+section{break-before:page}
    thead{display:table-header-group}
    tfoot{display:table-row-group}
    tr{break-inside:avoid}
    .scroll{overflow:visible}
    .chartbox,.legend,.shares svg{break-inside:avoid}
    .many{font-size:7pt}
    .weekly .rh{position:static}
    }

    """
}
