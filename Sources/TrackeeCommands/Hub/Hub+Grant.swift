import ArgumentParser
import Foundation
import TrackeeCore
import TrackeeStore

extension Trackee.Hub {
    struct Grant: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grant",
            abstract: "Let another person read your timeline, or also write it.",
            discussion: """
                PERSON is their PostgreSQL role on the hub. The database enforces it with \
                row-level security: a reader's change to your timeline is refused by PostgreSQL \
                itself. They see it after their next `trackee hub sync`, with `summary --person` \
                and `export --person`. Granting again changes the level.
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "Their role on the hub.") var person: String
        @Flag(help: "They may read your timeline.") var read = false
        @Flag(help: "They may also change it.") var write = false

        func validate() throws {
            if read == write { throw ValidationError("give --read or --write") }
        }

        func run() throws {
            try Session.run(common) { session in
                try Trackee.Hub.share(session, with: person, level: write ? "write" : "read")
                session.out.line("\(person) may now \(write ? "read and change" : "read") your timeline")
            }
        }
    }
}
