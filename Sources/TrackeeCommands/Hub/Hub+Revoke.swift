import ArgumentParser
import Foundation
import TrackeeCore
import TrackeeStore

extension Trackee.Hub {
    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Take back what hub grant gave another person.",
            discussion: """
                At once the hub shows them nothing of your timeline, and the devices that kept \
                their copy of it are gone (unless they wrote into it); their next `trackee hub \
                sync` forgets the copy.
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "Their role on the hub.") var person: String

        func run() throws {
            try Session.run(common) { session in
                try Trackee.Hub.share(session, with: person, level: nil)
                session.out.line("\(person) may no longer see your timeline")
            }
        }
    }

    static func share(_ session: Session, with person: String, level: String?) throws {
        let hub = try settings(session)
        let replicator = try replicator()
        let password = try password(hub, environment: session.environment)
        try reaching(hub) { try replicator.share(hub, password: password, with: person, level: level) }
    }
}
