import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Clients {
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
                    session.out.line("\(c.name.rightPadded(width))  \(counted(c.projects, "project", "projects"))  \(counted(c.entries, "entry", "entries"))")
                }
            }
        }
    }
}
