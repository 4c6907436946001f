import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Grouping: ListedArgument {}

extension Trackee {
    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "summary",
            abstract: "Total time per project or client for a day, week, month or range.",
            discussion: """
                Entries are clipped to the period; the running timer counts up to now. \
                Where a project has an hourly rate, the amount is hours times rate.
                """)

        @OptionGroup var common: CommonOptions

        @Flag(help: "Today, or the day containing --date (the default period).")
        var day = false

        @Flag(help: "The week containing today or --date; weeks start on Monday unless configured.")
        var week = false

        @Flag(help: "The calendar month containing today or --date.")
        var month = false

        @Option(parsing: .unconditional, help: "Any time inside the wanted day, week or month (default now).")
        var date: String?

        @Option(parsing: .unconditional, help: "Start of a custom range (with --to).")
        var from: String?

        @Option(parsing: .unconditional, help: "End of a custom range (default now).")
        var to: String?

        @Option(name: .customLong("by"), help: "Group by project or client.")
        var grouping: Grouping = .project

        func validate() throws {
            let periods = [day, week, month].filter { $0 }.count
            if periods > 1 { throw ValidationError("Choose one of --day, --week and --month.") }
            if periods == 1 && (from != nil || to != nil) {
                throw ValidationError("Give either a period (--day, --week, --month) or --from/--to, not both.")
            }
            if to != nil && from == nil { throw ValidationError("--to needs --from.") }
            if date != nil && from != nil { throw ValidationError("--date picks a period; it does not combine with --from.") }
        }

        struct Line: Encodable {
            var name: String?
            var client: String?
            var seconds: Int64
            var amount: String?
        }

        struct View: Encodable {
            var from: String
            var to: String
            var grouping: String
            var lines: [Line]
            var total_seconds: Int64
            var total_amount: String?
        }

        func run() throws {
            try Session.run(common) { session in
                let span: Timespan
                var title: String
                if let from {
                    let start = try session.time(from, option: "--from")
                    let end = try to.map { try session.time($0, option: "--to") } ?? session.now
                    guard end >= start else { throw CommandFailure(StoreError.endBeforeStart(start: start, end: end)) }
                    span = Timespan(start: start, end: end)
                    title = "\(session.zone.iso8601(start)) – \(session.zone.iso8601(end))"
                } else {
                    let anchor = try date.map { try session.time($0, option: "--date") } ?? session.now
                    let period: Period = week ? .week : (month ? .month : .day)
                    span = session.zone.span(period, containing: anchor, weekStart: session.settings.weekStart)
                    let first = session.zone.localDate(span.start)
                    let last = session.zone.localDate(span.end).adding(days: -1)
                    switch period {
                    case .day: title = "\(Weekday(rawValue: first.weekday)?.shortName ?? "") \(first)"
                    case .week: title = "week \(first) – \(last)"
                    case .month: title = "\(first.year)-\(pad(first.month, 2))"
                    }
                }
                let store = try session.openStore()
                let lines = try store.summary(in: span, now: session.now, by: grouping)
                let total = lines.reduce(0) { $0 + $1.seconds }
                let amounts = lines.compactMap(\.amountCents)
                let totalAmount = amounts.isEmpty ? nil : amounts.reduce(0, +)
                if session.out.json {
                    session.out.emit(View(
                        from: session.zone.iso8601(span.start), to: session.zone.iso8601(span.end),
                        grouping: grouping.rawValue,
                        lines: lines.map { Line(name: $0.name, client: $0.client, seconds: $0.seconds, amount: $0.amountCents.map(money)) },
                        total_seconds: total, total_amount: totalAmount.map(money)))
                    return
                }
                session.out.line(session.out.bold(title))
                if lines.isEmpty {
                    session.out.line("no time tracked")
                    return
                }
                let names = lines.map { line -> String in
                    let name = line.name ?? (grouping == .project ? "(no project)" : "(no client)")
                    return grouping == .project ? name + (line.client.map { " (\($0))" } ?? "") : name
                }
                let width = max(5, names.map(\.count).max() ?? 0)
                for (line, name) in zip(lines, names) {
                    var text = "  " + name.rightPadded(width) + "  " + session.duration(line.seconds).leftPadded(7)
                    if let a = line.amountCents { text += "  " + money(a).leftPadded(10) }
                    session.out.line(text)
                }
                var totalLine = "  " + "total".rightPadded(width) + "  " + session.duration(total).leftPadded(7)
                if let totalAmount { totalLine += "  " + money(totalAmount).leftPadded(10) }
                session.out.line(session.out.bold(totalLine))
            }
        }
    }
}

/// Cents as `1234.50`.
func money(_ cents: Int64) -> String {
    let sign = cents < 0 ? "-" : ""
    let a = abs(cents)
    return "\(sign)\(a / 100).\(pad(Int(a % 100), 2))"
}

/// `80`, `80.5`, `80.50` as cents; nil when it is not an amount.
func parseMoney(_ text: String) -> Int64? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = Int64(parts[0]), whole >= 0 else { return nil }
    var cents = whole * 100
    if parts.count == 2 {
        let frac = parts[1]
        guard (1...2).contains(frac.count), frac.allSatisfy(\.isNumber), let f = Int64(frac) else { return nil }
        cents += frac.count == 1 ? f * 10 : f
    }
    return cents
}
