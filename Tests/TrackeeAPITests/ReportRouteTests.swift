import Foundation
import Synchronization
import Testing
import TrackeeAPI
import TrackeeCore
import TrackeeReport
import TrackeeStore

/// `GET /v1/reports/{kind}`: the report `trackee report` makes, in the
/// format `?format=` or `Accept` names, with the read scope.
@Suite struct ReportRouteTests {
    /// Mail 07:00–08:00 tagged x, Docs 08:10–08:50 "review", on Friday 2026-11-20.
    func harness(reportFiles: ReportFileWriter? = nil) throws -> Harness {
        let h = try Harness(currency: "EUR", reportFiles: reportFiles)
        _ = try h.store.add(TimerParameters(project: "Mail", tags: ["x"]), start: nine - 7200, end: nine - 3600, now: nine)
        _ = try h.store.add(TimerParameters(project: "Docs", description: "review"), start: nine - 3000, end: nine - 600, now: nine)
        return h
    }

    func report(_ answer: APIResponse) throws -> Report {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Report.self, from: Data(answer.body))
    }

    @Test func theJSONIsTheWeeksReportAsTheBuilderMakesIt() async throws {
        let h = try harness()
        let answer = await h.send("GET", "/v1/reports/summary", token: "secret-read")
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == "application/json")
        let report = try report(answer)
        #expect(report.kind == .summary)
        #expect(report.title == "week 2026-11-16 – 2026-11-22")
        // No project has a rate, so no amount and no currency to show.
        #expect(report.currency == nil)
        #expect(report.groups.map(\.label) == ["Mail", "Docs"])
        #expect(report.groups.map(\.totals.seconds) == [3600, 2400])
        #expect(report.total.seconds == 6000)
        let request = ReportRequest(
            kind: .summary, span: Zone.utc.span(.week, containing: nine), title: "week 2026-11-16 – 2026-11-22", zone: .utc,
            grouping: [.project], roundingMinutes: nil, currency: "EUR", filters: [], now: nine, weekStart: .monday)
        #expect(report == (try ReportBuilder.build(request, store: h.store, matching: EntryFilter())))
    }

    @Test func theQueryTakesTheRangeFiltersGroupingAndRounding() async throws {
        let h = try harness()
        let answer = await h.send("GET", "/v1/reports/detailed", query: [
            ("from", "2026-11-20T06:00:00Z"), ("to", "2026-11-20T12:00:00Z"), ("description", "REV"), ("by", "tag,project"),
            ("round", "15m"),
        ])
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        let report = try report(answer)
        #expect(report.kind == .detailed)
        #expect(report.grouping == [.tag, .project])
        #expect(report.roundingMinutes == 15)
        #expect(report.filters == ["description contains \"REV\""])
        #expect(report.entries?.map(\.project) == ["Docs"])
        #expect(report.entries?.map(\.roundedSeconds) == [2700])
        #expect(report.total.seconds == 2700)
        let month = try self.report(await h.send("GET", "/v1/reports/weekly", query: [("period", "month"), ("date", "2026-11-03")]))
        #expect(month.title == "2026-11")
        #expect(month.weekly?.days.count == 30)
        #expect(month.weekly?.rows.map(\.label) == ["Mail", "Docs"])
        let billable = try self.report(await h.send("GET", "/v1/reports/summary", query: [("billable", "true")]))
        #expect(billable.total.seconds == 0)
        #expect(billable.filters == ["billable only"])
    }

    @Test func acceptAndFormatChooseTheFormat() async throws {
        let h = try harness()
        let csv = await h.send("GET", "/v1/reports/summary", headers: [("Accept", "text/html;q=0.9, text/csv")])
        #expect(csv.status == 200)
        #expect(csv.header("Content-Type") == "text/csv; charset=utf-8")
        let expected = try ReportCSV.render(report(await h.send("GET", "/v1/reports/summary")))
        #expect(String(decoding: csv.body, as: UTF8.self) == expected)
        let json = await h.send("GET", "/v1/reports/summary", headers: [("Accept", "text/csv")], query: [("format", "json")])
        #expect(json.header("Content-Type") == "application/json")
        let any = await h.send("GET", "/v1/reports/summary", headers: [("Accept", "*/*")])
        #expect(any.header("Content-Type") == "application/json")
        let xml = await h.send("GET", "/v1/reports/summary", headers: [("Accept", "application/xml")])
        #expect(xml.text == problem(
            406, "not-acceptable", "Not acceptable",
            "Reports are served as text/csv, text/html, application/json, application/pdf, "
                + "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet; ask for one with Accept or ?format=."))
        // Accept's weights: the heaviest served type, then the first listed;
        // q=0 refuses a type.
        for (accept, type) in [("text/csv;q=0.5, text/html", "text/html; charset=utf-8"),
                               ("text/html;q=0.9, application/json;q=0.9", "text/html; charset=utf-8"),
                               ("text/html; q=0, */*;q=0.1", "application/json")] {
            let answer = await h.send("GET", "/v1/reports/summary", headers: [("Accept", accept)])
            #expect(answer.header("Content-Type") == type, "\(accept)")
        }
        let none = await h.send("GET", "/v1/reports/summary", headers: [("Accept", "text/html;q=0")])
        #expect(none.status == 406)
    }

    @Test func htmlIsThePageWithItsPolicyAsAHeaderToo() async throws {
        let h = try harness()
        let html = await h.send("GET", "/v1/reports/weekly", headers: [("Accept", "text/html")])
        #expect(html.status == 200)
        #expect(html.header("Content-Type") == "text/html; charset=utf-8")
        #expect(html.header("Content-Security-Policy") == "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
        #expect(html.header("X-Content-Type-Options") == "nosniff")
        let expected = try ReportHTML.render(report(await h.send("GET", "/v1/reports/weekly")))
        #expect(html.text == expected)
        let byQuery = await h.send("GET", "/v1/reports/weekly", headers: [("Accept", "application/json")], query: [("format", "html")])
        #expect(byQuery.text == expected)
    }

    @Test func pdfAndXLSXComeFromTheReportFileWriter() async throws {
        let asked = Mutex<[String]>([])
        let h = try harness { report, format in
            asked.withLock { $0.append("\(format) \(report.total.seconds)") }
            return Array("%\(format)".utf8)
        }
        let pdf = await h.send("GET", "/v1/reports/summary", headers: [("Accept", "application/pdf")])
        #expect(pdf.status == 200)
        #expect(pdf.header("Content-Type") == "application/pdf")
        #expect(pdf.body == Array("%pdf".utf8))
        let xlsx = await h.send("GET", "/v1/reports/weekly", query: [("format", "xlsx")])
        #expect(xlsx.header("Content-Type") == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
        #expect(xlsx.body == Array("%xlsx".utf8))
        #expect(asked.withLock { $0 } == ["pdf 6000", "xlsx 6000"])
        let without = try Harness()
        #expect(await without.send("GET", "/v1/reports/summary", query: [("format", "pdf")]).text == problem(
            406, "not-acceptable", "Not acceptable",
            "This daemon cannot write pdf reports: trackee-report is not installed next to it."))
    }

    @Test func badQueriesAre400AndTheReadScopeIsNeeded() async throws {
        let h = try harness()
        let cases: [([(String, String)], String, String)] = [
            ([("since", "x")], "unknown-field",
             "The query parameter \"since\" is unknown here; the parameters are from, to, period, date, project, client, tag, "
                + "description, billable, by, round, format."),
            ([("by", "colour")], "bad-query",
             "The query parameter \"by\": unknown grouping \"colour\"; the groupings are project, client, tag, day, week, description."),
            ([("by", "tag,tag")], "bad-query", "The query parameter \"by\" names tag twice; give each grouping once."),
            ([("round", "10m")], "bad-query", "The query parameter \"round\" is \"10m\"; it takes 6m or 15m."),
            ([("period", "fortnight")], "bad-query", "The query parameter \"period\" is \"fortnight\"; it takes day, week, month, year."),
            ([("to", "09:00")], "bad-query", "The query parameter \"to\" needs \"from\"."),
            ([("from", "08:00"), ("period", "day")], "bad-query", "Give either \"period\" (with \"date\") or \"from\"/\"to\", not both."),
            ([("billable", "maybe")], "bad-query", "The query parameter \"billable\" is \"maybe\"; it takes true or false."),
            ([("description", "")], "bad-query", "The query parameter \"description\" is empty; leave it out for every description."),
            ([("format", "docx")], "bad-query", "The query parameter \"format\" is \"docx\"; it takes csv, html, json, pdf, xlsx."),
        ]
        for (query, kind, detail) in cases {
            #expect(await h.send("GET", "/v1/reports/summary", query: query).text
                == problem(400, kind, "The request cannot be read", detail), "\(query)")
        }
        #expect(await h.send("GET", "/v1/reports/monthly").status == 404)
        #expect(await h.send("POST", "/v1/reports/summary").status == 405)
        #expect(await h.send("GET", "/v1/reports/summary", token: "secret-start").status == 403)
        #expect(await h.send("GET", "/v1/reports/summary", token: nil).status == 401)
    }
}
