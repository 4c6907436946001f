import Testing
import TrackeeTestSupport

/// Colour needs a terminal: with NO_COLOR unset and a colour TERM, output
/// to a file or pipe is still plain text.
@Suite struct ColorTests {
    @Test func noEscapeCodesWhenStdoutIsNotATerminal() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        let colourful: [String: String?] = ["NO_COLOR": nil, "TERM": "xterm-256color", "COLORTERM": "truecolor"]
        let runs: [([String], [String])] = [
            (["start", "-p", "Docs", "--at", "10:00"], ["created project \"Docs\"", "started Docs at 10:00"]),
            (["status"], ["running Docs #1", "since   10:00 (2:00 elapsed)", "today   2:00", "week    2:00"]),
            (["log"], ["Fri 2026-11-20  2:00", "  #1     10:00–now      2:00  Docs"]),
            (["summary"], ["Fri 2026-11-20", "  Docs      2:00", "  total     2:00"]),
            (["cancel"], ["cancelled Docs, started 10:00; 2:00 discarded"]),
            (["add", "--from", "08:00", "--to", "09:00"], ["added #2 (no project) 08:00–09:00 (1:00)"]),
        ]
        for (arguments, lines) in runs {
            let r = try t.run(arguments, environment: colourful)
            #expect(r.status == 0)
            #expect(r.lines == lines)
            #expect(!r.stdout.contains("\u{1B}"))
        }
    }
}
