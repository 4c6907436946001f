import Foundation
import Testing
import TrackeeCore
@testable import TrackeeReport

let prague = try! Zone(identifier: "Europe/Prague")

/// A wall time in Prague, `2026-10-25 23:00`.
func at(_ text: String) -> Instant {
    let parts = text.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" }).map { Int($0)! }
    return prague.instant(for: LocalDateTime(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4]))
}

func entry(_ id: Int64, _ project: String?, _ client: String? = nil, from: Instant, to: Instant?, tags: [String] = [],
           description: String = "", billable: Bool = false, rate: Int64? = nil) -> Entry {
    Entry(id: id, project: project, client: client, description: description, tags: tags, start: from, end: to, source: "cli",
          billable: billable, rateCents: rate)
}

/// The week of Monday 2026-10-19 in Prague, whose Sunday has 25 hours
/// (CEST ends at 03:00). Docs (Acme) is billable at 80.00, Web (Acme) at
/// 45.50, Mail is not billable; a timer without a project runs since
/// Sunday 23:00, and now is Monday 00:30, after the week.
/// 1 Docs Mon 09:00–10:30 #a #b; 2 Docs Tue 22:00–Wed 01:00 #a; 3 Web Sat
/// 23:00–Sun 04:00 (6 h over the change); 4 Mail Sun 10:00–10:20:30
/// "Inbox"; 5 running; 6 Docs from Sun 10-18 23:00 to Mon 00:31.
let week = [
    entry(6, "Docs", "Acme", from: at("2026-10-18 23:00"), to: at("2026-10-19 00:31"), billable: true, rate: 8000),
    entry(1, "Docs", "Acme", from: at("2026-10-19 09:00"), to: at("2026-10-19 10:30"), tags: ["a", "b"],
          description: "Write docs", billable: true, rate: 8000),
    entry(2, "Docs", "Acme", from: at("2026-10-20 22:00"), to: at("2026-10-21 01:00"), tags: ["a"], billable: true, rate: 8000),
    entry(3, "Web", "Acme", from: at("2026-10-24 23:00"), to: at("2026-10-25 04:00"), billable: true, rate: 4550),
    entry(4, "Mail", from: at("2026-10-25 10:00"), to: at("2026-10-25 10:20") + 30, description: "Inbox"),
    entry(5, nil, from: at("2026-10-25 23:00"), to: nil),
]

func request(_ kind: Report.Kind = .summary, _ grouping: [ReportGrouping] = [.project], round: Int? = nil,
             currency: String? = "EUR") -> ReportRequest {
    let span = prague.span(.week, containing: at("2026-10-21 12:00"))
    return ReportRequest(kind: kind, span: span, title: prague.title(of: .week, span: span), zone: prague, grouping: grouping,
                         roundingMinutes: round, currency: currency, filters: [], now: at("2026-10-26 00:30"))
}

@Suite struct ReportBuilderTests {
    @Test func groupsByProjectWithAmountsPerProjectAndTheRunningTimerClipped() {
        let r = ReportBuilder.build(request(), entries: week)
        #expect(r.groups.map(\.label) == ["Web (Acme)", "Docs (Acme)", "(no project)", "Mail"])
        #expect(r.groups.map(\.totals.seconds) == [21600, 18060, 3600, 1230])
        #expect(r.groups.map(\.totals.amountCents) == [27300, 40133, nil, nil])
        #expect(r.groups.map(\.totals.entries) == [1, 3, 1, 1])
        #expect(r.total == ReportTotals(seconds: 44490, billableSeconds: 39660, nonBillableSeconds: 4830, amountCents: 67433,
                                        entries: 6))
        #expect(r.currency == "EUR")
        #expect(r.title == "week 2026-10-19 – 2026-10-25")
        #expect(r.from == "2026-10-19T00:00:00+02:00")
        #expect(r.to == "2026-10-26T00:00:00+01:00")
        #expect(r.generatedAt == "2026-10-26T00:30:00+01:00")
        #expect(r.projects.map(\.color) == Array(ReportBuilder.palette.prefix(4)))
        #expect(r.projects.map(\.name) == ["Web", "Docs", nil, "Mail"])
        #expect(r.clients == [
            ReportShare(name: "Acme", seconds: 39660, amountCents: 67433), ReportShare(name: nil, seconds: 4830, amountCents: nil),
        ])
    }

    @Test func daysAreCutInTheZoneAndAnEntryAcrossMidnightCountsOnceInEach() {
        let r = ReportBuilder.build(request(.summary, [.day]), entries: week)
        #expect(r.days.map(\.date) == ["2026-10-19", "2026-10-20", "2026-10-21", "2026-10-22", "2026-10-23", "2026-10-24",
                                       "2026-10-25"])
        // Sunday: 5 of Web's 6 hours (00:00 CEST to 04:00 CET), Mail, and
        // the running timer's hour.
        #expect(r.days.map(\.seconds) == [7260, 7200, 3600, 0, 0, 3600, 22830])
        #expect(r.days[6].projects == [ReportSlice(name: "Web", seconds: 18000, client: "Acme"), ReportSlice(name: nil, seconds: 3600),
                                      ReportSlice(name: "Mail", seconds: 1230)])
        #expect(r.groups.map(\.label) == ["Mon 2026-10-19", "Tue 2026-10-20", "Wed 2026-10-21", "Sat 2026-10-24", "Sun 2026-10-25"])
        #expect(r.groups.map(\.totals.entries) == [2, 1, 1, 1, 3])
        #expect(r.total.entries == 6)
    }

    @Test func theDayTheClocksGoBackHasTwentyFiveHours() {
        let whole = [entry(1, "Docs", from: at("2026-10-25 00:00"), to: at("2026-10-26 00:00"))]
        let r = ReportBuilder.build(request(.summary, [.day]), entries: whole)
        #expect(r.days.map(\.seconds) == [0, 0, 0, 0, 0, 0, 90000])
        let spring = prague.span(.day, containing: at("2026-03-29 12:00"))
        let short = ReportBuilder.build(
            ReportRequest(kind: .summary, span: spring, title: "", zone: prague, grouping: [.day], now: at("2026-04-01 00:00")),
            entries: [entry(1, "Docs", from: at("2026-03-28 12:00"), to: at("2026-03-30 12:00"))])
        #expect(short.days.map(\.seconds) == [82800])
    }

    @Test func twoLevelsAndTagsCountAnEntryUnderEachTagAndTheTotalOnce() {
        let r = ReportBuilder.build(request(.summary, [.client, .project]), entries: week)
        #expect(r.groups.map(\.label) == ["Acme", "(no client)"])
        #expect(r.groups[0].groups.map(\.label) == ["Web (Acme)", "Docs (Acme)"])
        #expect(r.groups[0].groups.map(\.totals.amountCents) == [27300, 40133])
        #expect(r.groups[0].totals.amountCents == 67433)
        #expect(r.groups[1].groups.map(\.label) == ["(no project)", "Mail"])

        let tags = ReportBuilder.build(request(.summary, [.tag]), entries: week)
        #expect(tags.groups.map(\.label) == ["(no tag)", "#a", "#b"])
        #expect(tags.groups.map(\.totals.seconds) == [28290, 16200, 5400])
        #expect(tags.total.seconds == 44490)
    }

    @Test func roundingIsPerEntryUpAndTheExtraGoesToTheDayTheEntryEnds() {
        let base = at("2026-10-20 09:00")
        let short = [1, 360, 361, 899, 901].enumerated().map { i, seconds in
            entry(Int64(i + 1), "Docs", from: base + Int64(i) * 3600, to: base + Int64(i) * 3600 + Int64(seconds))
        } + [entry(9, "Docs", from: at("2026-10-20 23:59"), to: at("2026-10-21 00:01") + 1)]
        for (minutes, expected) in [(6, [360, 360, 720, 1080, 1080, 360]), (15, [900, 900, 900, 900, 1800, 900])] {
            let r = ReportBuilder.build(request(.detailed, [.day], round: minutes), entries: short)
            #expect(r.entries?.map(\.roundedSeconds) == expected.map(Int64.init))
            #expect(r.entries?.map(\.seconds) == [1, 360, 361, 899, 901, 121])
            #expect(r.total.seconds == Int64(expected.reduce(0, +)))
            #expect(r.roundingMinutes == minutes)
            // Entry 9: its minute before midnight stays on Tuesday.
            #expect(r.days[1].seconds == Int64(expected.dropLast().reduce(0, +) + 60))
            #expect(r.days[2].seconds == Int64(expected.last! - 60))
        }
        let none = ReportBuilder.build(request(.summary, [.project]), entries: short)
        #expect(none.total.seconds == 1 + 360 + 361 + 899 + 901 + 121)
    }

    @Test func detailedListsEveryEntryUnderItsGroups() throws {
        let r = ReportBuilder.build(request(.detailed, [.project], round: 15), entries: week)
        #expect(r.entries?.map(\.id) == ["6", "1", "2", "3", "4", "5"])
        #expect(r.groups.map(\.entryIDs) == [["3"], ["6", "1", "2"], ["5"], ["4"]])
        let running = try #require(r.entries?.last)
        #expect(running.running && running.end == nil && running.seconds == 3600)
        let first = try #require(r.entries?.first)
        #expect(first.seconds == 1860 && first.roundedSeconds == 2700 && first.amountCents == 6000)
        #expect(r.weekly == nil)
    }

    @Test func weeklyIsAGridOfTheFirstGroupingByDay() throws {
        let r = ReportBuilder.build(request(.weekly, [.project]), entries: week)
        let grid = try #require(r.weekly)
        #expect(grid.days.count == 7)
        #expect(grid.rows.map(\.label) == ["Web (Acme)", "Docs (Acme)", "(no project)", "Mail"])
        #expect(grid.rows[1].secondsByDay == [7260, 7200, 3600, 0, 0, 0, 0])
        #expect(grid.rows[0].secondsByDay == [0, 0, 0, 0, 0, 3600, 18000])
        #expect(grid.totals == [7260, 7200, 3600, 0, 0, 3600, 22830])
        #expect(grid.seconds == 44490)
        #expect(r.entries == nil)
    }

    @Test func anEmptyRangeIsAReportOfNothing() {
        let r = ReportBuilder.build(request(), entries: [])
        #expect(r.groups.isEmpty && r.projects.isEmpty && r.total.entries == 0 && r.currency == nil)
        #expect(r.days.count == 7 && r.days.allSatisfy { $0.seconds == 0 })
        let text = ReportText(r, width: 80, style: TextStyle(color: false)).lines()
        #expect(text == ["Summary report, week 2026-10-19 – 2026-10-25", "Europe/Prague", "no time tracked"])
    }

    @Test func jsonIsSnakeCaseAndReadsBack() throws {
        let r = ReportBuilder.build(request(.detailed, [.client, .project], round: 6), entries: week)
        let data = try r.json()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object.keys.sorted() == [
            "clients", "currency", "days", "entries", "filters", "from", "generated_at", "grouping", "groups", "kind",
            "projects", "rounding_minutes", "title", "to", "total", "zone",
        ])
        let group = try #require((object["groups"] as? [[String: Any]])?.first?["groups"] as? [[String: Any]])
        #expect(group.first?["entry_ids"] as? [String] == ["3"])
        #expect(try Report.decode(data) == r)
    }
}
