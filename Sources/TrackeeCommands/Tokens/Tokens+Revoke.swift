import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Tokens {
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
