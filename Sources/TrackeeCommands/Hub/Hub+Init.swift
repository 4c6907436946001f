import ArgumentParser
import Foundation
import TrackeeCore
import TrackeeStore

extension Trackee.Hub {
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Create the hub's schema, or bring it up to date (the hub's administrator).",
            discussion: """
                Run by the hub's administrator, a role that may create roles and take over the \
                tables (a superuser), never by a person. It makes the roles trackee_owner, which \
                owns schema trackee and everything in it and which no one logs in as, and \
                trackee_person, whose members are the persons. Migrations are versioned and \
                append-only, and each is applied once, in order, in one transaction; running it \
                again changes nothing. A hub an older trackee set up is upgraded in place; one \
                whose schema a newer trackee made is refused, and left as it is.
                """)
        @OptionGroup var common: CommonOptions
        @Option(help: ArgumentHelp(
            "The administrator's role, instead of the settings' user (the password then comes from PGPASSWORD, ~/.pgpass or peer authentication).",
            valueName: "role"))
        var user: String?

        func run() throws {
            try Session.run(common) { session in
                let (hub, password) = try Trackee.Hub.administrator(session, user: user)
                let replicator = try Trackee.Hub.replicator()
                let report = try Trackee.Hub.reaching(hub) { try replicator.initialize(hub, password: password) }
                if session.out.json {
                    session.out.emit(report)
                    return
                }
                if report.applied.isEmpty {
                    session.out.line("hub schema up to date (\(report.current))")
                } else {
                    session.out.line("hub schema: applied \(report.applied.joined(separator: ", "))")
                }
                let persons = report.persons.isEmpty ? "none yet" : report.persons.joined(separator: ", ")
                session.out.line(
                    "owner: \(report.owner) owns schema trackee and its tables; persons: members of trackee_person "
                        + "(\(persons))")
            }
        }
    }
}
