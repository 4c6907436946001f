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
                ENDPOINTS in `man trackee`).
                """,
            subcommands: [Add.self, List.self, Revoke.self])

        /// One token as `list --json` prints it, and `add --json` without
        /// the secret.
        struct View: Encodable {
            var name: String
            var scopes: [String]
            var created: String
            var last_used: String?
            var revoked: String?

            init(_ token: APIToken, zone: Zone) {
                name = token.name
                scopes = token.scopes.map(\.rawValue)
                created = zone.iso8601(token.created)
                last_used = token.lastUsed.map(zone.iso8601)
                revoked = token.revoked.map(zone.iso8601)
            }
        }
    }
}
