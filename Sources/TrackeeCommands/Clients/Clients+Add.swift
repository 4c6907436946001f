import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Clients {
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
}
