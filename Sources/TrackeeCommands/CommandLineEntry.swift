import ArgumentParser
import Foundation
import TrackeeCore

extension Trackee {
    /// Parses the command line and runs the command, as ArgumentParser's
    /// `main()` does, but reports a command line it cannot parse the way
    /// trackee(1) promises: one line starting with `trackee:`, then at most
    /// a line saying where the usage is. `--help`, `--version` and `help
    /// CMD` are ArgumentParser's own. Nothing here runs unless parsing
    /// failed.
    public static func runCommandLine() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        var command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            let status = exitCode(for: error)
            if status.isSuccess { exit(withError: error) }
            writeAll(2, UsageError(message: message(for: error), arguments: arguments).text)
            exit(withError: status)
        }
        do {
            try command.run()
        } catch {
            // `help CMD` and `--help` arrive here as a command whose run
            // throws a clean exit; an ExitCode has been reported already.
            let status = exitCode(for: error)
            if status.isSuccess || error is ExitCode { exit(withError: error) }
            writeAll(2, "trackee: \(message(for: error))\n")
            exit(withError: status)
        }
    }
}

/// A command line ArgumentParser could not parse, told in trackee's words.
///
/// ArgumentParser's message says what it met ("Unknown option '-p'"), but
/// not which word was wrong when a mistyped command made the rest
/// meaningless, and its "did you mean" compares names with a loose
/// distance across every option ("log --from" → "--json"). Here an unknown
/// command is named as such, and suggestions come from ``nearest(to:among:)``
/// over the names of that command only.
struct UsageError {
    /// ArgumentParser's message, without its "Error: " prefix.
    var message: String
    var arguments: [String]

    /// The one or two lines to write to stderr.
    var text: String {
        let (path, next) = Self.commandPath(arguments)
        let current = path.last!
        let name = (["trackee"] + path.dropFirst().map { $0._commandName }).joined(separator: " ")
        var sentence: String
        // Under a command with a default subcommand (`projects` lists) a
        // word can be that subcommand's argument, so it counts as a
        // mistyped command only when it is close to one.
        if let next, !next.hasPrefix("-"), let subcommands = Self.subcommandNames(current, isRoot: path.count == 1),
           !subcommands.contains(next),
           current.configuration.defaultSubcommand == nil
            || (message.hasPrefix("Unexpected argument") || message.contains("unexpected arguments"))
                && nearest(to: next, among: subcommands) != nil
        {
            sentence = "unknown command '\(next)'"
            if path.count > 1 { sentence += " for '\(name)'" }
            if let near = nearest(to: next, among: subcommands) { sentence += "; did you mean '\(near)'?" }
        } else if let option = Self.unknownOption(in: message) {
            sentence = "unknown option '\(option)' for '\(name)'"
            if option.hasPrefix("--"), let near = nearest(to: String(option.dropFirst(2)), among: Self.longOptions(current)) {
                sentence += "; did you mean '--\(near)'?"
            }
        } else {
            // Some messages run to two lines ("…\n   or: …").
            sentence = message.split(whereSeparator: \.isNewline)
                .map { String($0).trimmingWhitespace() }.joined(separator: "; ")
            if let first = sentence.first, first.isUppercase, sentence.dropFirst().first?.isLowercase == true {
                sentence = first.lowercased() + sentence.dropFirst()
            }
            if sentence.hasSuffix("."), !sentence.hasSuffix("..") { sentence.removeLast() }
        }
        return "trackee: \(sentence)\nSee '\(name) --help'.\n"
    }

    /// The commands the leading words name (the root first), and the word
    /// after them, if any.
    static func commandPath(_ arguments: [String]) -> (path: [ParsableCommand.Type], next: String?) {
        var path: [ParsableCommand.Type] = [Trackee.self]
        for word in arguments {
            let subcommands = path.last!.configuration.subcommands
            guard let sub = subcommands.first(where: { $0._commandName == word || $0.configuration.aliases.contains(word) })
            else { return (path, word) }
            path.append(sub)
        }
        return (path, nil)
    }

    /// The names of a command's subcommands, nil when it has none; the
    /// root also has ArgumentParser's `help`.
    static func subcommandNames(_ command: ParsableCommand.Type, isRoot: Bool) -> [String]? {
        let subcommands = command.configuration.subcommands
        if subcommands.isEmpty { return nil }
        return subcommands.map { $0._commandName } + (isRoot ? ["help"] : [])
    }

    /// The option ArgumentParser's "Unknown option '…'" names.
    static func unknownOption(in message: String) -> String? {
        let prefix = "Unknown option '"
        guard message.hasPrefix(prefix) else { return nil }
        let rest = message.dropFirst(prefix.count)
        guard let end = rest.firstIndex(of: "'") else { return nil }
        return String(rest[..<end])
    }

    /// A command's long option names without dashes, from the description
    /// ArgumentParser gives of its arguments (the only public list).
    static func longOptions(_ command: ParsableCommand.Type) -> [String] {
        guard let json = try? JSONSerialization.jsonObject(with: Data(command._dumpHelp().utf8)) as? [String: Any],
              let info = json["command"] as? [String: Any],
              let arguments = info["arguments"] as? [[String: Any]]
        else { return [] }
        return arguments.flatMap { argument -> [String] in
            guard argument["shouldDisplay"] as? Bool != false, let names = argument["names"] as? [[String: Any]] else { return [] }
            return names.compactMap { $0["kind"] as? String == "long" ? $0["name"] as? String : nil }
        }
    }
}
