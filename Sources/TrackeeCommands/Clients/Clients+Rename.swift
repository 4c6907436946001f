import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Clients {
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
}
