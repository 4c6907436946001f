import ArgumentParser
import Foundation
import TrackeeCore
import TrackeeStore

extension Trackee.Hub {
    struct Limit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "limit",
            abstract: "Set how many devices a person may register (the hub's administrator).",
            discussion: """
                Every device counts: the person's own and each copy they keep of a timeline \
                shared with them. The default is 20. A device beyond the limit is refused when \
                it first syncs; those registered already stay. Another person never takes the \
                device numbers a person's limit still allows them.
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "Their role on the hub.") var person: String
        @Argument(help: "How many devices they may register, from 0 to 999.") var devices: Int
        @Option(help: ArgumentHelp(
            "The administrator's role, instead of the settings' user (the password then comes from PGPASSWORD, ~/.pgpass or peer authentication).",
            valueName: "role"))
        var user: String?

        func validate() throws {
            if !(0...999).contains(devices) { throw ValidationError("give a number of devices from 0 to 999") }
        }

        func run() throws {
            try Session.run(common) { session in
                let (hub, password) = try Trackee.Hub.administrator(session, user: user)
                let replicator = try Trackee.Hub.replicator()
                let report = try Trackee.Hub.reaching(hub) {
                    try replicator.limit(hub, password: password, person: person, devices: devices)
                }
                if session.out.json {
                    session.out.emit(report)
                } else {
                    session.out.line(
                        "\(report.person) may register up to \(report.devices) device(s) on the hub "
                            + "(\(report.registered) registered)")
                }
            }
        }
    }
}
