import ArgumentParser
import Foundation
import TrackeeCore
import TrackeeSettings
import TrackeeStore

extension Trackee {
    struct Hub: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hub",
            abstract: "Set up the PostgreSQL hub that devices are to replicate through.",
            discussion: """
                The hub is a PostgreSQL database named by `hub:` in the settings (see \
                CONFIGURATION in `man trackee`). Clients, projects and entries replicate through \
                it with `hub sync`; every other command works on the local store alone. Each \
                person is a PostgreSQL role, and the database keeps each to their own timeline \
                and those shared with them; `hub init` and `hub limit` are the administrator's. \
                The PostgreSQL client is in trackee-daemon, installed next to trackee, which the \
                commands that reach the hub become.
                """,
            subcommands: [
                Init.self, Sync.self, Status.self, Conflicts.self, Resolve.self, Grant.self, Revoke.self, Check.self,
                Limit.self,
            ])

        /// The settings' hub, or the refusal of a command that needs one.
        static func settings(_ session: Session) throws -> HubSettings {
            guard let hub = session.settings.hub else {
                throw CommandFailure.config(
                    "\(Settings.path(environment: session.environment)): the settings have no hub: section; "
                        + "add one with the hub's url (see CONFIGURATION in man trackee)")
            }
            return hub
        }

        /// The settings and password for the hub's administrator: `--user
        /// ROLE` in place of the settings' user, whose password (the
        /// person's) is then not sent; libpq finds the administrator's
        /// (PGPASSWORD, ~/.pgpass, a socket's peer authentication).
        static func administrator(_ session: Session, user: String?) throws -> (settings: HubSettings, password: String?) {
            var hub = try settings(session)
            guard let user, user != hub.user else {
                return (hub, try password(hub, environment: session.environment))
            }
            hub.user = user
            return (hub, nil)
        }

        /// The registered replication; `trackee` becomes the daemon.
        static func replicator() throws -> any HubReplicator {
            guard let replicator = HubServing.registered else {
                try HTTPServing.execDaemon(for: "holds the hub's PostgreSQL client")
            }
            return replicator
        }

        /// What `body` gives, or, when the hub could not be used, its
        /// sentence after the settings' place (exit status 75).
        static func reaching<T>(_ hub: HubSettings, _ body: () throws -> T) throws -> T {
            do {
                return try body()
            } catch {
                throw CommandFailure(message: "\(hub.origin): hub: \(error)", status: 75)
            }
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
