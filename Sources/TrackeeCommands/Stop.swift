import ArgumentParser
import TrackeeAPI
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stop",
            abstract: "Ensure no timer runs, saving the running entry.")

        @OptionGroup var common: CommonOptions

        @Option(parsing: .unconditional, help: "When the timer stops (default now).")
        var at: String?

        @OptionGroup var idempotency: KeyOption

        func run() throws {
            try Session.run(common) { session in
                let at = try self.at.map { try session.time($0, option: "--at") } ?? session.now
                try IntentReport.apply(Intent(.stop, at: at, source: .cli, key: idempotency.key), session: session)
            }
        }
    }
}
