import TrackeeCore
import TrackeeStore

/// Toggl Track's and Clockify's detailed reports as CSV: one row an entry,
/// its start and end as a local date and time (in the zone of whoever
/// exported it: `TZ`, else the machine's), read by the names of the
/// columns those services document, in any order.
struct DetailedReport {
    let format: ImportFormat
    /// The date and time columns; the others may be missing.
    let startDate: String, startTime: String, endDate: String, endTime: String
    /// Where an hourly rate is: a column whose name begins with it.
    let rate: String?
    /// The order a date's parts are in, when the service writes one order
    /// only.
    let order: ImportOptions.DateOrder?

    /// Toggl Track's (Reports → Detailed → Export CSV): User, Email, Client,
    /// Project, Task, Description, Billable, Start date, Start time, End
    /// date, End time, Duration, Tags, Amount (USD). Dates are ISO 8601.
    static let toggl = DetailedReport(
        format: .toggl, startDate: "Start date", startTime: "Start time", endDate: "End date", endTime: "End time",
        rate: nil, order: .ymd)
    /// Clockify's (Reports → Detailed → Export → Save as CSV): Project,
    /// Client, Description, Task, User, Group, Email, Tags, Billable, Start
    /// Date, Start Time, End Date, End Time, Duration (h), Duration
    /// (decimal), Billable Rate (USD), Billable Amount (USD). Dates and
    /// times are as its user chose to see them: any order of day, month
    /// and year, 12- or 24-hour times.
    static let clockify = DetailedReport(
        format: .clockify, startDate: "Start Date", startTime: "Start Time", endDate: "End Date", endTime: "End Time",
        rate: "Billable Rate (", order: nil)
}

extension ImportReader {
    func toggl(_ text: String) throws(ImportRefusal) { try report(text, .toggl) }

    func clockify(_ text: String) throws(ImportRefusal) { try report(text, .clockify) }

    private func report(_ text: String, _ report: DetailedReport) throws(ImportRefusal) {
        let table = try CSVTable(text, file: file)
        let name = report.format == .toggl ? "Toggl Track's detailed report" : "Clockify's detailed report"
        let dates = try table.require(
            [report.startDate, report.startTime, report.endDate, report.endTime], file: file, format: name)
        let order: ImportOptions.DateOrder
        if let given = options.dateOrder ?? report.order {
            order = given
        } else if let found = ImportTime.order(of: table.records.flatMap { [$0[dates[0]], $0[dates[2]]] }) {
            order = found
        } else {
            throw ImportRefusal(
                "\(file): its dates could be day/month/year or month/day/year, and no day above 12 tells which; "
                    + "give --date-format dmy or --date-format mdy")
        }
        let project = table.column("Project"), client = table.column("Client")
        let description = table.column("Description"), tags = table.column("Tags")
        let billable = table.column("Billable"), rate = report.rate.flatMap(table.column)
        let email = table.column("Email"), user = table.column("User") ?? table.column("Member")
        let zone = options.zone
        for record in table.records {
            row(line: record.line) { () throws(RowProblem) -> ImportRow? in
                func when(_ date: Int, _ time: Int, _ field: String) throws(RowProblem) -> Instant {
                    guard let day = ImportTime.date(record[date], order) else {
                        throw RowProblem(
                            field: table.header[date], problem: "\"\(record[date])\" is not a date (\(order.rawValue))")
                    }
                    guard let clock = ImportTime.time(record[time]) else {
                        throw RowProblem(field: table.header[time], problem: "\"\(record[time])\" is not a time of day")
                    }
                    return zone.instant(for: LocalDateTime(date: day, hour: clock.hour, minute: clock.minute, second: clock.second))
                }
                let (start, end) = try Self.span(
                    try when(dates[0], dates[1], report.startDate), try when(dates[2], dates[3], report.endDate))
                var billed = false
                if billable != nil {
                    switch record[billable].lowercased() {
                    case "yes", "true", "1": billed = true
                    case "no", "false", "0", "": billed = false
                    default:
                        throw RowProblem(field: table.header[billable!], problem: "\"\(record[billable])\" is neither Yes nor No")
                    }
                }
                var cents: Int64?
                if let rate, !record[rate].isEmpty {
                    guard let parsed = Self.cents(record[rate]) else {
                        throw RowProblem(field: table.header[rate], problem: "\"\(record[rate])\" is not an amount")
                    }
                    cents = parsed
                }
                let projectName = record[project], clientName = record[client]
                // Known by what the row holds: the same row in a later
                // export is the same entry.
                let identity = [record[email], record[user], record[dates[0]], record[dates[1]], record[dates[2]],
                                record[dates[3]], projectName, clientName, record[description]]
                return ImportRow(
                    key: report.format.rawValue + ":" + String(SHA256.hex(Array(identity.joined(separator: "\u{1F}").utf8)).prefix(32)),
                    line: record.line, start: start, end: end, project: projectName.isEmpty ? nil : projectName,
                    client: projectName.isEmpty || clientName.isEmpty ? nil : clientName, description: record[description],
                    tags: try Self.tags(record[tags].split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }),
                    billable: billed, rateCents: cents)
            }
        }
    }

    /// `80`, `80.5`, `80.00`, `1,234.50` as cents.
    static func cents(_ text: String) -> Int64? {
        let plain = text.filter { $0 != "," }
        let parts = plain.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = Int64(parts[0]), whole >= 0 else { return nil }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let digits = parts[1]
            guard digits.count <= 2, let value = Int64(digits.isEmpty ? "0" : String(digits)) else { return nil }
            fraction = digits.count == 1 ? value * 10 : value
        }
        return whole * 100 + fraction
    }
}
