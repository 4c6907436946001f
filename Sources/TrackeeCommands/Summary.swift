import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Grouping: ListedArgument {}

extension Trackee {
    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "summary",
            abstract: "Total time per project, client or tag for a day, week, month, year or range.",
            discussion: """
                Entries are clipped to the period; the running timer counts up to now. \
                Billable and non-billable time are totalled apart; a billable project \
                with an hourly rate is charged hours times rate, a non-billable one \
                never. By tag, an entry with several tags counts under each.
                """)

        @OptionGroup var common: CommonOptions

        @OptionGroup var period: PeriodOptions

        @OptionGroup var filter: FilterOptions

        @Option(help: "Another person's timeline, which they share through the hub (see trackee hub grant).")
        var person: String?

        @Option(name: .customLong("by"), help: "Group by project, client or tag.")
        var grouping: Grouping = .project

        func validate() throws {
            try period.validate(with: filter)
        }

        struct Line: Encodable {
            var name: String?
            var client: String?
            var seconds: Int64
            var billable_seconds: Int64
            var entries: Int
            var amount_cents: Int64?
        }

        struct View: Encodable {
            var from: String
            var to: String
            var grouping: String
            var lines: [Line]
            var total_seconds: Int64
            var billable_seconds: Int64
            var non_billable_seconds: Int64
            var total_amount_cents: Int64?
        }

        func run() throws {
            try Session.run(common) { session in
                let entries = try filter.filter(session)
                let (span, title, _) = try period.span(session, filter: entries)
                let store = try session.openStore(person: person)
                let summary = try store.summary(in: span, now: session.now, by: grouping, matching: entries)
                if session.out.json {
                    session.out.emit(View(
                        from: session.zone.iso8601(span.start), to: session.zone.iso8601(span.end),
                        grouping: grouping.rawValue,
                        lines: summary.lines.map {
                            Line(name: $0.name, client: $0.client, seconds: $0.seconds, billable_seconds: $0.billableSeconds,
                                 entries: $0.entries, amount_cents: $0.amountCents)
                        },
                        total_seconds: summary.seconds, billable_seconds: summary.billableSeconds,
                        non_billable_seconds: summary.nonBillableSeconds, total_amount_cents: summary.amountCents))
                    return
                }
                session.out.line(session.out.bold(title))
                if summary.lines.isEmpty {
                    session.out.line(entries.namesNothing ? "no time tracked" : "no time tracked that matches")
                    return
                }
                let names = summary.lines.map { $0.shownName(by: grouping) }
                let split = summary.billableSeconds > 0
                let width = max(split ? 12 : 5, names.map(\.count).max() ?? 0)
                func row(_ name: String, _ seconds: Int64, _ cents: Int64?) -> String {
                    var text = "  " + name.rightPadded(width) + "  " + session.duration(seconds).leftPadded(7)
                    if let cents { text += "  " + formatMoney(cents).leftPadded(10) }
                    return text
                }
                for (line, name) in zip(summary.lines, names) {
                    session.out.line(row(name, line.seconds, line.amountCents))
                }
                // Amounts belong to billable time only, so the total line
                // carries none when the two are shown apart.
                if split {
                    session.out.line(row("billable", summary.billableSeconds, summary.amountCents))
                    session.out.line(row("non-billable", summary.nonBillableSeconds, nil))
                }
                var total = row("total", summary.seconds, nil)
                if grouping == .tag { total += "  (each moment once; an entry with several tags is under each)" }
                session.out.line(session.out.bold(total))
            }
        }
    }
}
