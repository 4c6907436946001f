import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Sync {
    struct Push: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "push",
            abstract: "Push what is queued (the default: trackee sync [TARGET]).",
            discussion: """
                Changes go out in the order they were made. On a terminal a progress line \
                shows pushed/total; at the end, per target: pushed, adopted, failed, \
                conflicts, still queued. Exit status: 0 when everything due was pushed, 65 \
                when the service refused some entries or some are in conflict (see trackee \
                sync status), 75 when the service could not be reached or asked to wait (the \
                rest stays queued, with backoff), 77 when the token was refused.
                """)

        @OptionGroup var common: CommonOptions

        @Argument(help: "A target name from the settings' sync: section (default: all).")
        var target: String?

        @Flag(help: "List what would be sent, and send nothing.")
        var dryRun = false

        func run() throws {
            try Session.run(common) { session in
                let targets = try PushJob.targets(session, named: target)
                let store = try session.openStore()
                if dryRun {
                    try PushJob.dryRun(targets, store: store, session: session)
                    return
                }
                try PushJob(command: "push", targets: targets, session: session, store: store).exec()
            }
        }
    }
}
