import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct Projects: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "projects",
            abstract: "List, add, rename, edit and delete projects.",
            subcommands: [List.self, Add.self, Rename.self, Edit.self, Delete.self],
            defaultSubcommand: List.self)

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
                        if let rate = p.rateCents { text += "  \(money(rate))/h" }
                        text += "  " + count(p.entries, "entry", "entries")
                        session.out.line(text)
                    }
                }
            }
        }

        /// Billing and kind options shared by `add` and `edit`.
        struct Billing: ParsableArguments {
            @Option(help: "The kind of project, such as work or school.") var type: String?
            @Flag(inversion: .prefixedNo, help: "Whether time on it is billable.") var billable: Bool?
            @Option(help: "Hourly rate, such as 80 or 80.50.") var rate: String?
            @Flag(name: .customLong("no-rate"), help: "Remove the hourly rate.") var noRate = false

            func validate() throws {
                if rate != nil && noRate { throw ValidationError("Give either --rate or --no-rate, not both.") }
                if let rate, parseMoney(rate) == nil {
                    throw ValidationError("--rate \"\(rate)\" is not an amount; use a number such as 80 or 80.50.")
                }
            }

            var changes: ProjectChanges {
                var c = ProjectChanges()
                if let type { c.type = .some(type.isEmpty ? nil : type) }
                c.billable = billable
                if let rate { c.rateCents = .some(parseMoney(rate)) }
                if noRate { c.rateCents = .some(nil) }
                return c
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add", abstract: "Add a project, under a client if given.")
            @OptionGroup var common: CommonOptions
            @Argument(help: "The project's name.") var name: String
            @Option(name: [.short, .long], help: "The client; created on first use.") var client: String?
            @OptionGroup var billing: Billing

            func run() throws {
                try Session.run(common) { session in
                    try NameOption.refuseBlank(client, "--client", "leave it out for a project without a client")
                    let p = try session.openStore().addProject(name, client: client, changes: billing.changes, now: session.now)
                    if session.out.json { return session.out.emit(ProjectView(p)) }
                    session.out.line("added project \"\(p.name)\"" + (p.client.map { " for client \"\($0)\"" } ?? ""))
                }
            }
        }

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
                    text += p.rateCents.map { ", \(money($0))/h" } ?? ", no rate"
                    if let type = p.type { text += ", type \(type)" }
                    session.out.line(text)
                }
            }
        }

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
}
