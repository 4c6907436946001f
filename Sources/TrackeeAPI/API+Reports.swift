import Foundation
import TrackeeCore
import TrackeeReport
import TrackeeStore

/// Writes a report as PDF or XLSX: `trackee-report`, which links cairo and
/// libxlsxwriter, run by the daemon. Nil when the API has none.
public typealias ReportFileWriter = @Sendable (_ report: Report, _ format: String) throws -> [UInt8]

extension API {
    /// The query parameters `GET /v1/reports/{kind}` reads.
    static let reportParameters = [
        "from", "to", "period", "date", "project", "client", "tag", "description", "billable", "by", "round", "format",
    ]

    /// `GET /v1/reports/{summary,detailed,weekly}`: the report `trackee
    /// report` makes for the same range, filters and grouping, in the
    /// format `?format=` names, else `Accept`, else JSON.
    func report(_ kind: Report.Kind, _ request: APIRequest) throws(Problem) -> APIResponse {
        if let unknown = request.query.map(\.0).first(where: { !Self.reportParameters.contains($0) }) {
            throw Problem.badRequest(
                "unknown-field",
                "The query parameter \"\(unknown)\" is unknown here; the parameters are "
                    + Self.reportParameters.joined(separator: ", ") + ".")
        }
        let format = try reportFormat(request)
        let report = try buildReport(kind, query: request)
        switch format {
        case "csv":
            return APIResponse(status: 200, headers: [("Content-Type", "text/csv; charset=utf-8")],
                               body: Array(ReportCSV.render(report).utf8))
        case "html":
            // The page's own policy, also as a header: a browser applies it
            // before reading a byte of the page.
            return APIResponse(
                status: 200,
                headers: [("Content-Type", "text/html; charset=utf-8"),
                          ("Content-Security-Policy", ReportHTML.contentSecurityPolicy),
                          ("X-Content-Type-Options", "nosniff")],
                body: Array(ReportHTML.render(report).utf8))
        case "pdf", "xlsx":
            guard let reportFiles else {
                throw Problem(status: 406, kind: "not-acceptable", title: "Not acceptable",
                              detail: "This daemon cannot write \(format) reports: trackee-report is not installed next to it.")
            }
            let bytes: [UInt8]
            do {
                bytes = try reportFiles(report, format)
            } catch {
                throw Problem.internalError("trackee-report failed: \(error)")
            }
            return APIResponse(status: 200, headers: [("Content-Type", Self.reportTypes[format] ?? "application/octet-stream")],
                               body: bytes)
        default:
            do {
                return .json(200, Array(try report.json()))
            } catch {
                throw Problem.internalError("the report could not be written as JSON: \(error)")
            }
        }
    }

    /// The report `GET /v1/reports/{kind}` answers with, from the query's
    /// range, filters, grouping and rounding (the format aside): what the
    /// web page's week shows too, from its own query.
    package func buildReport(_ kind: Report.Kind, query request: APIRequest) throws(Problem) -> Report {
        let now = self.now()
        let zone = self.zone
        func bad(_ failure: ReportOptions.Failure) -> Problem {
            Problem.badRequest("bad-query", "The query parameter " + failure.message + ".")
        }
        func time(_ name: String) throws(Problem) -> Instant? { try queryTime(request, name, now: now) }
        let grouping: [ReportGrouping]
        let rounding: Int?
        do throws(ReportOptions.Failure) {
            grouping = try ReportOptions.levels(request.query("by") ?? "project", option: "\"by\"")
            rounding = try ReportOptions.rounding(request.query("round"), option: "\"round\"")
        } catch {
            throw bad(error)
        }
        var period: Period?
        if let text = request.query("period") {
            guard let known = Period(rawValue: text) else {
                throw Problem.badRequest(
                    "bad-query",
                    "The query parameter \"period\" is \"\(text)\"; it takes " + Period.allCases.map(\.rawValue).joined(separator: ", ") + ".")
            }
            period = known
        }
        let from = try time("from")
        let to = try time("to")
        let date = try time("date")
        if to != nil && from == nil { throw Problem.badRequest("bad-query", "The query parameter \"to\" needs \"from\".") }
        if from != nil && (period != nil || date != nil) {
            throw Problem.badRequest("bad-query", "Give either \"period\" (with \"date\") or \"from\"/\"to\", not both.")
        }
        if let from, let to, to < from {
            throw Problem.badRequest("bad-time", "The query parameter \"to\" is before \"from\"; give a \"to\" after the \"from\".")
        }
        var billable: Bool?
        if let text = request.query("billable") {
            guard text == "true" || text == "false" else {
                throw Problem.badRequest("bad-query", "The query parameter \"billable\" is \"\(text)\"; it takes true or false.")
            }
            billable = text == "true"
        }
        let description = request.query("description")
        if description == "" {
            throw Problem.badRequest("bad-query", "The query parameter \"description\" is empty; leave it out for every description.")
        }
        func all(_ name: String) -> [String] { request.query.filter { $0.0 == name }.map(\.1) }
        let filter = EntryFilter(from: from, to: to, projects: all("project"), clients: all("client"), tags: all("tag"),
                                 description: description, billable: billable)
        let (span, title, _) = ReportOptions.span(from: from, to: to, period: period, anchor: date ?? now, fallback: .week,
                                                  now: now, zone: zone, weekStart: weekStart)
        let reportRequest = ReportRequest(
            kind: kind, span: span, title: title, zone: zone, grouping: grouping, roundingMinutes: rounding,
            currency: currency, filters: ReportFilters.describe(filter), now: now, weekStart: weekStart)
        return try storing { try ReportBuilder.build(reportRequest, store: store, matching: filter) }
    }

    /// The media types of the formats served over HTTP.
    static let reportTypes = [
        "json": "application/json", "csv": "text/csv", "html": "text/html", "pdf": "application/pdf",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ]

    /// `?format=`, else the served type `Accept` weighs most (by its `q`,
    /// 1 when not given, then in the order listed; `q=0` refuses a type;
    /// `*/*`, `application/*` and no `Accept`: JSON; `text/*`: CSV); 406
    /// when none is served.
    func reportFormat(_ request: APIRequest) throws(Problem) -> String {
        let served = Self.reportTypes.keys.sorted()
        if let format = request.query("format") {
            guard Self.reportTypes[format] != nil else {
                throw Problem.badRequest(
                    "bad-query", "The query parameter \"format\" is \"\(format)\"; it takes \(served.joined(separator: ", ")).")
            }
            return format
        }
        guard let accept = request.header("Accept") else { return "json" }
        var best: (format: String, q: Double)?
        for item in accept.split(separator: ",") {
            let parts = item.split(separator: ";", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
            let type = parts[0].lowercased()
            let q = parts.dropFirst().compactMap { $0.lowercased().hasPrefix("q=") ? Double($0.dropFirst(2)) : nil }.first ?? 1
            let format: String? = switch type {
            case "*/*", "application/*": "json"
            case "text/*": "csv"
            default: Self.reportTypes.first(where: { $0.value == type })?.key
            }
            if let format, q > 0, q > best?.q ?? 0 { best = (format, q) }
        }
        if let best { return best.format }
        throw Problem(
            status: 406, kind: "not-acceptable", title: "Not acceptable",
            detail: "Reports are served as " + served.map { Self.reportTypes[$0]! }.joined(separator: ", ")
                + "; ask for one with Accept or ?format=.")
    }
}
