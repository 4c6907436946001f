import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Tokens {
    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "Revoke a token: its next request is refused and its web page sign-ins end.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The token's name, as `tokens list` shows it.") var name: String

        struct Revoked: Encodable {
            var name: String
            var revoked: String
            var sessions_ended: Int
        }

        func run() throws {
            try Session.run(common) { session in
                let store = try session.openStore()
                guard let ended = try store.revoke(token: name, now: session.now) else {
                    if let earlier = try store.tokens().first(where: { $0.name == name })?.revoked {
                        throw CommandFailure.refused(
                            "token \"\(name)\" was revoked already, at \(session.zone.iso8601(earlier)); nothing changed")
                    }
                    throw StoreError.unknownToken(name)
                }
                if session.out.json {
                    return session.out.emit(Revoked(name: name, revoked: session.zone.iso8601(session.now), sessions_ended: ended))
                }
                session.out.line("revoked token \"\(name)\"; its next request is refused" + Self.ended(ended))
            }
        }

        /// `, and its 2 web sessions ended`; nothing for none.
        static func ended(_ count: Int) -> String {
            switch count {
            case 0: ""
            case 1: ", and its web session ended"
            default: ", and its \(count) web sessions ended"
            }
        }
    }
}
