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
    }
}
