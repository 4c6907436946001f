import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Projects {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a project, under a client if given.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The project's name.") var name: String
        @Option(name: [.short, .long], help: "The client; created on first use.") var client: String?
        @OptionGroup var billing: Billing

        func run() throws {
            try Session.run(common) { session in
                try NameOption.refuseBlank(client, "--client", "leave it out for a project without a client")
                let p = try session.openStore().addProject(name, client: client, changes: billing.changes, now: session.now)
                if session.out.json { return session.out.emit(ProjectView(p)) }
                session.out.line("added project \"\(p.name)\"" + (p.client.map { " for client \"\($0)\"" } ?? ""))
            }
        }
    }
}
