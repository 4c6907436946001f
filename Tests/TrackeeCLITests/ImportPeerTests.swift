import Foundation
import Testing
import TrackeeTestSupport

/// `trackee import` of what the real Timewarrior and Watson wrote, held to
/// their own reports: `trackee summary` equals `timew summary` and
/// `watson report` over the same ranges.
@Suite struct ImportPeerTests {
    /// A program the test runs, and why it cannot here when it cannot.
    struct Peer {
        let path: String?
        let problem: String?

        init(_ candidates: [String], missing: String) {
            path = candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
            problem = path == nil ? missing : nil
        }

        func run(_ t: Sandbox, _ arguments: [String], environment: [String: String]) throws -> String {
            let run = try runProgram(try #require(path), arguments, environment: t.environment.merging(environment) { $1 },
                                     in: t.root)
            #expect(run.status == 0, "\(path ?? "") \(arguments.joined(separator: " ")) → \(run.status): \(run.stderr)")
            return run.stdout
        }
    }

    static let timew = Peer(["/usr/bin/timew", "/usr/local/bin/timew"],
                            missing: "timew is not installed (make test installs the Debian package timewarrior)")
    /// `make test` installs td-watson from PyPI into .build-watson.
    static let watson = Peer(
        [URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build-watson/venv/bin/watson").path, "/usr/bin/watson", "/usr/local/bin/watson"],
        missing: "watson is not installed (make test installs td-watson from PyPI into .build-watson/venv)")

    /// trackee's total for a range, in seconds, with filters.
    func total(_ t: Sandbox, from: String, to: String, _ filters: [String] = []) throws -> Int64 {
        try #require(try t.run(["summary", "--from", from, "--to", to, "--json"] + filters).json()["total_seconds"].int)
    }

    /// The grand total `timew summary` prints last (`4:00:00`), in seconds.
    static func timewTotal(_ text: String) -> Int64? {
        guard let last = text.split(separator: "\n").last(where: { !$0.allSatisfy(\.isWhitespace) }) else { return 0 }
        let parts = last.split(separator: " ").last?.split(separator: ":").compactMap { Int64($0) } ?? []
        guard parts.count == 3 else { return text.contains("No filtered data") ? 0 : nil }
        return parts[0] * 3600 + parts[1] * 60 + parts[2]
    }

    /// A JSON number of seconds (Watson writes 5400.0).
    static func seconds(_ value: JSONValue) -> Int64 {
        if case .number(let n) = value { return Int64(n) }
        return -1
    }

    @Test(.enabled(if: timew.problem == nil, Comment(rawValue: timew.problem ?? "timew runs")))
    func timewarriorsExportImportedSumsAsTimewSummary() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-28 12:00", createProjects: nil)
        let db = ["TIMEWARRIORDB": t.path("timew")]
        for interval in [
            ["2026-11-16T09:00", "-", "2026-11-16T10:30", "Docs", "writing"],
            ["2026-11-16T11:00", "-", "2026-11-16T12:00", "Ops"],
            ["2026-11-17T22:30", "-", "2026-11-18T01:00", "Docs", "night"],
            ["2026-11-18T14:00", "-", "2026-11-18T15:45", "Ops", "call"],
            ["2026-11-18T16:00", "-", "2026-11-18T16:20", "Docs", "review", "writing"],
        ] {
            _ = try Self.timew.run(t, ["track"] + interval, environment: db)
        }
        _ = try Self.timew.run(t, ["annotate", "@5", "chapter 2"], environment: db)
        _ = try Self.timew.run(t, ["start", "2026-11-19T09:00", "Docs"], environment: db)
        let export = try t.write(try Self.timew.run(t, ["export"], environment: db), to: "timew.json")
        let r = try t.run("import", "timewarrior", export, "--project-from-tag", "first")
        #expect(r.lines == ["imported 5 entries (1 skipped)", #"created project "Docs", project "Ops""#])
        #expect(r.stderr
                == "trackee: warning: \(export):7: end: the interval is still open (stop it in Timewarrior first); skipped\n")
        // Each day, the whole range, and each project and tag alone, clipped
        // to the range as both clip.
        let days = ["2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19"]
        var compared: [String: [Int64]] = [:]
        for (from, to) in zip(days, days.dropFirst()) + [(days[0], days[3])] {
            for (timewFilter, trackeeFilter) in [([], []), (["Docs"], ["-p", "Docs"]), (["Ops"], ["-p", "Ops"]),
                                                 (["writing"], ["-t", "writing"])] {
                let summary = try Self.timew.run(t, ["summary", from, "-", to] + timewFilter, environment: db)
                let theirs = try #require(Self.timewTotal(summary), "\(summary)")
                let ours = try total(t, from: from, to: to, trackeeFilter)
                #expect(ours == theirs, "\(from)–\(to) \(timewFilter): timew \(theirs) s, trackee \(ours) s")
                compared["\(from)–\(to) \(timewFilter)"] = [theirs, ours]
            }
        }
        // The figures both agree on, so a broken comparison cannot pass.
        #expect(compared["2026-11-16–2026-11-17 []"] == [9_000, 9_000])
        #expect(compared["2026-11-17–2026-11-18 [\"Docs\"]"] == [5_400, 5_400])
        #expect(compared["2026-11-16–2026-11-19 [\"writing\"]"] == [6_600, 6_600])
        #expect(try total(t, from: days[0], to: days[3]) == 25_500)
    }

    @Test(.enabled(if: watson.problem == nil, Comment(rawValue: watson.problem ?? "watson runs")))
    func watsonsFramesImportedSumAsWatsonReport() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-28 12:00", createProjects: nil)
        let dir = ["WATSON_DIR": t.path("watson")]
        try FileManager.default.createDirectory(atPath: t.path("watson"), withIntermediateDirectories: true)
        for frame in [
            ["-f", "2026-11-20 09:00", "-t", "2026-11-20 10:30", "docs", "+writing", "+draft"],
            ["-f", "2026-11-20 11:00", "-t", "2026-11-20 12:15", "ops"],
            ["-f", "2026-11-21 23:00", "-t", "2026-11-22 01:00", "docs", "+night"],
            ["-f", "2026-11-22 08:00", "-t", "2026-11-22 08:40", "ops", "+call"],
        ] {
            _ = try Self.watson.run(t, ["add"] + frame, environment: dir)
        }
        let frames = t.path("watson/frames")
        let r = try t.run("import", "watson", frames)
        #expect(r.lines == ["imported 4 entries", #"created project "docs", project "ops""#])
        #expect(r.stderr == "")
        // watson log --json names the same frames: all known.
        let log = try t.write(try Self.watson.run(t, ["log", "--json", "--from", "2026-11-19", "--to", "2026-11-23"],
                                                  environment: dir), to: "log.json")
        #expect(try t.run("import", "watson", log).lines == ["imported 0 entries (4 already imported)"])
        // watson report's range is whole days, to the last one's end.
        for (from, to, next) in [("2026-11-20", "2026-11-20", "2026-11-21"), ("2026-11-20", "2026-11-22", "2026-11-23")] {
            let report = try parsedJSON(try Self.watson.run(t, ["report", "--json", "--from", from, "--to", to], environment: dir))
            let theirs = report["projects"].elements.map { ($0["name"].string ?? "", Self.seconds($0["time"])) }
            let ours = try t.run(["summary", "--from", from, "--to", next, "--json"]).json()["lines"].elements
                .map { ($0["name"].string ?? "", $0["seconds"].int ?? -2) }
            #expect(ours.map(\.0) == theirs.map(\.0))
            #expect(ours.map(\.1) == theirs.map(\.1), "\(from)–\(to)")
            for project in report["projects"].elements {
                let name = project["name"].string ?? ""
                let theirTags = project["tags"].elements.map { ($0["name"].string ?? "", Self.seconds($0["time"])) }
                    .sorted { $0.0 < $1.0 }
                let ourTags = try t.run(["summary", "--from", from, "--to", next, "--by", "tag", "-p", name, "--json"]).json()["lines"]
                    .elements.map { ($0["name"].string ?? "", $0["seconds"].int ?? -2) }
                    .filter { !$0.0.isEmpty }.sorted { $0.0 < $1.0 }  // Watson leaves out untagged time
                #expect(ourTags.map(\.0) == theirTags.map(\.0), "\(name) \(from)–\(to)")
                #expect(ourTags.map(\.1) == theirTags.map(\.1), "\(name) \(from)–\(to)")
            }
        }
        #expect(try total(t, from: "2026-11-20", to: "2026-11-23") == 19_500)
    }
}
