import Foundation
import Testing
import TrackeeTestSupport

/// README's sharing walk-through ("Sharing with other people"), run as
/// written against a private cluster: each `who$ command` in the block
/// that starts with `admin$`, on that person's machine, printing exactly
/// the lines shown after it (stderr, then stdout), and exiting 0 or with
/// the status an `echo $?` after it shows.
@Suite(.serialized) struct HubWalkthroughTests {
    struct Step: CustomStringConvertible {
        var line: Int
        var who: String
        var command: String
        var output: [String] = []
        var status: Int32 = 0
        var description: String { "README.md:\(line): \(who)$ \(command)" }
    }

    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    /// The steps of the `console` block whose first line is `admin$ …`.
    static func steps() throws -> [Step] {
        let lines = try String(contentsOf: readme, encoding: .utf8).components(separatedBy: "\n")
        guard let start = lines.indices.first(where: { lines[$0] == "```console" && lines[$0 + 1].hasPrefix("admin$ ") })
        else { return [] }
        var steps: [Step] = []
        var index = start + 1
        while index < lines.count, lines[index] != "```" {
            let text = lines[index]
            index += 1
            guard let prompt = text.firstMatch(of: /^([a-z@]+)\$ (.*)$/) else {
                if !steps.isEmpty { steps[steps.count - 1].output.append(text) }
                continue
            }
            // `echo $?` shows the status of the command before it.
            if prompt.2 == "echo $?", !steps.isEmpty, index < lines.count {
                steps[steps.count - 1].status = Int32(lines[index]) ?? -1
                index += 1
                continue
            }
            steps.append(Step(line: index, who: String(prompt.1), command: String(prompt.2)))
        }
        return steps
    }

    /// A command line as the shell splits it: words, '…' and "…" kept whole.
    static func words(_ command: String) -> [String] {
        var words: [String] = []
        var word: String?
        var quote: Character?
        for c in command {
            if let q = quote {
                if c == q { quote = nil } else { word!.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
                word = word ?? ""
            } else if c == " " {
                if let w = word { words.append(w) }
                word = nil
            } else {
                word = (word ?? "") + String(c)
            }
        }
        if let w = word { words.append(w) }
        return words
    }

    static func lines(_ text: String) -> [String] {
        var text = text
        if text.hasSuffix("\n") { text.removeLast() }
        return text.isEmpty ? [] : text.components(separatedBy: "\n")
    }

    @Test func theSharingWalkthroughRunsAsWritten() throws {
        let steps = try Self.steps()
        #expect(steps.count >= 10, "README.md has no walk-through block starting with admin$")
        guard let pg = try HubInitTests.cluster() else { return }
        try pg.sql("CREATE ROLE postgres SUPERUSER LOGIN PASSWORD 'postgres-secret'")
        let url = pg.url(database: "trackee")
        let machines = [
            "admin": try HubInitTests.settings(url: url, password: "alice-secret", device: "admin"),
            "alice@laptop": try HubInitTests.settings(url: url, password: "alice-secret", device: "laptop"),
            "bob@desk": try HubInitTests.settings(url: url, password: "bob-secret", device: "desk", user: "bob"),
        ]
        let server = pg.environment(as: "postgres", password: "postgres-secret")
        for step in steps {
            guard let machine = machines[step.who] else {
                Issue.record("\(step): nobody here is \(step.who)")
                continue
            }
            let words = Self.words(step.command)
            let environment = step.who == "admin" ? server : [:]
            let r: (status: Int32, stdout: String, stderr: String)
            switch words.first {
            case "trackee":
                let run = try machine.run(Array(words.dropFirst()), environment: environment)
                r = (run.status, run.stdout, run.stderr)
            case "psql", "createdb":
                guard step.who == "admin" else {
                    Issue.record("\(step): only the administrator runs \(words[0]) here")
                    continue
                }
                r = try runProgram(
                    PostgresCluster.bin + "/" + words[0], Array(words.dropFirst()),
                    environment: server.merging(["PATH": "/usr/bin:/bin", "HOME": machine.path("home")]) { $1 },
                    in: machine.root)
            default:
                Issue.record("\(step): the walk-through runs trackee, psql and createdb only")
                continue
            }
            #expect(r.status == step.status, "\(step)\n\(r)")
            #expect(Self.lines(r.stderr) + Self.lines(r.stdout) == step.output, "\(step)\n\(r)")
        }
    }
}
