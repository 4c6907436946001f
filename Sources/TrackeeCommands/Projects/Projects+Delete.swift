import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Projects {
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a project; one with entries only with --yes, and its entries go too.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The project's name.") var name: String
        @Option(name: [.short, .long], help: "The project's client, when the name is not unique.") var client: String?
        @Flag(help: "Also delete the project's entries.") var yes = false

        func run() throws {
            try Session.run(common) { session in
                try NameOption.refuseBlank(client, "--client", "leave it out when the project name is unique")
                // Without --yes the store refuses a project with entries,
                // counting them in its message.
                let removal = try session.openStore().deleteProject(name, client: client, confirmed: yes, now: session.now)
                RemovalReport.print("deleted", removal, session: session)
            }
        }
    }
}
