import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Projects {
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit", abstract: "Change a project's type, billing or rate.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The project's name.") var name: String
        @Option(name: [.short, .long], help: "The project's client, when the name is not unique.") var client: String?
        @OptionGroup var billing: Billing

        func run() throws {
            try Session.run(common) { session in
                try NameOption.refuseBlank(client, "--client", "leave it out when the project name is unique")
                let p = try session.openStore().editProject(name, client: client, rename: nil, changes: billing.changes, now: session.now)
                if session.out.json { return session.out.emit(ProjectView(p)) }
                var text = "edited project \"\(p.name)\":"
                text += p.billable ? " billable" : " not billable"
                text += p.rateCents.map { ", \(formatMoney($0))/h" } ?? ", no rate"
                if let type = p.type { text += ", type \(type)" }
                session.out.line(text)
            }
        }
    }
}
