import ArgumentParser
import TrackeeAPI
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start",
            abstract: "Ensure a timer runs for a project (start, switch, or leave it running).",
            discussion: """
                With nothing running, starts a timer. With the same project, client, \
                description and tags already running, prints "unchanged" and keeps the \
                original start. With something else running, saves it and starts the \
                new one in one step ("switched"). A bare start (no project, client, \
                description or tag) leaves a running timer as it is ("unchanged"); \
                `trackee continue` starts the last entry again.
                """)

        @OptionGroup var common: CommonOptions
        @OptionGroup var timer: TimerOptions

        @Option(parsing: .unconditional, help: "When the timer starts (default now); see TIME FORMATS.")
        var at: String?

        @OptionGroup var idempotency: KeyOption

        func run() throws {
            try Session.run(common) { session in
                let at = try self.at.map { try session.time($0, option: "--at") } ?? session.now
                let p = try timer.parameters(for: "a timer")
                let intent = Intent(
                    .start(TimerParameters(project: p.project, client: p.client, description: p.description, tags: p.tags)),
                    at: at, source: .cli, key: idempotency.key)
                try IntentReport.apply(intent, session: session, newProject: timer.newProject)
            }
        }
    }
}
