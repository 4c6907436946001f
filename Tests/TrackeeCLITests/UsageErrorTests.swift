import Foundation
import Testing
import TrackeeTestSupport

/// A command line the parser cannot read is reported as trackee(1) says:
/// one line starting with `trackee:` that names what is wrong (the
/// mistyped command, or the option unknown to that command, with the
/// nearest real one when one is close), then one line pointing at the
/// usage; exit status 64, and no store created.
@Suite struct UsageErrorTests {
    private func expectUsage(_ arguments: [String], _ sentence: String, help: String,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let t = try Sandbox()
        let r = try t.run(arguments)
        #expect(r.status == 64, "\(r)", sourceLocation: sourceLocation)
        #expect(r.stdout == "", sourceLocation: sourceLocation)
        #expect(r.stderr == "trackee: \(sentence)\nSee '\(help) --help'.\n", sourceLocation: sourceLocation)
        #expect(t.listing(t.path("store")) == [], sourceLocation: sourceLocation)
    }

    @Test func aMistypedCommandIsNamedWithTheNearestOne() throws {
        try expectUsage(["strat", "-p", "Docs"], "unknown command 'strat'; did you mean 'start'?", help: "trackee")
        try expectUsage(["rules", "chek"], "unknown command 'chek' for 'trackee rules'; did you mean 'check'?",
                        help: "trackee rules")
        // `projects` lists by default; a word close to one of its commands
        // is still taken for a mistyped command.
        try expectUsage(["projects", "ad", "Docs"], "unknown command 'ad' for 'trackee projects'; did you mean 'add'?",
                        help: "trackee projects")
    }

    @Test func aWordFarFromEveryCommandGetsNoSuggestion() throws {
        try expectUsage(["frobnicate"], "unknown command 'frobnicate'", help: "trackee")
    }

    /// `status` has no --from; its own options are --json and --store,
    /// neither of them near, so nothing is suggested (the parser's own
    /// check offered --json for `log --from` before `log` had --from).
    @Test func anUnknownOptionIsSuggestedOnlyFromThatCommandsOptions() throws {
        try expectUsage(["status", "--from", "monday"], "unknown option '--from' for 'trackee status'",
                        help: "trackee status")
        try expectUsage(["log", "--limt", "5"], "unknown option '--limt' for 'trackee log'; did you mean '--limit'?",
                        help: "trackee log")
        try expectUsage(["rules", "check", "--strcit"],
                        "unknown option '--strcit' for 'trackee rules check'; did you mean '--strict'?",
                        help: "trackee rules check")
    }

    @Test func otherParserErrorsAreOneLineToo() throws {
        try expectUsage(["start", "--at"], "missing value for '--at <at>'", help: "trackee start")
        try expectUsage(["add", "--from", "09:00"], "missing expected argument '--to <to>'", help: "trackee add")
        try expectUsage(["start", "-p", "Docs", "-d", "x", "more", "words"],
                        "give the description either as words or with --description, not both", help: "trackee start")
    }

    @Test func helpAndVersionStillExitZero() throws {
        let t = try Sandbox()
        for arguments in [["--help"], ["start", "--help"], ["help", "start"], ["help", "rules", "check"]] {
            let r = try t.run(arguments)
            #expect(r.status == 0, "\(r)")
            #expect(r.stderr == "")
            #expect(r.stdout.hasPrefix("OVERVIEW: ") || r.stdout.hasPrefix("USAGE: "), "\(r)")
        }
        let version = try t.run("--version")
        #expect(version.status == 0)
        #expect(version.stdout == "0.1.0\n")
    }
}
