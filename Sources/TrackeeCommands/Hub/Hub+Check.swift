import ArgumentParser
import Foundation
import TrackeeCore
import TrackeeStore

extension Trackee.Hub {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Report what would let one person past the database to another's timeline.",
            discussion: """
                Reads PostgreSQL's catalogs as the settings' role (any person may): a hub object \
                not owned by trackee_owner, a person who is a member of it, a grant to PUBLIC or \
                beyond what persons need, row-level security not enabled or not forced on a \
                table, a missing or unknown policy or trigger, and a role of yours that \
                row-level security does not bind (a superuser, BYPASSRLS). One line each; exit \
                status 1 when there is any.
                """)
        @OptionGroup var common: CommonOptions

        func run() throws {
            try Session.run(common) { session in
                let hub = try Trackee.Hub.settings(session)
                let replicator = try Trackee.Hub.replicator()
                let password = try Trackee.Hub.password(hub, environment: session.environment)
                let report = try Trackee.Hub.reaching(hub) { try replicator.check(hub, password: password) }
                if session.out.json {
                    session.out.emit(report)
                    if !report.findings.isEmpty { throw ExitCode(1) }
                    return
                }
                guard !report.findings.isEmpty else {
                    session.out.line(
                        "hub check: all is well (as \(report.role)): trackee_owner owns schema trackee and everything "
                            + "in it, row-level security binds every table, and nothing is granted to PUBLIC")
                    return
                }
                for finding in report.findings { session.out.line("\(finding.object): \(finding.problem)") }
                let count = report.findings.count
                throw CommandFailure.refused(
                    "hub check found \(count) problem\(count == 1 ? "" : "s") (above); show them to the hub's administrator")
            }
        }
    }
}
