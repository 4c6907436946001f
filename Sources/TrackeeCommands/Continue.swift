import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct Continue: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "continue",
            abstract: "Start a timer again for an entry's project, description and tags.",
            discussion: """
                Without ENTRY, the last entry: the running timer if one runs (then nothing \
                changes), else the entry that ended last. Like start, it is "unchanged" when \
                that timer already runs and "switched" when another one does.
                """)

        @OptionGroup var common: CommonOptions

        @Argument(help: "The entry to continue: an id from `trackee log` (12 or #12), or running.")
        var entry: String?

        @Option(parsing: .unconditional, help: "When the timer starts (default now); see TIME FORMATS.")
        var at: String?

        @OptionGroup var idempotency: KeyOption

        func run() throws {
            try Session.run(common) { session in
                let at = try self.at.map { try session.time($0, option: "--at") } ?? session.now
                let store = try session.openStore()
                let id = try entry.map { try EntryArgument.resolve($0, store: store) }
                let result = try store.apply(continuing: id, at: at, source: .cli, key: idempotency.key, now: session.now)
                IntentReport.report(result, key: idempotency.key, at: at, session: session)
            }
        }
    }
}
