import Foundation
import Testing
import TrackeeTestSupport

/// `trackee import`: each format's rows added once, what it created named,
/// bad rows skipped with their line and field, one undo for the whole.
@Suite struct ImportCommandTests {
    /// #filePath is <root>/Tests/TrackeeCLITests/ImportCommandTests.swift.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static func fixture(_ name: String) -> String {
        root.appendingPathComponent("Tests/Fixtures/import/\(name)").path
    }

    /// The log lines of the whole store, the day headers left out.
    func entries(_ t: Sandbox) throws -> [String] {
        try t.run("log", "--limit", "1000").lines.filter { $0.hasPrefix("  ") }
    }

    @Test func togglsDetailedReportWithItsClientsProjectsAndTags() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-28 12:00", createProjects: nil)
        let path = Self.fixture("toggl-detailed.csv")
        let r = try t.run("import", "toggl", path)
        #expect(r.status == 0)
        #expect(r.lines == [
            "imported 4 entries (1 skipped)",
            #"created client "Acme", project "Website", project "Admin""#,
        ])
        #expect(r.stderr == "trackee: warning: \(path):6: End time: \"10:61:00\" is not a time of day; skipped\n")
        #expect(try entries(t) == [
            "  #4     21:00–00:30+1d    3:30  (no project) · Reading",
            "  #3     08:30–09:00    0:30  Admin · Invoices",
            "  #2     13:00–14:00    1:00  Website (Acme) · Copy",
            "  #1     09:00–11:30    2:30  Website (Acme) · Header, footer · #design #review",
        ])
        #expect(try t.run("projects", "list").lines == ["Admin           1 entry", "Website (Acme)  billable  2 entries"])
        #expect(try t.run("export", "--format", "csv").stdout.split(separator: "\r\n").dropFirst()
                .map { $0.split(separator: ",").last } == ["import:toggl", "import:toggl", "import:toggl", "import:toggl"])
    }

    @Test func clockifysReportWithRatesAndAnOverlapInsideTheFile() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-28 12:00", createProjects: nil)
        let path = Self.fixture("clockify-detailed.csv")
        let r = try t.run("import", "clockify", path)
        #expect(r.status == 0)
        #expect(r.lines == [
            "imported 4 entries (1 skipped)",
            #"created client "Acme", project "Website", client "Globex", project "Support", project "Internal""#,
            "overlapping: line 5 (#2 overlaps #1)",
        ])
        #expect(r.stderr == "trackee: warning: \(path):6: Start Date: \"31/02/2026\" is not a date (dmy); skipped\n")
        #expect(try entries(t) == [
            "  #4     16:00–17:00    1:00  Internal · Planning",
            "  #3     13:00–14:15    1:15  Support (Globex) · Ticket #42 · #phone #urgent",
            "  #2     10:00–10:30    0:30  Website (Acme) · Overlap",
            "  #1     09:00–11:30    2:30  Website (Acme) · Header · #design",
        ])
        #expect(try t.run("projects", "list").lines == [
            "Internal          1 entry", "Website (Acme)    billable  80.00/h  2 entries",
            "Support (Globex)  billable  60.50/h  1 entry",
        ])
    }

    /// The same file again adds nothing; a later export that overlaps the
    /// first adds only its new rows; undo takes back one import whole.
    @Test func importsAreExactlyOnceAndUndoneWhole() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-28 12:00", createProjects: nil)
        let first = try t.write("""
            [
            {"id":2,"start":"20261116T080000Z","end":"20261116T093000Z","tags":["Docs","writing"]},
            {"id":1,"start":"20261116T100000Z","end":"20261116T110000Z","tags":["Ops"]}
            ]
            """, to: "first.json")
        let later = try t.write("""
            [
            {"id":3,"start":"20261116T080000Z","end":"20261116T093000Z","tags":["Docs","writing"]},
            {"id":2,"start":"20261116T100000Z","end":"20261116T110000Z","tags":["Ops"]},
            {"id":1,"start":"20261117T080000Z","end":"20261117T090000Z","tags":["Docs"]}
            ]
            """, to: "later.json")
        #expect(try t.run("import", "timewarrior", first, "--project-from-tag", "first").lines == [
            "imported 2 entries", #"created project "Docs", project "Ops""#,
        ])
        let files = t.storeFiles()
        #expect(try t.run("import", "timewarrior", first, "--project-from-tag", "first").lines == [
            "imported 0 entries (2 already imported)",
        ])
        #expect(t.storeFiles().database == files.database)
        let r = try t.run("import", "timewarrior", later, "--project-from-tag", "first", "--json")
        let step = try t.run("undo", "--list", "--limit", "1", "--json").json()[0]
        #expect(step["label"].string == "import timewarrior")
        #expect(r.stdout == #"{"already_imported":2,"created":[],"dry_run":false,"imported":1,"overlapping":[],"skipped":0,"step":"#
                + "\(try #require(step["step"].int))}\n")
        #expect(try t.run("undo").lines == [#"undid "import timewarrior": removed 1 entry (#3)"#])
        #expect(try t.run("undo").lines == [
            #"undid "import timewarrior": removed 2 entries (#1 #2); removed project "Docs", project "Ops""#,
        ])
        #expect(try t.run("log").lines == ["no entries yet; `trackee start` begins one"])
        // Undone, the rows are new again.
        #expect(try t.run("import", "timewarrior", later, "--project-from-tag", "first").lines == [
            "imported 3 entries", #"created project "Docs", project "Ops""#,
        ])
    }

    @Test func aDryRunSaysWhatWouldBeAddedAndChangesNothing() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-28 12:00", createProjects: nil)
        #expect(try t.run("add", "--from", "2026-11-16 09:30", "--to", "2026-11-16 09:45", "-p", "Call", "--new-project").status == 0)
        let files = t.storeFiles()
        let path = try t.write("""
            [
            {"id":2,"start":"20261116T080000Z","end":"20261116T093000Z","tags":["project:Docs","writing"]},
            {"id":1,"start":"20261116T100000Z","end":"20261116T110000Z","tags":["Ops"]}
            ]
            """, to: "export.json")
        let dry = try t.run("import", "timewarrior", path, "--project-from-tag", "project:", "--dry-run")
        #expect(dry.lines == [
            "would import 2 entries", #"would create project "Docs""#, "overlapping: line 2 (#2 overlaps #1)",
            "dry run: nothing changed",
        ])
        #expect(t.storeFiles() == files)
        let done = try t.run("import", "timewarrior", path, "--project-from-tag", "project:")
        #expect(done.lines == [
            "imported 2 entries", #"created project "Docs""#, "overlapping: line 2 (#2 overlaps #1)",
        ])
        #expect(try entries(t) == [
            "  #3     11:00–12:00    1:00  (no project) · #Ops",
            "  #1     09:30–09:45    0:15  Call",
            "  #2     09:00–10:30    1:30  Docs · #writing",
        ])
    }

    /// trackee's own export, imported into an empty store, exports again
    /// byte for byte: ids, sources, clients, rates, quotes and commas.
    @Test(arguments: ["csv", "json"]) func trackeesOwnExportRoundTripsByteForByte(format: String) throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-28 12:00")
        for command in [
            ["projects", "add", "Docs", "-c", "Acme", "--billable", "--rate", "80.5"],
            ["add", "--from", "2026-11-20 09:00", "--to", "2026-11-20 10:00", "-p", "Docs", "-c", "Acme", "-t", "writing",
             "-t", "a b", #"Chapter "2", draft"#],
            ["add", "--from", "2026-11-20 10:00", "--to", "2026-11-20 11:30", "-p", "Ops", "plain"],
            ["add", "--from", "2026-11-20 12:00", "--to", "2026-11-20 12:30"],
            ["start", "-p", "Ops", "--at", "2026-11-21 08:00"],
            ["stop", "--at", "2026-11-21 08:45"],
            ["delete", "2"],
        ] {
            let r = try t.run(command)
            #expect(r.status == 0, "\(command): \(r.stderr)")
        }
        let export = try t.run("export", "--format", format)
        #expect(export.stdout.utf8.filter { $0 == 0x0A }.count == (format == "csv" ? 4 : 5))
        let file = try t.write(export.stdout, to: "export.\(format)")
        let fresh = t.path("store/fresh.sqlite3")
        let imported = try t.run(["import", "trackee", file, "--store", fresh])
        #expect(imported.lines == ["imported 3 entries", #"created client "Acme", project "Docs", project "Ops""#])
        #expect(try t.run(["export", "--format", format, "--store", fresh]).stdout == export.stdout)
        #expect(try t.run(["import", "trackee", file, "--store", fresh]).lines == ["imported 0 entries (3 already imported)"])
    }

    @Test func whatCannotBeReadIsRefusedWithItsStatus() throws {
        let t = try Sandbox()
        let missing = t.path("nothere.json")
        #expect(try t.run("import", "timewarrior", missing).stderr
                == failure("\(missing): cannot read it (No such file or directory)"))
        #expect(try t.run("import", "timewarrior", missing).status == 66)
        let notJSON = try t.write("id,start\n", to: "a.csv")
        let r = try t.run("import", "watson", notJSON)
        #expect(r.status == 65)
        #expect(r.stderr == failure("\(notJSON):1: neither Watson's frames file nor the JSON of watson log --json; nothing imported"))
        let usage = try t.run("import", "watson", notJSON, "--project-from-tag", "first")
        #expect(usage.status == 64)
        #expect(usage.stderr == failure("--project-from-tag goes with timewarrior only; watson has projects of its own")
                + "See 'trackee import --help'.\n")
        #expect(try t.run("log").lines == ["no entries yet; `trackee start` begins one"])
    }

    @Test func standardInputIsReadForADash() throws {
        let t = try Sandbox(zone: "UTC", now: "2026-11-28 12:00")
        let path = try t.write(#"[{"start":"20261116T080000Z","end":"20261116T093000Z","tags":["x"]}]"#, to: "in.json")
        let viaInput = ["/bin/sh", "-c", "exec \"$0\" \"$@\" < \(path)"]
        let r = try t.run(["import", "timewarrior", "-"], via: viaInput)
        #expect(r.lines == ["imported 1 entry"])
        #expect(r.stderr == "")
        // No file is standard input too; the same interval is known.
        #expect(try t.run(["import", "timewarrior"], via: viaInput).lines == ["imported 0 entries (1 already imported)"])
    }

    /// Undo says how many a large import added, and names only a few.
    @Test func undoingALargeImportNamesTheFirstAndLastEntries() throws {
        let t = try Sandbox(zone: "UTC", now: "2026-11-28 12:00")
        let intervals = (10..<20).map { #"{"start":"20261116T\#($0)0000Z","end":"20261116T\#($0)3000Z"}"# }
        let path = try t.write("[\n" + intervals.joined(separator: ",\n") + "\n]\n", to: "ten.json")
        #expect(try t.run("import", "timewarrior", path).lines == ["imported 10 entries"])
        #expect(try t.run("undo").lines == [#"undid "import timewarrior": removed 10 entries (#1 #2 #3 … #10)"#])
    }

    /// An overlap is found with a long entry that began well before, and
    /// with the running timer.
    @Test func entriesOverlappingALongEntryOrTheRunningTimerAreListed() throws {
        let t = try Sandbox(zone: "UTC", now: "2026-11-28 12:00")
        #expect(try t.run("add", "--from", "2026-11-10 00:00", "--to", "2026-11-12 00:00", "-p", "Retreat").status == 0)
        #expect(try t.run("start", "-p", "Docs", "--at", "2026-11-28 08:00").status == 0)
        let path = try t.write("""
            [
            {"start":"20261111T100000Z","end":"20261111T110000Z","tags":["a"]},
            {"start":"20261113T100000Z","end":"20261113T110000Z","tags":["b"]},
            {"start":"20261128T090000Z","end":"20261128T100000Z","tags":["c"]}
            ]
            """, to: "in.json")
        #expect(try t.run("import", "timewarrior", path).lines == [
            "imported 3 entries", "overlapping: line 2 (#3 overlaps #1), line 4 (#5 overlaps #2)",
        ])
    }
}
