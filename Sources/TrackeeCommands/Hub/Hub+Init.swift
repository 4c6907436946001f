import ArgumentParser
import Foundation
import TrackeeCore
import TrackeeStore

extension Trackee.Hub {
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Create the hub's schema, or bring it up to date.",
            discussion: """
                Migrations are versioned and append-only, and each is applied once, in order, \
                in one transaction; running it again changes nothing. A hub whose schema a \
                newer trackee made is refused, and left as it is.
                """)
        @OptionGroup var common: CommonOptions

        func run() throws {
            try Session.run(common) { session in
                let hub = try Trackee.Hub.settings(session)
                let replicator = try Trackee.Hub.replicator()
                let password = try Trackee.Hub.password(hub, environment: session.environment)
                let report: HubInitReport
                do {
                    report = try replicator.initialize(hub, password: password)
                } catch {
                    throw CommandFailure(message: "\(hub.origin): hub: \(error)", status: 75)
                }
                if session.out.json {
                    session.out.emit(report)
                } else if report.applied.isEmpty {
                    session.out.line("hub schema up to date (\(report.current))")
                } else {
                    session.out.line("hub schema: applied \(report.applied.joined(separator: ", "))")
                }
            }
        }
}
    }
