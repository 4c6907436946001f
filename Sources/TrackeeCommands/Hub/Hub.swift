import ArgumentParser
import Foundation
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct Hub: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hub",
            abstract: "Set up the PostgreSQL hub that devices are to replicate through.",
            discussion: """
                The hub is a PostgreSQL database named by `hub:` in the settings (see \
                CONFIGURATION in `man trackee`). Clients, projects and entries replicate through \
                it with `hub sync`; every other command works on the local store alone. The \
                PostgreSQL client is in trackee-daemon, installed next to trackee, which `hub \
                init` and `hub sync` become.
                """,
            subcommands: [Init.self, Sync.self, Status.self, Conflicts.self, Resolve.self, Grant.self, Revoke.self])

        /// The settings' hub, or the refusal of a command that needs one.
        static func settings(_ session: Session) throws -> HubSettings {
            guard let hub = session.settings.hub else {
                throw CommandFailure.config(
                    "\(Settings.path(environment: session.environment)): the settings have no hub: section; "
                        + "add one with the hub's url (see CONFIGURATION in man trackee)")
            }
            return hub
        }

        /// The registered replication; `trackee` becomes the daemon.
        static func replicator() throws -> any HubReplicator {
            guard let replicator = HubServing.registered else {
                try HTTPServing.execDaemon(for: "holds the hub's PostgreSQL client")
            }
            return replicator
        }

        /// The password the settings point at, read now; nil leaves it to
        /// libpq (`~/.pgpass`, a socket's peer authentication).
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
