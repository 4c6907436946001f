import TrackeeCore

/// What `trackee report` and `GET /v1/reports/{kind}` take, read alike:
/// the kind, the grouping levels, the rounding and the format. Each
/// failure is one sentence naming the option as its caller spells it
/// (`--by`, or the query parameter `by`) and the accepted values.
public enum ReportOptions {
    public struct Failure: Error, Sendable {
        public let message: String
    }

    /// Every format a report is written in.
    public static let formats = ["terminal", "json", "csv", "html", "pdf", "xlsx"]

    /// `summary`, `detailed` or `weekly`; nil is summary.
    public static func kind(_ text: String?) throws(Failure) -> Report.Kind {
        guard let text else { return .summary }
        guard let kind = Report.Kind(rawValue: text) else {
            throw Failure(message: "unknown report kind \"\(text)\"; the kinds are summary, detailed and weekly")
        }
        return kind
    }

    /// One or two groupings joined by a comma (`client,project`), none twice.
    public static func levels(_ text: String, option: String) throws(Failure) -> [ReportGrouping] {
        let accepted = ReportGrouping.allCases.map(\.rawValue).joined(separator: ", ")
        var levels: [ReportGrouping] = []
        for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(piece).trimmingWhitespace()
            guard let level = ReportGrouping(rawValue: name) else {
                throw Failure(message: "\(option): unknown grouping \"\(name)\"; the groupings are \(accepted)")
            }
            if levels.contains(level) { throw Failure(message: "\(option) names \(name) twice; give each grouping once") }
            levels.append(level)
        }
        if levels.count > 2 { throw Failure(message: "\(option) takes one or two groupings, such as client,project") }
        return levels
    }

    /// `6m` or `15m`: the minutes each entry is rounded up to; nil: none.
    public static func rounding(_ text: String?, option: String) throws(Failure) -> Int? {
        switch text {
        case nil: return nil
        case "6m": return 6
        case "15m": return 15
        case let other?: throw Failure(message: "\(option) is \"\(other)\"; it takes 6m or 15m")
        }
    }

    /// The span a report covers and its title: `from`…`to` (to `now`
    /// without `to`) when `from` is given, else the `period` (or
    /// `fallback`) containing `anchor`, cut in `zone`.
    public static func span(from: Instant?, to: Instant?, period: Period?, anchor: Instant, fallback: Period,
                            now: Instant, zone: Zone, weekStart: Weekday) -> (span: Timespan, title: String, period: Period?) {
        if let start = from {
            let end = to ?? now
            return (Timespan(start: start, end: end), "\(zone.iso8601(start)) – \(zone.iso8601(end))", nil)
        }
        let chosen = period ?? fallback
        let span = zone.span(chosen, containing: anchor, weekStart: weekStart)
        return (span, zone.title(of: chosen, span: span), chosen)
    }
}
