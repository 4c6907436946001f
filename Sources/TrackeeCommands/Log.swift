import ArgumentParser
import TrackeeAPI
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log",
            abstract: "List entries newest first, grouped by local day with a total per day.",
            discussion: """
                Page through older entries with the --before value printed at the end of each page. \
                --from and --to keep the entries that overlap them, shown whole; a day's total \
                counts the time of the matching entries inside them.
                """)

        @OptionGroup var common: CommonOptions

        @Option(help: "How many entries to show.")
        var limit: Int = 20

        @Option(parsing: .unconditional, help: "Show entries older than this entry id or time.")
        var before: String?

        @OptionGroup var filter: FilterOptions

        func validate() throws {
            if limit < 1 { throw ValidationError("--limit must be at least 1.") }
        }

        struct DayView: Encodable {
            var date: String
            var total_seconds: Int64
            var entries: [EntryView]
        }

        struct View: Encodable {
            var days: [DayView]
            var next_before: Int64?
        }

        func run() throws {
            try Session.run(common) { session in
                var cursor: LogCursor?
                if let before {
                    if let id = Int64(before.hasPrefix("#") ? String(before.dropFirst()) : before) {
                        cursor = .entry(id)
                    } else {
                        cursor = .time(try session.time(before, option: "--before"))
                    }
                }
                let matching = try filter.filter(session)
                let store = try session.openStore()
                // One more than asked tells whether an older page exists.
                var entries = try store.log(limit: limit + 1, before: cursor, filter: matching, now: session.now)
                let hasMore = entries.count > limit
                if hasMore { entries.removeLast() }
                let days = session.zone.days(of: entries)
                // A day's total counts the whole day, not just this page,
                // as far as the filter's window reaches into it.
                let totals = try store.dayTotals(days.map { $0.date }, zone: session.zone, now: session.now, matching: matching)
                let next = hasMore ? entries.last?.id : nil
                if session.out.json {
                    session.out.emit(View(
                        days: zip(days, totals).map { d, total in
                            DayView(date: d.date.description, total_seconds: total,
                                    entries: d.entries.map { EntryView($0, session: session) })
                        },
                        next_before: next))
                    return
                }
                if entries.isEmpty {
                    let filtered = !matching.keepsAll
                    session.out.line(cursor != nil ? (filtered ? "no older entries that match" : "no older entries")
                                     : (filtered ? "no entries match" : "no entries yet; `trackee start` begins one"))
                    return
                }
                for ((day, list), total) in zip(days, totals) {
                    let name = Weekday(rawValue: day.weekday)?.shortName ?? ""
                    session.out.line(session.out.bold("\(name) \(day)") + "  " + session.duration(total))
                    for e in list {
                        let start = session.zone.localDateTime(e.start)
                        let from = pad(start.hour, 2) + ":" + pad(start.minute, 2)
                        let to: String
                        if let end = e.end {
                            let l = session.zone.localDateTime(end)
                            to = pad(l.hour, 2) + ":" + pad(l.minute, 2) + (l.date == day ? "" : "+\(l.date.daysSinceEpoch - day.daysSinceEpoch)d")
                        } else {
                            to = "now  "
                        }
                        let dur = session.duration(e.duration(now: session.now))
                        let id = "#\(e.id)".rightPadded(6)
                        session.out.line("  \(session.out.dim(id)) \(from)–\(to)  \(dur.leftPadded(6))  \(session.label(e))")
                    }
                }
                if let next {
                    let again = (["trackee", "log"] + filter.arguments + ["--before", "\(next)"]).joined(separator: " ")
                    session.out.line(session.out.dim("older: " + again))
                }
            }
        }
    }
}
