import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct Clients: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clients",
            abstract: "List, add, rename and delete clients.",
            subcommands: [List.self, Add.self, Rename.self, Delete.self],
            defaultSubcommand: List.self)

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "List clients with their project and entry counts.")
            @OptionGroup var common: CommonOptions

            func run() throws {
                try Session.run(common) { session in
                    let clients = try session.openStore().clients()
                    if session.out.json { return session.out.emit(clients.map(ClientView.init)) }
                    if clients.isEmpty { return session.out.line("no clients; `trackee clients add NAME` adds one") }
                    let width = clients.map(\.name.count).max() ?? 0
                    for c in clients {
                        session.out.line("\(c.name.rightPadded(width))  \(count(c.projects, "project", "projects"))  \(count(c.entries, "entry", "entries"))")
                    }
                }
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add", abstract: "Add a client.")
            @OptionGroup var common: CommonOptions
            @Argument(help: "The client's name.") var name: String

            func run() throws {
                try Session.run(common) { session in
                    let c = try session.openStore().addClient(name, now: session.now)
                    if session.out.json { return session.out.emit(ClientView(c)) }
                    session.out.line("added client \"\(c.name)\"")
                }
            }
        }

        struct Rename: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "rename", abstract: "Rename a client.")
            @OptionGroup var common: CommonOptions
            @Argument(help: "The current name.") var name: String
            @Argument(help: "The new name.") var newName: String

            func run() throws {
                try Session.run(common) { session in
                    let store = try session.openStore()
                    try store.renameClient(name, to: newName, now: session.now)
                    if session.out.json {
                        let renamed = try store.clients().first { $0.name.lowercased() == newName.lowercased() }
                        return session.out.emit(renamed.map(ClientView.init))
                    }
                    session.out.line("renamed client \"\(name)\" to \"\(newName)\"")
                }
            }
        }

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
}
