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

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add",
                abstract: "Make a token for a device and print it, the only time it is shown.")
            @OptionGroup var common: CommonOptions
            @Argument(help: "The device's name: 1 to 64 letters, digits, dots, underscores or hyphens.") var name: String
            @Option(name: .customLong("scope"),
                    help: ArgumentHelp("What the token may do, comma-separated: start, stop, cancel, read, events, owntracks (default: all).",
                                       valueName: "scopes"))
            var scopeLists: [String] = []

            /// The scopes asked for, in their stored order; all of them
            /// without --scope.
            func scopes() throws -> [TokenScope] {
                guard !scopeLists.isEmpty else { return TokenScope.allCases }
                var chosen: [TokenScope] = []
                let names = TokenScope.allCases.map(\.rawValue)
                for word in scopeLists.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
                    let word = String(word).trimmingWhitespace()
                    guard let scope = TokenScope(rawValue: word) else {
                        let hint = nearest(to: word, among: names).map { "did you mean \"\($0)\"?" }
                            ?? "scopes are \(names.joined(separator: ", "))"
                        throw ValidationError(word.isEmpty ? "--scope has an empty scope; scopes are \(names.joined(separator: ", "))"
                                                           : "--scope \"\(word)\" is no scope; \(hint)")
                    }
                    chosen.append(scope)
                }
                return TokenScope.ordered(chosen)
            }

            func validate() throws {
                _ = try scopes()
                if !APIToken.isValidName(name) { throw ValidationError(StoreError.invalidTokenName(name).description) }
            }

            struct Made: Encodable {
                var token: String
                var name: String
                var scopes: [String]
                var created: String
            }

            func run() throws {
                try Session.run(common) { session in
                    let scopes = try scopes()
                    let secret = try session.openStore().addToken(name: name, scopes: scopes, now: session.now)
                    if session.out.json {
                        return session.out.emit(Made(token: secret, name: name, scopes: scopes.map(\.rawValue),
                                                     created: session.zone.iso8601(session.now)))
                    }
                    session.out.line(secret)
                    session.out.line("token \"\(name)\" may \(scopes.map(\.rawValue).joined(separator: ", ")); "
                                     + "copy it into the device now: it cannot be shown again")
                }
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "List the tokens: name, scopes, created, last used and revoked.")
            @OptionGroup var common: CommonOptions

            func run() throws {
                try Session.run(common) { session in
                    let tokens = try session.openStore().tokens()
                    if session.out.json { return session.out.emit(tokens.map { View($0, zone: session.zone) }) }
                    if tokens.isEmpty { return session.out.line("no tokens; `trackee tokens add NAME` makes one") }
                    let nameWidth = tokens.map(\.name.count).max() ?? 0
                    let scopeTexts = tokens.map { $0.scopes.map(\.rawValue).joined(separator: ",") }
                    let scopeWidth = scopeTexts.map(\.count).max() ?? 0
                    for (token, scopes) in zip(tokens, scopeTexts) {
                        var text = token.name.rightPadded(nameWidth) + "  " + scopes.rightPadded(scopeWidth)
                        text += "  created " + session.zone.iso8601(token.created)
                        text += "  last used " + (token.lastUsed.map(session.zone.iso8601) ?? "never")
                        if let revoked = token.revoked { text += "  revoked " + session.zone.iso8601(revoked) }
                        session.out.line(text)
                    }
                }
            }
        }

        struct Revoke: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "revoke", abstract: "Revoke a token: its next request is refused.")
            @OptionGroup var common: CommonOptions
            @Argument(help: "The token's name, as `tokens list` shows it.") var name: String

            struct Revoked: Encodable {
                var name: String
                var revoked: String
            }

            func run() throws {
                try Session.run(common) { session in
                    let store = try session.openStore()
                    guard try store.revokeToken(name: name, now: session.now) else {
                        if let earlier = try store.tokens().first(where: { $0.name == name })?.revoked {
                            throw CommandFailure.refused(
                                "token \"\(name)\" was revoked already, at \(session.zone.iso8601(earlier)); nothing changed")
                        }
                        throw CommandFailure.refused("no token named \"\(name)\"; `trackee tokens list` lists them")
                    }
                    if session.out.json {
                        return session.out.emit(Revoked(name: name, revoked: session.zone.iso8601(session.now)))
                    }
                    session.out.line("revoked token \"\(name)\"; its next request is refused")
                }
            }
        }
    }
}
