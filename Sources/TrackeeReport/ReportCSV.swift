import TrackeeCore

/// `trackee report --format csv`: RFC 4180 (CRLF, quoted where needed),
/// UTF-8 without a byte order mark, durations as seconds and as `h:mm`,
/// amounts as decimals of the currency.
///
/// - summary: one row per group at the last level (`client,project,…`
///   with two levels); the column `rounded_up_to_minutes` states the
///   rounding on every row.
/// - weekly: one row per row of the grid, a column of seconds per day.
/// - detailed: one row per entry, in start order, tags in one field.
public enum ReportCSV {
    public static func render(_ report: Report) -> String {
        var out = ExportBuffer(capacity: 4096)
        func row(_ fields: [String]) {
            for (i, field) in fields.enumerated() {
                if i > 0 { out.write(byte: UInt8(ascii: ",")) }
                out.writeCSVField(field)
            }
            out.writeCRLF()
        }
        let rounding = report.roundingMinutes.map(String.init) ?? ""
        let currency = report.currency ?? ""
        func money(_ cents: Int64?) -> String { cents.map(formatMoney) ?? "" }
        func clock(_ seconds: Int64) -> String { formatDuration(seconds, .clock) }
        switch report.kind {
        case .summary:
            row(report.grouping.map(\.rawValue) + [
                "seconds", "duration", "billable_seconds", "amount", "currency", "entries", "rounded_up_to_minutes",
            ])
            for (names, totals) in leaves(report.groups) {
                row(names + [
                    String(totals.seconds), clock(totals.seconds), String(totals.billableSeconds), money(totals.amountCents),
                    totals.amountCents == nil ? "" : currency, String(totals.entries), rounding,
                ])
            }
        case .weekly:
            let week = report.weekly ?? ReportWeek(days: [], rows: [], totals: [], seconds: 0)
            row([report.grouping.first?.rawValue ?? ""] + week.days + ["seconds", "duration", "rounded_up_to_minutes"])
            for line in week.rows {
                row([line.label] + line.secondsByDay.map(String.init) + [String(line.seconds), clock(line.seconds), rounding])
            }
        case .detailed:
            row([
                "id", "start", "end", "project", "client", "description", "tags", "billable", "seconds", "duration",
                "rounded_seconds", "rounded_duration", "amount", "currency", "running",
            ])
            for e in report.entries ?? [] {
                row([
                    e.id, e.start, e.end ?? "", e.project ?? "", e.client ?? "", e.description, e.tags.joined(separator: ","),
                    e.billable ? "yes" : "no", String(e.seconds), clock(e.seconds), String(e.roundedSeconds),
                    clock(e.roundedSeconds), money(e.amountCents), e.amountCents == nil ? "" : currency, e.running ? "yes" : "no",
                ])
            }
        }
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// The groups at the last level, each with the labels of the groups
    /// above it and its own.
    static func leaves(_ groups: [ReportGroup], above: [String] = []) -> [([String], ReportTotals)] {
        groups.flatMap { group in
            group.groups.isEmpty ? [(above + [group.label], group.totals)] : leaves(group.groups, above: above + [group.label])
        }
    }
}
