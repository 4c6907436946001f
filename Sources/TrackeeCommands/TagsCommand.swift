import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct TagList: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tags",
            abstract: "List the tags with their total time and entry count, largest first.",
            discussion: """
                Without --from, from the first entry; without --to, up to now, the running \
                timer included. Entries are clipped to --from and --to.
                """)

        @OptionGroup var common: CommonOptions
        @OptionGroup var filter: FilterOptions

        struct Line: Encodable {
            var name: String
            var seconds: Int64
            var entries: Int
        }

        struct View: Encodable {
            var from: String?
            var to: String
            var tags: [Line]
        }

        func run() throws {
            try Session.run(common) { session in
                let matching = try filter.filter(session)
                let end = matching.to ?? session.now
                // Before any entry: far enough back, and still clear of
                // overflow when SQLite subtracts it.
                let start = matching.from ?? Instant(seconds: Int64.min / 2)
                guard end > start else { throw CommandFailure.usage("--from is after now; give a --to after it") }
                let store = try session.openStore()
                let summary = try store.summary(in: Timespan(start: start, end: end), now: session.now, by: .tag,
                                                matching: matching)
                let lines = summary.lines.compactMap { line in
                    line.name.map { Line(name: $0, seconds: line.seconds, entries: line.entries) }
                }
                if session.out.json {
                    session.out.emit(View(from: matching.from.map(session.zone.iso8601), to: session.zone.iso8601(end),
                                          tags: lines))
                    return
                }
                if lines.isEmpty {
                    session.out.line(matching.keepsAll ? "no tags yet; `trackee start -t TAG` tags a timer" : "no tagged time that matches")
                    return
                }
                let width = lines.map { $0.name.count + 1 }.max() ?? 0
                for line in lines {
                    session.out.line(("#" + line.name).rightPadded(width) + "  " + session.duration(line.seconds).leftPadded(7)
                                     + "  " + counted(line.entries, "entry", "entries"))
                }
            }
        }
    }
}
