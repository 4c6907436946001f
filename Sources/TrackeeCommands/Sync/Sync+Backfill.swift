import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Sync {
    struct Backfill: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "backfill",
            abstract: "Queue the finished entries of a range that a target neither holds nor has queued.",
            discussion: """
                For the first push of a store that existed before the target: entries that \
                start in [--from, --to) are queued in start order. Running it again queues \
                nothing new.
                """)

        @OptionGroup var common: CommonOptions

        @Argument(help: "A target name from the settings' sync: section.")
        var target: String

        @OptionGroup var range: RangeOptions

        func run() throws {
            try Session.run(common) { session in
                let (start, end) = try range.range(session)
                let setting = try PushJob.targets(session, named: target)[0]
                let store = try session.openStore()
                let queued = try store.backfill(target: setting.name, from: max(start, setting.since), to: end)
                if session.out.json {
                    session.out.emit(["queued": queued])
                } else {
                    session.out.line("queued \(queued) entr\(queued == 1 ? "y" : "ies") for \(setting.name)"
                                     + (start < setting.since ? " (from \(session.zone.iso8601(setting.since)), its since:)" : ""))
                }
            }
        }
    }
}
