import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Projects {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List projects with client, type, billing and entry count.")
        @OptionGroup var common: CommonOptions
        @Option(name: [.short, .long], help: "Only this client's projects.") var client: String?

        func run() throws {
            try Session.run(common) { session in
                try NameOption.refuseBlank(client, "--client", "leave it out to list every project")
                let projects = try session.openStore().projects(client: client)
                if session.out.json { return session.out.emit(projects.map(ProjectView.init)) }
                if projects.isEmpty { return session.out.line("no projects; `trackee projects add NAME` adds one") }
                let names = projects.map { $0.name + ($0.client.map { " (\($0))" } ?? "") }
                let width = names.map(\.count).max() ?? 0
                for (p, name) in zip(projects, names) {
                    var text = name.rightPadded(width)
                    if let type = p.type { text += "  \(type)" }
                    if p.billable { text += "  billable" }
                    if let rate = p.rateCents { text += "  \(formatMoney(rate))/h" }
                    text += "  " + counted(p.entries, "entry", "entries")
                    session.out.line(text)
                }
            }
        }
    }
}
