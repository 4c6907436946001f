import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Tokens {
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
}
