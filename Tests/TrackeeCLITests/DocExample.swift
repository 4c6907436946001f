import Foundation

/// A command line shown in a document (README.md, recipes/README.md,
/// man/trackee.1, man/trackee-rules.5), with the output the document shows
/// after it, if any.
///
/// Examples are read from Markdown `sh` and `console` fences and from roff
/// `.EX`/`.EE` blocks. In a `console` fence or a roff block, a line that
/// starts with `$ ` is a command and the lines up to the next one its
/// output; elsewhere every line that is not a comment is a command. A
/// line ending in a backslash goes on in the next. A block of roff without
/// `$ ` lines is a command block only when its first line names a program
/// (rule files and units are not commands).
struct DocExample: CustomStringConvertible {
    var document: String
    var line: Int
    /// The command as typed, its trailing `# comment` removed.
    var command: String
    var comment: String?
    /// Whether it was shown as a session line (`$ command`, then output).
    var prompted: Bool
    var output: [String]

    var description: String { "\(document):\(line): \(command)" }

    /// The programs whose lines count as commands in a block without `$ `.
    static let programs: Set<String> = [
        "trackee", "make", "mkdir", "cp", "install", "systemctl", "man", "gpspipe", "gpsfake", "mosquitto_sub",
    ]

    /// The examples of a Markdown file.
    static func markdown(_ text: String, document: String) -> [DocExample] {
        var examples: [DocExample] = []
        var fence: String?
        var block: [(Int, String)] = []
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") {
                if let info = fence {
                    if info == "sh" || info == "console" {
                        examples += parse(block, document: document, prompted: info == "console")
                    }
                    fence = nil
                    block = []
                } else {
                    fence = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
                }
            } else if fence != nil {
                block.append((index + 1, line))
            }
        }
        return examples
    }

    /// The examples of a roff page.
    static func roff(_ text: String, document: String) -> [DocExample] {
        var examples: [DocExample] = []
        var block: [(Int, String)]?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line == ".EX" {
                block = []
            } else if line == ".EE", let lines = block {
                let plain = lines.map { ($0.0, unescape($0.1)) }
                if plain.contains(where: { $0.1.hasPrefix("$ ") }) {
                    examples += parse(plain, document: document, prompted: true)
                } else if let first = plain.first(where: { !$0.1.hasPrefix("#") && !$0.1.isEmpty }),
                    let word = first.1.split(separator: " ").first, programs.contains(String(word))
                {
                    examples += parse(plain, document: document, prompted: false)
                }
                block = nil
            } else if block != nil {
                block!.append((index + 1, line))
            }
        }
        return examples
    }

    /// The commands of one block.
    private static func parse(_ lines: [(Int, String)], document: String, prompted: Bool) -> [DocExample] {
        var examples: [DocExample] = []
        var index = 0
        while index < lines.count {
            var (number, text) = lines[index]
            index += 1
            if prompted {
                guard text.hasPrefix("$ ") else { continue }
                text.removeFirst(2)
            } else if text.trimmingCharacters(in: .whitespaces).isEmpty || text.hasPrefix("#") {
                continue
            }
            while text.hasSuffix("\\"), index < lines.count {
                text = String(text.dropLast()).trimmingCharacters(in: .whitespaces) + " "
                    + lines[index].1.trimmingCharacters(in: .whitespaces)
                index += 1
            }
            let (command, comment) = splitComment(text)
            var output: [String] = []
            if prompted {
                while index < lines.count, !lines[index].1.hasPrefix("$ ") {
                    output.append(lines[index].1)
                    index += 1
                }
                while output.last == "" { output.removeLast() }
            }
            examples.append(DocExample(document: document, line: number, command: command, comment: comment,
                                       prompted: prompted, output: output))
        }
        return examples
    }

    /// `command   # comment` apart, leaving a `#` inside quotes alone.
    static func splitComment(_ text: String) -> (String, String?) {
        var quote: Character?
        var previous: Character = " "
        for index in text.indices {
            let c = text[index]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "'" || c == "\"" {
                quote = c
            } else if c == "#" && previous == " " {
                let command = text[..<index].trimmingCharacters(in: .whitespaces)
                let comment = text[text.index(after: index)...].trimmingCharacters(in: .whitespaces)
                return (command, comment)
            }
            previous = c
        }
        return (text.trimmingCharacters(in: .whitespaces), nil)
    }

    /// The arguments of a command as a shell would split it: words, with
    /// single and double quotes, and `~/` at a word's start as `home`.
    static func arguments(_ command: String, home: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        for c in command {
            if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else if c == " " {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(c)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words.map { $0.hasPrefix("~/") ? home + $0.dropFirst(1) : $0 }
    }

    /// Roff text as it prints: escapes for dashes, quotes and symbols undone.
    static func unescape(_ line: String) -> String {
        var text = line
        for (escape, plain) in [
            ("\\-", "-"), ("\\[pc]", "·"), ("\\[en]", "–"), ("\\[em]", "—"), ("\\(em", "—"), ("\\(ga", "`"),
            ("\\(aq", "'"), ("\\(lq", "“"), ("\\(rq", "”"), ("\\fB", ""), ("\\fR", ""), ("\\fI", ""), ("\\e", "\\"),
        ] {
            text = text.replacingOccurrences(of: escape, with: plain)
        }
        return text
    }
}
