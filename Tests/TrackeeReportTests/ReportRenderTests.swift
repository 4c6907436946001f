import Testing
import TrackeeCore
@testable import TrackeeReport

/// The terminal and CSV renderers over the week of ``week``.
@Suite struct ReportRenderTests {
    /// Visible columns: escape sequences take none.
    private func visible(_ line: String) -> Int {
        var count = 0
        var escape = false
        for ch in line {
            if escape { if ch.isLetter { escape = false } } else if ch == "\u{1B}" { escape = true } else { count += 1 }
        }
        return count
    }

    @Test(arguments: [40, 80, 200])
    func noLineIsWiderThanTheWidth(_ width: Int) {
        for kind in Report.Kind.allCases {
            for grouping in [[ReportGrouping.project], [.client, .project], [.tag], [.description, .day]] {
                for color in [false, true] {
                    let r = ReportBuilder.build(request(kind, grouping, round: 15), entries: week)
                    let lines = ReportText(r, width: width, style: TextStyle(color: color)).lines()
                    let widest = lines.map(visible).max() ?? 0
                    #expect(widest <= width, "\(kind) by \(grouping) at \(width): \(lines.filter { visible($0) > width })")
                    #expect(lines.contains { $0.contains("█") } || kind == .weekly)
                }
            }
        }
    }

    @Test func theSummaryAtEightyColumns() {
        let r = ReportBuilder.build(request(.summary, [.project], round: 15), entries: week)
        let lines = ReportText(r, width: 80, style: TextStyle(color: false)).lines()
        #expect(Array(lines.prefix(12)) == [
            "Summary report, week 2026-10-19 – 2026-10-25",
            "Europe/Prague · rounded up per entry to 15 min · amounts in EUR",
            "By project",
            "  Web (Acme)     6:00  273.00  " + String(repeating: "█", count: 49),
            "  Docs (Acme)    5:15  420.00  " + String(repeating: "█", count: 42) + "▉",
            "  (no project)   1:00          ████████▏",
            "  Mail           0:30          ████▏",
            "  billable      11:15  693.00",
            "  non-billable   1:30",
            "  total         12:45",
            "",
            "By day",
        ])
        // Monday's 2:15 of Sunday's 6:30, the longest day, in 55 columns.
        #expect(lines[12] == "  Mon 2026-10-19   2:15  " + String(repeating: "█", count: 19))
        #expect(lines.count == 19)
    }

    @Test func colourOnlyWhenTheStyleHasIt() {
        let r = ReportBuilder.build(request(), entries: week)
        let plain = ReportText(r, width: 80, style: TextStyle(color: false)).lines()
        #expect(!plain.joined().contains("\u{1B}"))
        let coloured = ReportText(r, width: 80, style: TextStyle(color: true)).lines()
        // Web, the largest, in the palette's first colour (#1f77b4).
        #expect(coloured[3].contains("\u{1B}[38;2;31;119;180m█"))
        #expect(TextStyle(environment: ["NO_COLOR": "1"], json: false, terminal: true).color == false)
    }

    @Test func weeklyFallsIntoBlocksOfDaysThatFit() {
        let r = ReportBuilder.build(request(.weekly, [.project]), entries: week)
        let wide = ReportText(r, width: 120, style: TextStyle(color: false)).lines()
        #expect(Array(wide.dropFirst(2)) == [
            "By project and day",
            "               Mon   Tue   Wed   Thu   Fri   Sat   Sun total",
            "             10-19 10-20 10-21 10-22 10-23 10-24 10-25",
            "Web (Acme)       ·     ·     ·     ·     ·  1:00  5:00  6:00",
            "Docs (Acme)   2:01  2:00  1:00     ·     ·     ·     ·  5:01",
            "(no project)     ·     ·     ·     ·     ·     ·  1:00  1:00",
            "Mail             ·     ·     ·     ·     ·     ·  0:20  0:20",
            "total         2:01  2:00  1:00     ·     ·  1:00  6:20 12:21",
        ])
        let narrow = ReportText(r, width: 40, style: TextStyle(color: false)).lines()
        #expect(narrow.filter { $0.hasPrefix("total") }.count == 3)
    }

    @Test func csvQuotesFieldsAndGivesSecondsAndClockTime() {
        let summary = ReportCSV.render(ReportBuilder.build(request(.summary, [.client, .project], round: 6), entries: week))
        #expect(summary.split(separator: "\r\n", omittingEmptySubsequences: false) == [
            "client,project,seconds,duration,billable_seconds,amount,currency,entries,rounded_up_to_minutes",
            "Acme,Web (Acme),21600,6:00,21600,273.00,EUR,1,6",
            "Acme,Docs (Acme),18360,5:06,18360,408.00,EUR,3,6",
            "(no client),(no project),3600,1:00,0,,,1,6",
            "(no client),Mail,1440,0:24,0,,,1,6",
            "",
        ])
        var tagged = week
        tagged[1].tags = ["a", "b"]
        tagged[1].description = "Write \"docs\", then test"
        let detailed = ReportCSV.render(ReportBuilder.build(request(.detailed, [.project]), entries: tagged))
        let rows = detailed.split(separator: "\r\n")
        #expect(rows[0] == "id,start,end,project,client,description,tags,billable,seconds,duration,rounded_seconds,rounded_duration,amount,currency,running")
        #expect(rows[2] == #"1,2026-10-19T09:00:00+02:00,2026-10-19T10:30:00+02:00,Docs,Acme,"Write ""docs"", then test","a,b",yes,5400,1:30,5400,1:30,120.00,EUR,no"#)
        #expect(rows[6] == "5,2026-10-25T23:00:00+01:00,,,,,,no,3600,1:00,3600,1:00,,,yes")
        let weekly = ReportCSV.render(ReportBuilder.build(request(.weekly, [.project]), entries: week))
        #expect(weekly.split(separator: "\r\n").prefix(2) == [
            "project,2026-10-19,2026-10-20,2026-10-21,2026-10-22,2026-10-23,2026-10-24,2026-10-25,seconds,duration,rounded_up_to_minutes",
            "Web (Acme),0,0,0,0,0,3600,18000,21600,6:00,",
        ])
    }
}
