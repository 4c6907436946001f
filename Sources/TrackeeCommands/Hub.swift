import ArgumentParser
import Foundation
import Synchronization
import TrackeeCore
import TrackeeHub

/// Where `trackee-daemon` registers the hub's PostgreSQL client; in
/// `trackee` there is none, and `trackee hub …` becomes the daemon.
public enum HubServing {
    private static let client = Mutex<(any HubClient)?>(nil)

    public static func register(_ made: any HubClient) {
        client.withLock { $0 = made }
    }

    static var registered: (any HubClient)? { client.withLock { $0 } }
}

extension Trackee {
    struct Hub: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hub",
            abstract: "Set up the PostgreSQL hub that devices are to replicate through.",
            discussion: """
                The hub is a PostgreSQL database named by `hub:` in the settings (see \
                CONFIGURATION in `man trackee`). So far only its schema is set up; replication \
                through it is not built yet. The PostgreSQL client is in trackee-daemon, \
                installed next to trackee, which these commands become.
                """,
            subcommands: [Init.self])

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
                    guard let hub = session.settings.hub else {
                        throw CommandFailure.config(
                            "\(Settings.path(environment: session.environment)): the settings have no hub: section; "
                                + "add one with the hub's url (see CONFIGURATION in man trackee)")
                    }
                    guard let client = HubServing.registered else {
                        try HTTPServing.execDaemon(for: "holds the hub's PostgreSQL client")
                    }
                    let password = try Self.password(hub, environment: session.environment)
                    let report: HubSchema.Report
                    do {
                        report = try client.initialize(hub, password: password)
                    } catch {
                        throw CommandFailure(message: "\(hub.origin): hub: \(error)", status: 75)
                    }
                    if session.out.json {
                        session.out.emit(Report(applied: report.applied, current: report.current))
                    } else if report.applied.isEmpty {
                        session.out.line("hub schema up to date (\(report.current))")
                    } else {
                        session.out.line("hub schema: applied \(report.applied.joined(separator: ", "))")
                    }
                }
            }

            struct Report: Encodable {
                var applied: [String]
                var current: String
            }

            /// The password the settings point at, read now; nil leaves it
            /// to libpq (`~/.pgpass`, a socket's peer authentication).
            static func password(_ hub: HubSettings, environment: [String: String]) throws -> String? {
                switch hub.password {
                case .none:
                    return nil
                case .environment(let name):
                    guard let value = environment[name], !value.isEmpty else {
                        throw CommandFailure.config("\(hub.origin): hub.password_env names \(name), which is not set")
                    }
                    return value
                case .file(let path):
                    guard let data = FileManager.default.contents(atPath: path) else {
                        throw CommandFailure.config("\(hub.origin): hub.password_file \(path) cannot be read")
                    }
                    let text = String(decoding: data, as: UTF8.self)
                    return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
                }
            }
        }
    }
}
