import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Projects {
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Rename a project.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The current name.") var name: String
        @Argument(help: "The new name.") var newName: String
        @Option(name: [.short, .long], help: "The project's client, when the name is not unique.") var client: String?

        func run() throws {
            try Session.run(common) { session in
                try NameOption.refuseBlank(client, "--client", "leave it out when the project name is unique")
                let p = try session.openStore().editProject(name, client: client, rename: newName, changes: ProjectChanges(), now: session.now)
                if session.out.json { return session.out.emit(ProjectView(p)) }
                session.out.line("renamed project \"\(name)\" to \"\(p.name)\"")
            }
        }
    }
}
