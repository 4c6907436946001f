import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Sync {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check the token and workspace of each target against its service.",
            discussion: """
                Prints who the token authenticates as, the workspace, and the projects that \
                queued entries need and the workspace lacks (created on push when \
                create_missing: is on). Sends no entry.
                """)

        @OptionGroup var common: CommonOptions

        @Argument(help: "A target name from the settings' sync: section (default: all).")
        var target: String?

        func run() throws {
            try Session.run(common) { session in
                let targets = try PushJob.targets(session, named: target)
                let store = try session.openStore()
                try PushJob(command: "check", targets: targets, session: session, store: store).exec()
            }
        }
    }
}
