import ArgumentParser

extension Trackee {
    struct Clients: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clients",
            abstract: "List, add, rename and delete clients.",
            subcommands: [List.self, Add.self, Rename.self, Delete.self],
            defaultSubcommand: List.self)
    }
}
