import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct Tokens: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tokens",
            abstract: "Add, list and revoke the HTTP API's per-device tokens.",
            discussion: """
                Each phone, hub or script gets its own token, limited to the scopes it needs. \
                The store keeps only a hash of a token: `tokens add` prints it once, and nothing \
                shows it again. `trackee run` takes them when its settings have `http:` (see \
                ENDPOINTS in `man trackee`). A token also signs in on the web page `trackee run` \
                serves: each sign-in is a session, kept as a hash for `http.session_days`, listed \
                under its token by `tokens list` and ended by `tokens revoke`.
                """,
            subcommands: [Add.self, List.self, Revoke.self])

        /// One token as `list --json` prints it, with its web page
        /// sessions that have not expired.
        struct View: Encodable {
            var name: String
            var scopes: [String]
            var created: String
            var last_used: String?
            var revoked: String?
            var sessions: [SessionView]

            init(_ token: APIToken, sessions: [WebSession], zone: Zone) {
                name = token.name
                scopes = token.scopes.map(\.rawValue)
                created = zone.iso8601(token.created)
                last_used = token.lastUsed.map(zone.iso8601)
                revoked = token.revoked.map(zone.iso8601)
                self.sessions = sessions.map { SessionView($0, zone: zone) }
            }
        }

        /// One sign-in on the web page, in a token's `sessions`.
        struct SessionView: Encodable {
            var id: String
            var created: String
            var last_used: String
            var expires: String

            init(_ session: WebSession, zone: Zone) {
                id = session.id
                created = zone.iso8601(session.created)
                last_used = zone.iso8601(session.lastUsed)
                expires = zone.iso8601(session.expires)
            }
        }
    }
}
