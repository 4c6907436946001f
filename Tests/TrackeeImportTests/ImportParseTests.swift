import Testing
import TrackeeCore
import TrackeeStore
@testable import TrackeeImport

/// Each format read as its documents describe it: the rows, their keys,
/// and a sentence naming the line and field of each row skipped.
@Suite struct ImportParseTests {
    let berlin = try! Zone(identifier: "Europe/Berlin")

    func parse(_ format: ImportFormat, _ text: String, tag: ImportOptions.ProjectTag? = nil,
               order: ImportOptions.DateOrder? = nil) throws -> ImportParse {
        try format.parse(text, file: "in", options: ImportOptions(projectFromTag: tag, dateOrder: order, zone: berlin))
    }

    static let timew = """
        [
        {"id":3,"start":"20261120T080000Z","end":"20261120T093000Z","tags":["Docs","writing"],"annotation":"chapter 2"},
        {"id":2,"start":"20261120T100000Z","tags":["open"]},
        {"id":1,"start":"20261120T11000Z","end":"20261120T120000Z"},
        {"id":4,"start":"20261120T110000Z","end":"20261120T120000Z","tags":["project:Ops","call"]}
        ]
        """

    @Test func timewarriorIntervalsWithTheFirstTagAsTheProject() throws {
        let p = try parse(.timewarrior, Self.timew, tag: .first)
        #expect(p.rows == [
            ImportRow(key: "timewarrior:20261120T080000Z", line: 2, start: Instant(seconds: 1_795_161_600),
                      end: Instant(seconds: 1_795_167_000), project: "Docs", client: nil, description: "chapter 2",
                      tags: ["writing"]),
            ImportRow(key: "timewarrior:20261120T110000Z", line: 5, start: Instant(seconds: 1_795_172_400),
                      end: Instant(seconds: 1_795_176_000), project: "project:Ops", client: nil, description: "",
                      tags: ["call"]),
        ])
        #expect(p.warnings == [
            "in:3: end: the interval is still open (stop it in Timewarrior first); skipped",
            "in:4: start: it is not a time such as 20261120T080000Z; skipped",
        ])
    }

    @Test func timewarriorProjectFromAPrefixedTagAndNoneWithout() throws {
        let prefixed = try parse(.timewarrior, Self.timew, tag: .prefix("project:"))
        #expect(prefixed.rows.map(\.project) == [nil, "Ops"])
        #expect(prefixed.rows.map(\.tags) == [["Docs", "writing"], ["call"]])
        let plain = try parse(.timewarrior, Self.timew)
        #expect(plain.rows.map(\.project) == [nil, nil])
        #expect(plain.rows.map(\.tags) == [["Docs", "writing"], ["project:Ops", "call"]])
    }

    @Test func aFileThatIsNotJSONIsRefusedAtItsLine() {
        #expect(throws: ImportRefusal("in:2: not the JSON of timew export")) {
            try parse(.timewarrior, "[\n{\"start\": oops}\n]")
        }
        #expect(throws: ImportRefusal("in:1: neither Watson's frames file nor the JSON of watson log --json")) {
            try parse(.watson, "{}")
        }
    }

    @Test func aTagWithACommaSkipsItsRow() throws {
        let p = try parse(.timewarrior, #"[{"start":"20261120T080000Z","end":"20261120T090000Z","tags":["a,b"]}]"#)
        #expect(p.rows == [])
        #expect(p.warnings == [#"in:1: tags: "a,b" holds a comma, which a trackee tag cannot; skipped"#])
    }

    @Test func watsonFramesAndLogJSON() throws {
        let frames = try parse(.watson, """
            [
             [1795161600, 1795167000, "docs", "0a1b2c", ["writing", "draft"], 1795167000],
             [1795172400, 1795170000, "ops", "3d4e5f", [], 1795172400],
             [1795172400, 1795176000, "", "6a7b8c", [], 1795176000]
            ]
            """)
        #expect(frames.rows == [
            ImportRow(key: "watson:0a1b2c", line: 2, start: Instant(seconds: 1_795_161_600),
                      end: Instant(seconds: 1_795_167_000), project: "docs", client: nil, description: "",
                      tags: ["writing", "draft"]),
            ImportRow(key: "watson:6a7b8c", line: 4, start: Instant(seconds: 1_795_172_400),
                      end: Instant(seconds: 1_795_176_000), project: nil, client: nil, description: "", tags: []),
        ])
        #expect(frames.warnings == ["in:3: end: it is before the start; skipped"])
        let log = try parse(.watson, """
            [
              {"id": "0a1b2c", "project": "docs", "start": "2026-11-20T09:00:00+01:00",
               "stop": "2026-11-20T10:30:00+01:00", "tags": ["writing", "draft"]},
              {"id": "3d4e5f", "project": "ops", "start": "yesterday", "stop": "2026-11-20T10:30:00+01:00"}
            ]
            """)
        #expect(log.rows.map(\.key) == ["watson:0a1b2c"])
        #expect(log.rows.map(\.start) == [Instant(seconds: 1_795_161_600)])
        #expect(log.rows.map(\.end) == [Instant(seconds: 1_795_167_000)])
        #expect(log.warnings == ["in:4: start: it is not a time such as 2026-11-20T08:00:00+01:00; skipped"])
    }

    @Test func togglsDetailedReportInTheExportersZone() throws {
        let p = try parse(.toggl, """
            User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags,Amount (USD)\r
            Ann,ann@example.com,Acme,Docs,,"Chapter 2, draft",Yes,2026-11-20,09:00:00,2026-11-20,10:15:00,01:15:00,"writing, review",100.00\r
            Ann,ann@example.com,,,,Lunch,No,2026-11-20,12:00:00,2026-11-20,25:00:00,13:00:00,,\r
            Ann,ann@example.com,,Ops,,,Maybe,2026-11-20,13:00:00,2026-11-20,14:00:00,01:00:00,,\r

            """)
        #expect(p.rows.count == 1)
        let row = try #require(p.rows.first)
        #expect(row.line == 2)
        #expect(row.key.hasPrefix("toggl:") && row.key.count == 6 + 32)
        #expect(row.start == Instant(seconds: 1_795_161_600))
        #expect(row.end == Instant(seconds: 1_795_166_100))
        #expect(row.project == "Docs")
        #expect(row.client == "Acme")
        #expect(row.description == "Chapter 2, draft")
        #expect(row.tags == ["writing", "review"])
        #expect(row.billable)
        #expect(p.warnings == [
            #"in:3: End time: "25:00:00" is not a time of day; skipped"#,
            #"in:4: Billable: "Maybe" is neither Yes nor No; skipped"#,
        ])
        // The same row read again has the same key; another row another.
        #expect(try parse(.toggl, """
            Email,User,Start date,Start time,End date,End time,Project,Client,Description
            ann@example.com,Ann,2026-11-20,09:00:00,2026-11-20,10:15:00,Docs,Acme,"Chapter 2, draft"
            """).rows.map(\.key) == [row.key])
    }

    @Test func clockifysDatesInTheOrderItsDaysGiveAwayAndTwelveHourTimes() throws {
        let header = "Project,Client,Description,Task,User,Group,Email,Tags,Billable,Start Date,Start Time,End Date,End Time,Duration (h),Duration (decimal),Billable Rate (USD),Billable Amount (USD)\n"
        let p = try parse(.clockify, header + """
            Docs,Acme,Chapter 2,,Ann,,ann@example.com,writing,Yes,24/11/2026,02:00:00 PM,24/11/2026,05:30:00 PM,03:30:00,3.50,80.50,281.75
            Docs,Acme,Chapter 3,,Ann,,ann@example.com,,No,25/11/2026,9:00 AM,25/11/2026,10:00 AM,01:00:00,1.00,,
            """)
        #expect(p.warnings == [])
        #expect(p.rows.map(\.start) == [Instant(seconds: 1_795_525_200), Instant(seconds: 1_795_593_600)])
        #expect(p.rows.map(\.end) == [Instant(seconds: 1_795_537_800), Instant(seconds: 1_795_597_200)])
        #expect(p.rows.map(\.rateCents) == [8050, nil])
        #expect(p.rows.map(\.billable) == [true, false])
        let american = try parse(.clockify, header + """
            Docs,Acme,Chapter 2,,Ann,,ann@example.com,,Yes,11/24/2026,14:00,11/24/2026,17:30,03:30:00,3.50,80,280
            """)
        #expect(american.rows.map(\.start) == [Instant(seconds: 1_795_525_200)])
        #expect(american.rows.map(\.rateCents) == [8000])
    }

    @Test func clockifysDatesThatCouldBeEitherOrderNeedTheDateFormat() throws {
        let text = """
            Project,Description,Start Date,Start Time,End Date,End Time
            Docs,x,04/11/2026,09:00,04/11/2026,10:00
            """
        #expect(throws: ImportRefusal("in: its dates could be day/month/year or month/day/year, and no day above 12 tells which; give --date-format dmy or --date-format mdy")) {
            try parse(.clockify, text)
        }
        #expect(try parse(.clockify, text, order: .dmy).rows.map(\.start) == [Instant(seconds: 1_793_779_200)])
        #expect(try parse(.clockify, text, order: .mdy).rows.map(\.start) == [Instant(seconds: 1_775_890_800)])
    }

    @Test func aReportWithoutItsTimeColumnsIsRefused() {
        #expect(throws: ImportRefusal(#"in:1: no "Start Time" column; is it Clockify's detailed report as CSV? Its header is: Project,Start Date,End Date"#)) {
            try parse(.clockify, "Project,Start Date,End Date\nDocs,2026-11-20,2026-11-20\n")
        }
    }

    @Test func amountsAsCents() {
        #expect(["80", "80.5", "80.05", "1,234.50", "", "8.123", "-5", "x"].map(ImportReader.cents)
                == [8000, 8050, 8005, 123_450, nil, nil, nil, nil])
    }
}
