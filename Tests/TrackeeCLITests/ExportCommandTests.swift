import Foundation
import Testing
import TrackeeTestSupport

/// `trackee export` through the binary: exact bytes for every format.
@Suite struct ExportCommandTests {
    static let awkward = "Write, \"quoted\"\nsecond line"

    /// Four finished entries and a running one (which no export includes).
    /// In start order: #3 plain (Thu 21:00), #4 night (00:30), #1 the
    /// awkward description (09:00, tags a and b), #2 Mail (13:05).
    private func store() throws -> Sandbox {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-20 18:00")
        let adds: [[String]] = [
            ["-p", "Docs", "-c", "Acme", "-t", "b", "-t", "a", "--from", "09:00", "--to", "10:30:15",
             "--description", Self.awkward],
            ["-p", "Mail", "--from", "13:05", "--to", "13:35"],
            ["--from", "2026-11-19 21:00", "--to", "2026-11-19 22:00", "plain"],
            ["-p", "Docs", "-c", "Acme", "--from", "00:30", "--to", "00:45", "night"],
        ]
        for args in adds { #expect(try t.run(["add"] + args).status == 0) }
        #expect(try t.run("projects", "edit", "Docs", "--rate", "80", "--billable").status == 0)
        #expect(try t.run("start", "-p", "Running", "--at", "17:00").status == 0)
        return t
    }

    private func crlf(_ lines: String...) -> String { lines.map { $0 + "\r\n" }.joined() }

    private func export(_ t: Sandbox, _ arguments: String...) throws -> String {
        let r = try t.run(["export"] + arguments)
        #expect(r.status == 0)
        #expect(r.stderr == "")
        return r.stdout
    }

    @Test func toggl() throws {
        let t = try store()
        #expect(try export(t, "--format", "toggl") == crlf(
            "Email,Client,Project,Description,Billable,Start date,Start time,Duration,Tags",
            ",,,plain,No,2026-11-19,21:00:00,01:00:00,",
            ",Acme,Docs,night,Yes,2026-11-20,00:30:00,00:15:00,",
            ",Acme,Docs,\"Write, \"\"quoted\"\"\nsecond line\",Yes,2026-11-20,09:00:00,01:30:15,\"a, b\"",
            ",,Mail,,No,2026-11-20,13:05:00,00:30:00,"))
    }

    @Test func clockifyDefaults() throws {
        let t = try store()
        #expect(try export(t, "--format", "clockify") == crlf(
            "Project,Client,Description,Task,Email,Tags,Billable,Start Date,Start Time,Duration (h)",
            ",,plain,,,,No,11/19/2026,9:00 PM,1:00",
            "Docs,Acme,night,,,,Yes,11/20/2026,12:30 AM,0:15",
            "Docs,Acme,\"Write, \"\"quoted\"\"\nsecond line\",,,\"a, b\",Yes,11/20/2026,9:00 AM,1:30",
            "Mail,,,,,,No,11/20/2026,1:05 PM,0:30"))
    }

    @Test func clockifyWithFormatsAndEmail() throws {
        let t = try store()
        #expect(try export(t, "--format", "clockify", "--date-format", "DD.MM.YYYY", "--time-format", "24h",
                           "--duration-format", "decimal", "--email", "ana@example.com") == crlf(
            "Project,Client,Description,Task,Email,Tags,Billable,Start Date,Start Time,Duration (h)",
            ",,plain,,ana@example.com,,No,19.11.2026,21:00,1.00",
            "Docs,Acme,night,,ana@example.com,,Yes,20.11.2026,00:30,0.25",
            "Docs,Acme,\"Write, \"\"quoted\"\"\nsecond line\",,ana@example.com,\"a, b\",Yes,20.11.2026,09:00,1.50",
            "Mail,,,,ana@example.com,,No,20.11.2026,13:05,0.50"))

        #expect(try export(t, "--format", "clockify", "--date-format", "YYYY/MM/DD", "--time-format", "12h",
                           "--duration-format", "hh:mm:ss", "--from", "2026-11-20", "--to", "10:00") == crlf(
            "Project,Client,Description,Task,Email,Tags,Billable,Start Date,Start Time,Duration (h)",
            "Docs,Acme,night,,,,Yes,2026/11/20,12:30 AM,00:15:00",
            "Docs,Acme,\"Write, \"\"quoted\"\"\nsecond line\",,,\"a, b\",Yes,2026/11/20,9:00 AM,01:30:15"))
    }

    @Test func trackeeCSV() throws {
        let t = try store()
        #expect(try export(t, "--format", "csv") == crlf(
            "id,start,end,duration_seconds,project,client,description,tags,billable,rate,source",
            "3,2026-11-19T21:00:00+01:00,2026-11-19T22:00:00+01:00,3600,,,plain,,false,,cli",
            "4,2026-11-20T00:30:00+01:00,2026-11-20T00:45:00+01:00,900,Docs,Acme,night,,true,80.00,cli",
            "1,2026-11-20T09:00:00+01:00,2026-11-20T10:30:15+01:00,5415,Docs,Acme,\"Write, \"\"quoted\"\"\nsecond line\",\"a,b\",true,80.00,cli",
            "2,2026-11-20T13:05:00+01:00,2026-11-20T13:35:00+01:00,1800,Mail,,,,false,,cli"))
    }

    @Test func trackeeJSON() throws {
        let t = try store()
        let text = try export(t, "--format", "json")
        #expect(text == """
            [
            {"id":3,"start":"2026-11-19T21:00:00+01:00","end":"2026-11-19T22:00:00+01:00","duration_seconds":3600,"project":"","client":"","description":"plain","tags":[],"billable":false,"rate":null,"source":"cli"},
            {"id":4,"start":"2026-11-20T00:30:00+01:00","end":"2026-11-20T00:45:00+01:00","duration_seconds":900,"project":"Docs","client":"Acme","description":"night","tags":[],"billable":true,"rate":80.00,"source":"cli"},
            {"id":1,"start":"2026-11-20T09:00:00+01:00","end":"2026-11-20T10:30:15+01:00","duration_seconds":5415,"project":"Docs","client":"Acme","description":"Write, \\"quoted\\"\\nsecond line","tags":["a","b"],"billable":true,"rate":80.00,"source":"cli"},
            {"id":2,"start":"2026-11-20T13:05:00+01:00","end":"2026-11-20T13:35:00+01:00","duration_seconds":1800,"project":"Mail","client":"","description":"","tags":[],"billable":false,"rate":null,"source":"cli"}
            ]

            """)
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(json[2]["description"] == .string(Self.awkward))
    }

    @Test func fromIsInclusiveAndToIsExclusive() throws {
        let t = try store()
        let header = "id,start,end,duration_seconds,project,client,description,tags,billable,rate,source"
        #expect(try export(t, "--format", "csv", "--from", "2026-11-20", "--to", "13:05") == crlf(
            header,
            "4,2026-11-20T00:30:00+01:00,2026-11-20T00:45:00+01:00,900,Docs,Acme,night,,true,80.00,cli",
            "1,2026-11-20T09:00:00+01:00,2026-11-20T10:30:15+01:00,5415,Docs,Acme,\"Write, \"\"quoted\"\"\nsecond line\",\"a,b\",true,80.00,cli"))
        // The running entry (17:00) is not finished, so it never appears.
        #expect(try export(t, "--format", "csv", "--from", "13:05") == crlf(
            header,
            "2,2026-11-20T13:05:00+01:00,2026-11-20T13:35:00+01:00,1800,Mail,,,,false,,cli"))
        #expect(try export(t, "--format", "csv", "--from", "14:00") == crlf(header))
        #expect(try export(t, "--format", "json", "--from", "14:00") == "[]\n")
    }

    @Test func outputFileGetsTheBytesAndStdoutNothing() throws {
        let t = try store()
        let expected = try export(t, "--format", "csv")
        let directory = t.path("exports")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let file = directory + "/out.csv"

        let r = try t.run("export", "--format", "csv", "-o", file)
        #expect(r.status == 0)
        #expect(r.stdout == "")
        #expect(r.stderr == "")
        #expect(try t.bytes(file) == Data(expected.utf8))
        // Written beside the final name and renamed: no temporary left over.
        #expect(t.listing(directory) == ["out.csv"])

        // An existing file is replaced, not appended to.
        let again = try t.run("export", "--format", "json", "--output", file, "--from", "14:00")
        #expect(again.status == 0)
        #expect(again.stdout == "")
        #expect(try t.bytes(file) == Data("[]\n".utf8))
        #expect(t.listing(directory) == ["out.csv"])
    }

    @Test func anUnwritableOutputIsRefused() throws {
        let t = try store()
        let file = t.path("no-such-dir/out.csv")
        let r = try t.run("export", "--format", "csv", "-o", file)
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == failure("cannot write \(file): No such file or directory"))
    }

    @Test func anEmptyStoreExportsOnlyTheHeader() throws {
        let t = try Sandbox()
        #expect(try export(t, "--format", "toggl") == crlf(
            "Email,Client,Project,Description,Billable,Start date,Start time,Duration,Tags"))
        #expect(try export(t, "--format", "json") == "[]\n")
    }
}
