import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Tokens {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the tokens (name, scopes, created, last used, revoked), each with its web page sign-ins.")
        @OptionGroup var common: CommonOptions

        func run() throws {
            try Session.run(common) { session in
                let store = try session.openStore()
                let tokens = try store.tokens()
                let sessions = Dictionary(grouping: try store.sessions(now: session.now), by: \.token)
                if session.out.json {
                    return session.out.emit(tokens.map { View($0, sessions: sessions[$0.name] ?? [], zone: session.zone) })
                }
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
                    for signedIn in sessions[token.name] ?? [] {
                        session.out.line("  session \(signedIn.id)  signed in \(session.zone.iso8601(signedIn.created))"
                                         + "  last used \(session.zone.iso8601(signedIn.lastUsed))"
                                         + "  expires \(session.zone.iso8601(signedIn.expires))")
                    }
                }
            }
        }
    }
}
