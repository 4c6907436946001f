import Foundation
import Testing
import TrackeeTestSupport

/// man/trackee.1 describes the command line the binary really has. The
/// commands and options are read from the built binary's `help`, so a new
/// subcommand or option fails here until the manual documents it.
@Suite struct ManPageTests {
    @Test func everyCommandAndSubcommandHasAHeadingInTheManual() throws {
        let commands = try CommandHelp.all()
        let manual = try Manual.load()
        let missing = commands.filter { !$0.path.isEmpty && manual.sections(for: $0.path).isEmpty }.map(\.name)
        #expect(missing.isEmpty, "man/trackee.1 has no .SS heading for: \(missing.joined(separator: ", "))")
    }

    @Test func everyLongOptionIsDocumentedWhereItsCommandIs() throws {
        let commands = try CommandHelp.all()
        let manual = try Manual.load()
        // Options every command takes (--store, --json, --help, --version)
        // are described once, under OPTIONS; the rest in their command's
        // own section.
        let leaves = commands.filter(\.subcommands.isEmpty)
        let shared = leaves.dropFirst().reduce(Set(leaves.first?.options ?? [])) { $0.intersection($1.options) }
        var missing: [String] = []
        for option in shared.sorted() where !manual.mentions(option, in: manual.section(named: "OPTIONS")) {
            missing.append("OPTIONS: \(option)")
        }
        for command in commands where !command.path.isEmpty {
            let text = manual.sections(for: command.path).joined(separator: "\n")
            for option in command.options where !shared.contains(option) && !manual.mentions(option, in: text) {
                missing.append("\(command.name): \(option)")
            }
        }
        #expect(missing.isEmpty, """
            man/trackee.1 does not document these options where their command is described:
            \(missing.joined(separator: "\n"))
            """)
    }

    @Test func sectionsTheHelpPointsToExistInTheManual() throws {
        let commands = try CommandHelp.all()
        let manual = try Manual.load()
        var missing: Set<String> = []
        for command in commands {
            for name in command.referencedSections where manual.section(named: name).isEmpty {
                missing.insert("\(name) (from trackee help \(command.path.joined(separator: " ")))")
            }
        }
        #expect(missing.isEmpty, "man/trackee.1 lacks sections the help refers to: \(missing.sorted().joined(separator: ", "))")
    }
}

/// One command's `trackee help` output, read the way ArgumentParser lays it
/// out: `OPTIONS:` and `SUBCOMMANDS:` blocks whose entries start two spaces
/// in, with wrapped descriptions indented further.
private struct CommandHelp: Sendable {
    var path: [String]
    var options: [String]
    var subcommands: [String]
    var referencedSections: [String]

    var name: String { (["trackee"] + path).joined(separator: " ") }

    /// The whole command tree, from `trackee help` down, read once.
    static func all() throws -> [CommandHelp] { try tree.get() }

    private static let tree = Result<[CommandHelp], any Error> {
        let binary = try TrackeeBinary.path()
        var found: [CommandHelp] = []
        var pending: [[String]] = [[]]
        while !pending.isEmpty {
            let path = pending.removeFirst()
            let help = try CommandHelp(path: path, text: run(binary, ["help"] + path))
            found.append(help)
            pending += help.subcommands.map { path + [$0] }
        }
        return found
    }

    init(path: [String], text: String) {
        self.path = path
        var options: [String] = []
        var subcommands: [String] = []
        var block = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let first = line.first, first.isUppercase, let colon = line.firstIndex(of: ":") {
                block = String(line[..<colon])
                continue
            }
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { continue }
            let entry = line.dropFirst(2)
            switch block {
            case "OPTIONS":
                // `-p, --project <project>`, `--json`, `--billable/--no-billable`.
                var names = entry.hasPrefix("-") && !entry.hasPrefix("--") ? entry.dropFirst(4) : entry
                names = names.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "/" }
                options += names.split(separator: "/").map(String.init).filter { $0.hasPrefix("--") }
            case "SUBCOMMANDS":
                let name = entry.prefix { $0.isLowercase || $0.isNumber || $0 == "-" }
                if !name.isEmpty { subcommands.append(String(name)) }
            default:
                break
            }
        }
        self.options = options
        self.subcommands = subcommands
        referencedSections = Self.sectionReferences(in: text)
    }

    /// `see TIME FORMATS` and the like: manual sections named in capitals.
    private static func sectionReferences(in text: String) -> [String] {
        let words = text.split(whereSeparator: \.isWhitespace)
        var names: [String] = []
        for (index, word) in words.enumerated() where word == "see" {
            var name: [Substring] = []
            for next in words[(index + 1)...] {
                let bare = next.trimmingCharacters(in: .punctuationCharacters)
                guard bare.count > 1, bare.allSatisfy(\.isUppercase) else { break }
                name.append(Substring(bare))
                if next.last.map({ $0.isPunctuation }) ?? false { break }
            }
            if !name.isEmpty { names.append(name.joined(separator: " ")) }
        }
        return names
    }

    private static func run(_ binary: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw HelpFailed(arguments: arguments, status: process.terminationStatus, output: text)
        }
        return text
    }

    struct HelpFailed: Error, CustomStringConvertible {
        var arguments: [String]
        var status: Int32
        var output: String
        var description: String { "trackee \(arguments.joined(separator: " ")) exited \(status): \(output)" }
    }
}

/// man/trackee.1 split at its `.SH` and `.SS` headings, with the roff
/// escapes that matter for matching (`\-`, font changes) undone.
private struct Manual {
    struct Section {
        var level: String
        var heading: String
        var body: [String]
    }

    var sections: [Section]

    static func load() throws -> Manual {
        // #filePath is <root>/Tests/TrackeeCLITests/ManPageTests.swift.
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let source = try String(contentsOf: root.appendingPathComponent("man/trackee.1"), encoding: .utf8)
        var sections: [Section] = []
        for raw in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = plain(String(raw))
            if line.hasPrefix(".SH ") || line.hasPrefix(".SS ") {
                let heading = line.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
                sections.append(Section(level: String(line.prefix(3)), heading: heading, body: []))
            } else if !sections.isEmpty {
                sections[sections.count - 1].body.append(line)
            }
        }
        return Manual(sections: sections)
    }

    /// The text of the `.SH` section with this name, its subsections included.
    func section(named name: String) -> String {
        guard let start = sections.firstIndex(where: { $0.level == ".SH" && $0.heading == name }) else { return "" }
        var text = sections[start].body
        for s in sections[(start + 1)...] {
            if s.level == ".SH" { break }
            text.append(s.heading)
            text += s.body
        }
        return text.joined(separator: "\n")
    }

    /// The bodies of the `.SS` sections whose heading names this command,
    /// such as `trackee projects edit NAME [options]` for `projects edit`.
    func sections(for path: [String]) -> [String] {
        let name = (["trackee"] + path).joined(separator: " ")
        return sections.filter { $0.level == ".SS" && Self.contains($0.heading, word: name) }
            .map { ([$0.heading] + $0.body).joined(separator: "\n") }
    }

    func mentions(_ option: String, in text: String) -> Bool {
        Self.contains(text, word: option)
    }

    /// Whether `word` occurs in `text` not followed by more of a name, so
    /// `--to` is not found in `--tomorrow` nor `trackee add` in `trackee adder`.
    private static func contains(_ text: String, word: String) -> Bool {
        var rest = text[...]
        while let range = rest.range(of: word) {
            let after = rest[range.upperBound...].first
            if !(after.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } ?? false) { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }

    /// A roff line with `\-` as `-` and font and spacing escapes removed.
    private static func plain(_ line: String) -> String {
        var out = ""
        var chars = line[...]
        while let c = chars.popFirst() {
            guard c == "\\", let next = chars.popFirst() else {
                out.append(c)
                continue
            }
            switch next {
            case "-": out.append("-")
            case "~", " ": out.append(" ")
            case "&", "%": break
            case "e": out.append("\\")
            case "f":
                // \fB, \fI, \fR, \fP, or \f(XX and \f[...].
                if chars.first == "(" {
                    chars = chars.dropFirst(3)
                } else if chars.first == "[" {
                    chars = chars.drop { $0 != "]" }.dropFirst()
                } else {
                    chars = chars.dropFirst()
                }
            default:
                out.append(c)
                out.append(next)
            }
        }
        return out
    }
}
