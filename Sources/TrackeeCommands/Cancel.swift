import ArgumentParser
import TrackeeAPI
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct Cancel: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cancel",
            abstract: "Ensure no timer runs, discarding the running entry.")

        @OptionGroup var common: CommonOptions

        @OptionGroup var idempotency: KeyOption

        func run() throws {
            try Session.run(common) { session in
                try IntentReport.apply(Intent(.cancel, at: session.now, source: .cli, key: idempotency.key), session: session)
            }
        }
    }
}
