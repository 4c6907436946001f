import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Clients {
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a client; with projects, only with --yes, and their entries go too.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The client's name.") var name: String
        @Flag(help: "Also delete the client's projects and their entries.") var yes = false

        func run() throws {
            try Session.run(common) { session in
                let store = try session.openStore()
                if !yes {
                    let impact = try store.clientImpact(name)
                    if impact.projects > 0 {
                        throw CommandFailure.refused(
                            "client \"\(name)\" has \(impact.projects) \(impact.projects == 1 ? "project" : "projects") and \(impact.entries) \(impact.entries == 1 ? "entry" : "entries"), which would be deleted too; run again with --yes to delete them (`trackee undo` restores them)")
                    }
                }
                RemovalReport.print("deleted", try store.deleteClient(name, confirmed: yes, now: session.now), session: session)
            }
        }
    }
}
