import Foundation
import Testing
import TrackeeCore
@testable import TrackeeReport

/// `ReportHTML.render` on hand-made reports (ReportFixture): the charts'
/// bars add up to the report's figures, the tables hold them as h:mm and
/// money, every name is escaped, and nothing in the page can fetch.
@Suite struct ReportHTMLTests {
    /// The week's days, Monday to Sunday, and its projects, largest first,
    /// worked out by hand from ReportFixture.entries.
    static let daySeconds: [Int64] = [22_500, 26_100, 25_200, 32_400, 22_330, 0, 0]
    static let projectSeconds: [Int64] = [34_030, 31_500, 24_300, 17_100, 12_600, 7_200, 1_800]
    static let projectNames: [String?] = ["API", "Docs", "Website", "Research", "Q&A", "Support", nil]
    static let clientSeconds: [Int64] = [65_530, 31_500, 18_900, 12_600]

    /// The values of `attribute` of the bars in the SVG with that id, summed
    /// by the value of `key`.
    static func sums(_ html: String, svg id: String, by key: String) throws -> [String: Int64] {
        let svg = try #require(HTMLScan.element(html, "svg", id: id))
        var sums: [String: Int64] = [:]
        for rect in HTMLScan.tags("rect", in: svg) where rect["data-seconds"] != nil {
            sums[try #require(rect[key]), default: 0] += try #require(Int64(rect["data-seconds"]!))
        }
        return sums
    }

    @Test(arguments: Report.Kind.allCases)
    func theFixtureIsTheWeekWorkedOutByHand(kind: Report.Kind) {
        let report = ReportFixture.week(kind)
        #expect(report.days.map(\.seconds) == Self.daySeconds)
        #expect(report.projects.map(\.seconds) == Self.projectSeconds)
        #expect(report.projects.map(\.name) == Self.projectNames)
        #expect(report.clients.map(\.seconds) == Self.clientSeconds)
        #expect(report.total.seconds == 128_530)
        #expect(report.total.entries == 16)
        #expect(report.total.amountCents == 281_183)
    }

    @Test(arguments: Report.Kind.allCases)
    func theDayChartsBarsAddUpToEachDayAndEachProject(kind: Report.Kind) throws {
        let report = ReportFixture.week(kind)
        let html = ReportHTML.render(report)
        let byDay = try Self.sums(html, svg: "chart-days", by: "data-day")
        #expect(report.days.map { byDay[$0.date] ?? 0 } == Self.daySeconds)
        #expect(byDay.count == 5)
        let byProject = try Self.sums(html, svg: "chart-days", by: "data-project")
        #expect((0..<7).map { byProject[String($0)] ?? 0 } == Self.projectSeconds)
        #expect(byProject.count == 7)
        // The across-midnight entry is on both days: Website's 1:30 on
        // Thursday (with 1:30 of the morning) and 0:45 on Friday.
        let svg = try #require(HTMLScan.element(html, "svg", id: "chart-days"))
        let website = HTMLScan.tags("rect", in: svg).filter { $0["data-project"] == "2" }
        #expect(website.map { $0["data-day"]! } == ["2026-11-23", "2026-11-25", "2026-11-26", "2026-11-27"])
        #expect(website.map { $0["data-seconds"]! } == ["5400", "10800", "5400", "2700"])
        #expect(website.map { $0["fill"]! } == ["#e15759", "#e15759", "#e15759", "#e15759"])
        #expect(svg.contains("<title>Website, Thu 2026-11-26: 1:30</title>"))
    }

    @Test func theShareChartsHaveABarPerProjectAndPerClient() throws {
        let html = ReportHTML.render(ReportFixture.week(.summary))
        let projects = try Self.sums(html, svg: "chart-projects", by: "data-project")
        #expect((0..<7).map { projects[String($0)] ?? 0 } == Self.projectSeconds)
        #expect(projects.count == 7)
        let clients = try Self.sums(html, svg: "chart-clients", by: "data-client")
        #expect((0..<4).map { clients[String($0)] ?? 0 } == Self.clientSeconds)
        #expect(clients.count == 4)
        let svg = try #require(HTMLScan.element(html, "svg", id: "chart-clients"))
        // Acme: 65,530 of 128,530 s is 50.98 %, the bar's width.
        #expect(HTMLScan.tags("rect", in: svg).first { $0["data-client"] == "0" }?["width"] == "50.984%")
        #expect(svg.contains("<title>Acme: 18:12 · 51 %</title>"))
        #expect(svg.contains(">O&#39;Brien &amp; Co</text>"))
    }

    @Test func theGroupsTableHasBothLevelsWithTheirTotals() {
        let html = ReportHTML.render(ReportFixture.week(.summary))
        #expect(HTMLScan.rows(html, table: "groups") == [
            ["Client / Project", "Entries", "Time", "Billable", "Amount"],
            ["Acme", "7", "18:12", "18:12", "1921.83 EUR"],
            ["API", "4", "9:27", "9:27", "1134.33 EUR"],
            ["Docs", "3", "8:45", "8:45", "787.50 EUR"],
            ["Globex Corp", "5", "8:45", "6:45", "540.00 EUR"],
            ["Website", "3", "6:45", "6:45", "540.00 EUR"],
            ["Support", "2", "2:00", "0:00", ""],
            ["(no client)", "3", "5:15", "0:00", ""],
            ["Research", "2", "4:45", "0:00", ""],
            ["(no project)", "1", "0:30", "0:00", ""],
            ["O&#39;Brien &amp; Co", "1", "3:30", "3:30", "350.00 EUR"],
            ["Q&amp;A", "1", "3:30", "3:30", "350.00 EUR"],
            ["Total", "16", "35:42", "28:27", "2811.83 EUR"],
        ])
    }

    @Test func theWeeklyGridHasEveryDayWithRowAndColumnTotals() {
        let html = ReportHTML.render(ReportFixture.week(.weekly))
        #expect(HTMLScan.rows(html, table: "week") == [
            ["Project", "Mon11-23", "Tue11-24", "Wed11-25", "Thu11-26", "Fri11-27", "Sat11-28", "Sun11-29", "Total"],
            ["API", "2:15", "3:00", "–", "2:00", "2:12", "–", "–", "9:27"],
            ["Docs", "1:30", "2:45", "–", "4:30", "–", "–", "–", "8:45"],
            ["Website", "1:30", "–", "3:00", "1:30", "0:45", "–", "–", "6:45"],
            ["Research", "–", "1:30", "–", "–", "3:15", "–", "–", "4:45"],
            ["Q&amp;A", "–", "–", "3:30", "–", "–", "–", "–", "3:30"],
            ["Support", "1:00", "–", "–", "1:00", "–", "–", "–", "2:00"],
            ["(no project)", "–", "–", "0:30", "–", "–", "–", "–", "0:30"],
            ["Total", "6:15", "7:15", "7:00", "9:00", "6:12", "0:00", "0:00", "35:42"],
        ])
    }

    @Test func theDetailedReportListsEachEntryUnderItsGroupsWithSubtotals() {
        let rows = HTMLScan.rows(ReportHTML.render(ReportFixture.week(.detailed)), table: "entries")
        #expect(rows.count == 1 + 4 * 2 + 7 * 2 + 16 + 1)
        #expect(Array(rows.prefix(12)) == [
            ["Date", "Start – end", "Description", "Project", "Tags", "Time", "Amount"],
            ["Acme"],
            ["Acme / API"],
            ["Mon 2026-11-23", "10:15 – 12:30", "Rate limits", "API (Acme)", "dev review", "2:15", "270.00 EUR"],
            ["Tue 2026-11-24", "09:00 – 12:00", "Pagination", "API (Acme)", "dev", "3:00", "360.00 EUR"],
            ["Thu 2026-11-26", "09:00 – 11:00", "Webhooks", "API (Acme)", "dev", "2:00", "240.00 EUR"],
            ["Fri 2026-11-27", "13:30 – running", "Batch import", "API (Acme)", "dev", "2:12", "264.33 EUR"],
            ["Subtotal Acme / API (4 entries)", "9:27", "1134.33 EUR"],
            ["Acme / Docs"],
            ["Mon 2026-11-23", "08:30 – 10:00", "Install guide", "Docs (Acme)", "writing", "1:30", "135.00 EUR"],
            ["Tue 2026-11-24", "14:30 – 17:15", "API reference", "Docs (Acme)", "writing", "2:45", "247.50 EUR"],
            ["Thu 2026-11-26", "13:00 – 17:30", "Tutorial", "Docs (Acme)", "writing", "4:30", "405.00 EUR"],
        ])
        #expect(rows.contains(["Subtotal Acme (7 entries)", "18:12", "1921.83 EUR"]))
        #expect(rows.contains([
            "Thu 2026-11-26", "22:30 – Fri 2026-11-27 00:45", "Deploy", "Website (Globex Corp)", "", "2:15", "180.00 EUR",
        ]))
        #expect(rows.contains([
            "Wed 2026-11-25", "08:45 – 11:45", "Checkout flow", "Website (Globex Corp)", "design client,urgent", "3:00",
            "240.00 EUR",
        ]))
        #expect(rows.contains([
            "Wed 2026-11-25", "13:00 – 16:30", "Test plan &quot;v2&quot; &lt;draft&gt;", "Q&amp;A (O&#39;Brien &amp; Co)", "",
            "3:30", "350.00 EUR",
        ]))
        #expect(rows.last == ["Total", "35:42", "2811.83 EUR"])
    }

    @Test(arguments: [
        (Report.Kind.summary, ["overview", "summary"]),
        (.detailed, ["overview", "detailed", "summary"]),
        (.weekly, ["overview", "weekly", "summary"]),
    ])
    func eachKindHasItsSectionsInOrder(kind: Report.Kind, sections: [String]) {
        let html = ReportHTML.render(ReportFixture.week(kind))
        #expect(html.components(separatedBy: "<section id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) } == sections)
        #expect(HTMLScan.count("</section>", in: html) == sections.count)
    }

    @Test(arguments: Report.Kind.allCases)
    func thePageIsSelfContainedWithoutScriptOrURL(kind: Report.Kind) {
        let html = ReportHTML.render(ReportFixture.week(kind))
        #expect(html.hasPrefix("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"))
        #expect(HTMLScan.count(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">",
            in: html) == 1)
        #expect(HTMLScan.count("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">", in: html) == 1)
        let lower = html.lowercased()
        for word in ["<script", "http:", "https:", "src=", "href=", "url(", "@import", "<link", "<img", "<iframe", "<object",
                     "<embed", "xmlns"] {
            #expect(!lower.contains(word), "the page holds \(word)")
        }
        #expect(lower.range(of: #" on[a-z]+="#, options: .regularExpression) == nil)
        #expect(html.hasSuffix("</body>\n</html>\n"))
    }

    @Test func headerStatesRangeZoneFiltersRoundingAndTotals() throws {
        let report = ReportFixture.make(
            .detailed, projects: ReportFixture.projects, entries: [
                ReportFixture.entries[0],
                .init(id: "r1", day: 0, start: "11:00", end: "11:07", project: "Docs", description: "Typo"),
            ], rounding: 15, filters: ["client Acme", "billable only"])
        let html = ReportHTML.render(report)
        #expect(html.contains(
            "<dl class=\"facts\"><dt>Range</dt><dd>2026-11-23 – 2026-11-29</dd><dt>Zone</dt><dd>Europe/Prague</dd>"
                + "<dt>Grouped by</dt><dd>client, project</dd><dt>Filters</dt><dd>client Acme; billable only</dd>"
                + "<dt>Rounding</dt><dd>rounded up per entry to 15 min</dd><dt>Generated</dt>"
                + "<dd><time datetime=\"2026-11-27T15:42:10+01:00\">Fri 2026-11-27 15:42:10 +01:00</time></dd>"
                + "<dt>Currency</dt><dd>EUR</dd></dl>"))
        #expect(html.contains(
            "<div><span class=\"muted\">Total</span><b>1:45</b></div><div><span class=\"muted\">Billable</span><b>1:45</b></div>"
                + "<div><span class=\"muted\">Non-billable</span><b>0:00</b></div>"
                + "<div><span class=\"muted\">Amount</span><b>157.50 EUR</b></div>"
                + "<div><span class=\"muted\">Entries</span><b>2</b></div>"))
        let rows = HTMLScan.rows(html, table: "entries")
        #expect(rows.first == ["Date", "Start – end", "Description", "Project", "Tags", "Tracked", "Rounded", "Amount"])
        #expect(rows.contains(["Mon 2026-11-23", "11:00 – 11:07", "Typo", "Docs (Acme)", "", "0:07", "0:15", "22.50 EUR"]))
        #expect(rows.last == ["Total", "", "1:45", "157.50 EUR"])
        #expect(html.contains("Durations are hours and minutes (h:mm), rounded up per entry to 15 min.</p></footer>"))
    }

    @Test func anEmptyRangeSaysSoWithoutChartsOrTables() {
        for filters in [[], ["tag nothing"]] {
            let html = ReportHTML.render(
                ReportFixture.make(.weekly, projects: ReportFixture.projects, entries: [], filters: filters))
            let sentence = "No time was tracked in this range\(filters.isEmpty ? "" : " with these filters")."
            #expect(html.contains("<p class=\"empty\">\(sentence)</p>\n</section>\n<footer>"))
            #expect(!html.contains("<svg"))
            #expect(!html.contains("<table"))
            #expect(html.contains("<div><span class=\"muted\">Total</span><b>0:00</b></div>"))
        }
    }

    /// Docs of Acme and Docs of Globex: a day's slices and the groups name
    /// both "Docs", and each keeps its own bar and colour.
    @Test(arguments: [[ReportGrouping.client, .project], [.project]])
    func twoProjectsOfOneNameKeepTheirOwnBarsAndColours(grouping: [ReportGrouping]) throws {
        let totals = { (seconds: Int64) in
            ReportTotals(seconds: seconds, billableSeconds: 0, nonBillableSeconds: seconds, amountCents: nil, entries: 1)
        }
        let groups = grouping.count == 2
            ? [ReportGroup(name: "Acme", label: "Acme", totals: totals(3600),
                           groups: [ReportGroup(name: "Docs", label: "Docs", totals: totals(3600), groups: [])]),
               ReportGroup(name: "Globex", label: "Globex", totals: totals(1800),
                           groups: [ReportGroup(name: "Docs", label: "Docs", totals: totals(1800), groups: [])])]
            : [ReportGroup(name: "Docs", label: "Docs (Acme)", totals: totals(3600), groups: []),
               ReportGroup(name: "Docs", label: "Docs (Globex)", totals: totals(1800), groups: [])]
        let report = Report(
            kind: .summary, title: "2026-11-23", from: "2026-11-23", to: "2026-11-23", zone: "Europe/Prague",
            grouping: grouping, roundingMinutes: nil, currency: nil, filters: [], generatedAt: ReportFixture.generatedAt,
            total: ReportTotals(seconds: 5400, billableSeconds: 0, nonBillableSeconds: 5400, amountCents: nil, entries: 2),
            groups: groups,
            days: [ReportDay(date: "2026-11-23", seconds: 5400, projects: [
                ReportSlice(name: "Docs", seconds: 3600, client: "Acme"), ReportSlice(name: "Docs", seconds: 1800, client: "Globex"),
            ])],
            projects: [ReportProject(name: "Docs", client: "Acme", billable: false, color: "#111111", seconds: 3600),
                       ReportProject(name: "Docs", client: "Globex", billable: false, color: "#222222", seconds: 1800)],
            clients: [ReportShare(name: "Acme", seconds: 3600, amountCents: nil),
                      ReportShare(name: "Globex", seconds: 1800, amountCents: nil)],
            entries: nil, weekly: nil)
        let html = ReportHTML.render(report)
        let bars = HTMLScan.tags("rect", in: try #require(HTMLScan.element(html, "svg", id: "chart-days")))
        #expect(bars.map { [$0["data-project"]!, $0["fill"]!, $0["data-seconds"]!] } == [
            ["0", "#111111", "3600"], ["1", "#222222", "1800"],
        ])
        let table = try #require(HTMLScan.element(html, "table", id: "groups"))
        // Each swatch's colour is an SVG attribute, not a style: no inline
        // style is needed, so the web page's policy (no 'unsafe-inline') shows it.
        #expect(HTMLScan.tags("rect", in: table).map { $0["fill"] } == ["#111111", "#222222"])
        #expect(!html.contains(" style="))
    }

    // MARK: hostile names

    static let evilProject = "<img src=x onerror=alert(1)>"
    static let evilClient = "\"Evil\" <Corp> & 'Co'"
    static let evilDescription = "<script>alert(1)</script>"
    static let evilTag = "<b onmouseover=alert(1)>"

    static func hostile(_ kind: Report.Kind) -> Report {
        var projects = ReportFixture.projects
        projects.append(.init(name: evilProject, client: evilClient, billable: true, rate: 6000))
        let entries = ReportFixture.entries + [
            .init(id: "x1", day: 0, start: "17:00", end: "18:00", project: evilProject, description: evilDescription,
                  tags: [evilTag]),
            .init(id: "x2", day: 2, start: "17:00", end: "17:30", project: evilProject, description: "plain"),
        ]
        var report = ReportFixture.make(
            kind, projects: projects, entries: entries, filters: ["description contains \"\(evilDescription)\""])
        // A colour that is not one cannot reach a style or fill either.
        let evil = report.projects.firstIndex { $0.name == evilProject }!
        report.projects[evil].color = "red;background:url(https://example.invalid/x)"
        return report
    }

    @Test(arguments: Report.Kind.allCases)
    func namesFromPeopleAndDevicesAppearOnlyEscaped(kind: Report.Kind) throws {
        let report = Self.hostile(kind)
        let html = ReportHTML.render(report)
        for raw in [Self.evilProject, Self.evilClient, Self.evilDescription, Self.evilTag, "<img", "<b ", "<script",
                    "\"Evil\"", "'Co'", "https:"] {
            #expect(!html.contains(raw), "the page holds \(raw) unescaped")
        }
        let project = "&lt;img src=x onerror=alert(1)&gt;"
        let client = "&quot;Evil&quot; &lt;Corp&gt; &amp; &#39;Co&#39;"
        // The legend, the share chart's label and title, the day chart's
        // two titles, the groups (one row: a project), and on each kind's
        // own table: the detailed report's group heading, subtotal and
        // two entries; the weekly grid's row.
        let expected = [Report.Kind.summary: 6, .detailed: 6 + 4, .weekly: 6 + 1][kind]!
        #expect(HTMLScan.count(project, in: html) == expected)
        let days = try #require(HTMLScan.element(html, "svg", id: "chart-days"))
        #expect(days.contains("<title>\(project), Mon 2026-11-23: 1:00</title>"))
        let shares = try #require(HTMLScan.element(html, "svg", id: "chart-clients"))
        #expect(shares.contains(">\(client)</text>"))
        #expect(shares.contains("<title>\(client): 1:30 · 4 %</title>"))
        #expect(html.contains("<dd>description contains &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;</dd>"))
        #expect(HTMLScan.count("fill=\"#808080\"", in: days) == 2)
        if kind == .detailed {
            #expect(html.contains("<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>"))
            #expect(html.contains("<span class=\"tag\">&lt;b onmouseover=alert(1)&gt;</span>"))
        }
    }

    // MARK: the pieces

    @Test func escapingCoversTheFiveCharacters() {
        #expect(HTMLText.escaped("a<b>&\"c'd") == "a&lt;b&gt;&amp;&quot;c&#39;d")
        #expect(HTMLText.escaped("Čas & ü") == "Čas &amp; ü")
        #expect(HTMLText.escaped("plain") == "plain")
    }

    @Test(arguments: [
        (12.5, 2, "12.5"), (3.0, 2, "3"), (1.0 / 3, 3, "0.333"), (-0.5, 2, "-0.5"), (99.9996, 3, "100"), (0.004, 2, "0"),
        (188.0, 2, "188"), (7.25, 1, "7.3"),
    ])
    func fixedWritesCoordinates(value: Double, digits: Int, text: String) {
        #expect(HTMLText.fixed(value, digits) == text)
    }

    @Test func onlyHexColoursPass() {
        #expect(HTMLText.color("#4e79a7") == "#4e79a7")
        #expect(HTMLText.color("#4E79A7") == "#4E79A7")
        for bad in ["red", "#12345", "#1234567", "#12345g", "#123456\" onload=\"x", ""] {
            #expect(HTMLText.color(bad) == "#808080")
        }
    }

    /// The largest day, the step and the top of the scale, in seconds.
    static let axes: [(Int64, Int64, Int64)] = [
        (0, 3600, 3600), (3599, 3600, 3600), (14_400, 3600, 14_400), (14_401, 7200, 21_600),
        (32_400, 10_800, 32_400), (32_401, 10_800, 43_200), (90_000, 28_800, 115_200),
    ]

    @Test(arguments: axes)
    func theHourAxisHasAtMostFourSteps(largest: Int64, step: Int64, ceiling: Int64) {
        let axis = ReportHTMLCharts.axis(largest)
        #expect(axis.step == step)
        #expect(axis.ceiling == ceiling)
    }

    @Test func datesAndClocksAreReadFromTheReportsText() {
        #expect(HTMLText.day("2026-11-23") == "Mon 2026-11-23")
        #expect(HTMLText.day("2026-11-31") == "2026-11-31")
        #expect(HTMLText.clock("2026-11-23T09:30:00+01:00") == "09:30")
        #expect(HTMLText.clock("2026-11-23") == nil)
        #expect(HTMLText.moment("2026-11-27T15:42:10+01:00") == "Fri 2026-11-27 15:42:10 +01:00")
        #expect(HTMLText.moment("2026-11-27T15:42:10Z") == "Fri 2026-11-27 15:42:10 Z")
        #expect(HTMLText.moment("soon") == "soon")
    }
}
