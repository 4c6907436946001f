import Testing
import TrackeeCore

/// 2026-11-20 11:03:00 to 12:08:09 at +01:00: one hour, five minutes, nine seconds.
private func record(
    id: Int64 = 1,
    project: String = "Acme",
    client: String = "Globex",
    description: String = "Standup",
    tags: [String] = ["meeting"],
    billable: Bool = true,
    rateCents: Int64? = 8000,
    start: LocalDateTime = LocalDateTime(year: 2026, month: 11, day: 20, hour: 11, minute: 3),
    startOffset: Int = 3600,
    end: LocalDateTime = LocalDateTime(year: 2026, month: 11, day: 20, hour: 12, minute: 8, second: 9),
    endOffset: Int = 3600,
    durationSeconds: Int64 = 3909,
    source: String = "cli"
) -> ExportRecord {
    ExportRecord(
        id: id, project: project, client: client, description: description, tags: tags,
        billable: billable, rateCents: rateCents, start: start, startOffset: startOffset,
        end: end, endOffset: endOffset, durationSeconds: durationSeconds, source: source)
}

/// The awkward cases every format must carry: CSV metacharacters and a
/// newline, non-ASCII text, missing project and client, several tags.
private let awkward: [ExportRecord] = [
    record(),
    record(
        id: 2, project: "", client: "", description: "Fix \"login\", then\ndeploy",
        tags: ["dev", "urgent"], billable: false, rateCents: nil),
    record(id: 3, project: "Café ☕", client: "Bäckerei", description: "Café ☕", tags: []),
]

private let ana = ExportOptions(email: "ana@example.com")

/// One Clockify row for `r`.
private func clockifyRow(_ r: ExportRecord, _ options: ExportOptions) -> String {
    Exporter(format: .clockify, options: options).row(r, first: true)
}

private let march7 = record(
    project: "P", client: "", description: "d", tags: [],
    start: LocalDateTime(year: 2026, month: 3, day: 7, hour: 0, minute: 0))

/// Every export format, byte for byte.
@Suite struct ExportTests {
    // MARK: - Headers

    @Test func eachFormatStartsWithItsHeader() {
        #expect(Exporter(format: .clockify).header()
            == "Project,Client,Description,Task,Email,Tags,Billable,Start Date,Start Time,Duration (h)\r\n")
        #expect(Exporter(format: .toggl).header()
            == "Email,Client,Project,Description,Billable,Start date,Start time,Duration,Tags\r\n")
        #expect(Exporter(format: .csv).header()
            == "id,start,end,duration_seconds,project,client,description,tags,billable,rate,source\r\n")
        #expect(Exporter(format: .json).header() == "[")
    }

    @Test func csvFormatsHaveNoFooter() {
        for format in [ExportFormat.clockify, .toggl, .csv] {
            #expect(Exporter(format: format).footer(empty: true) == "")
            #expect(Exporter(format: format).footer(empty: false) == "")
        }
    }

    // MARK: - Whole files

    @Test func clockifyQuotesFieldsWithCommasQuotesAndNewlines() {
        let text = Exporter(format: .clockify, options: ana).export(awkward)
        #expect(text == """
            Project,Client,Description,Task,Email,Tags,Billable,Start Date,Start Time,Duration (h)\r
            Acme,Globex,Standup,,ana@example.com,meeting,Yes,11/20/2026,11:03 AM,1:05\r
            ,,"Fix ""login"", then
            deploy",,ana@example.com,"dev, urgent",No,11/20/2026,11:03 AM,1:05\r
            Café ☕,Bäckerei,Café ☕,,ana@example.com,,Yes,11/20/2026,11:03 AM,1:05\r

            """)
    }

    @Test func togglWritesIsoDatesAndClockDurations() {
        let text = Exporter(format: .toggl, options: ana).export(awkward)
        #expect(text == """
            Email,Client,Project,Description,Billable,Start date,Start time,Duration,Tags\r
            ana@example.com,Globex,Acme,Standup,Yes,2026-11-20,11:03:00,01:05:09,meeting\r
            ana@example.com,,,"Fix ""login"", then
            deploy",No,2026-11-20,11:03:00,01:05:09,"dev, urgent"\r
            ana@example.com,Bäckerei,Café ☕,Café ☕,Yes,2026-11-20,11:03:00,01:05:09,\r

            """)
    }

    @Test func trackeeCSVKeepsEveryField() {
        let text = Exporter(format: .csv).export(awkward)
        #expect(text == """
            id,start,end,duration_seconds,project,client,description,tags,billable,rate,source\r
            1,2026-11-20T11:03:00+01:00,2026-11-20T12:08:09+01:00,3909,Acme,Globex,Standup,meeting,true,80.00,cli\r
            2,2026-11-20T11:03:00+01:00,2026-11-20T12:08:09+01:00,3909,,,"Fix ""login"", then
            deploy","dev,urgent",false,,cli\r
            3,2026-11-20T11:03:00+01:00,2026-11-20T12:08:09+01:00,3909,Café ☕,Bäckerei,Café ☕,,true,80.00,cli\r

            """)
    }

    @Test func jsonWritesOneObjectPerLine() {
        let text = Exporter(format: .json).export(awkward)
        #expect(text == #"""
            [
            {"id":1,"start":"2026-11-20T11:03:00+01:00","end":"2026-11-20T12:08:09+01:00","duration_seconds":3909,"project":"Acme","client":"Globex","description":"Standup","tags":["meeting"],"billable":true,"rate":80.00,"source":"cli"},
            {"id":2,"start":"2026-11-20T11:03:00+01:00","end":"2026-11-20T12:08:09+01:00","duration_seconds":3909,"project":"","client":"","description":"Fix \"login\", then\ndeploy","tags":["dev","urgent"],"billable":false,"rate":null,"source":"cli"},
            {"id":3,"start":"2026-11-20T11:03:00+01:00","end":"2026-11-20T12:08:09+01:00","duration_seconds":3909,"project":"Café ☕","client":"Bäckerei","description":"Café ☕","tags":[],"billable":true,"rate":80.00,"source":"cli"}
            ]

            """#)
    }

    @Test func jsonWithNoRecordsIsAnEmptyArray() {
        #expect(Exporter(format: .json).export([]) == "[]\n")
    }

    @Test func csvWithNoRecordsIsJustTheHeader() {
        #expect(Exporter(format: .toggl).export([])
            == "Email,Client,Project,Description,Billable,Start date,Start time,Duration,Tags\r\n")
    }

    @Test func streamingPiecesMakeTheSameJSONFile() {
        let exporter = Exporter(format: .json)
        let first = record(id: 7, tags: [], rateCents: nil)
        let second = record(id: 8, description: "", tags: ["x"])
        #expect(exporter.row(first, first: true) == #"""

            {"id":7,"start":"2026-11-20T11:03:00+01:00","end":"2026-11-20T12:08:09+01:00","duration_seconds":3909,"project":"Acme","client":"Globex","description":"Standup","tags":[],"billable":true,"rate":null,"source":"cli"}
            """#)
        #expect(exporter.row(second, first: false) == #"""
            ,
            {"id":8,"start":"2026-11-20T11:03:00+01:00","end":"2026-11-20T12:08:09+01:00","duration_seconds":3909,"project":"Acme","client":"Globex","description":"","tags":["x"],"billable":true,"rate":80.00,"source":"cli"}
            """#)
        #expect(exporter.footer(empty: false) == "\n]\n")
        #expect(exporter.footer(empty: true) == "]\n")
        let streamed = exporter.header() + exporter.row(first, first: true)
            + exporter.row(second, first: false) + exporter.footer(empty: false)
        #expect(streamed == exporter.export([first, second]))
    }

    // MARK: - JSON strings

    @Test func jsonEscapesQuotesBackslashesAndControlCharacters() {
        let r = record(
            project: "", client: "", description: "a\u{0}b\u{1F}c\td\ne\rf\"g\\h\u{7F}i\u{8}j\u{C}",
            tags: ["\"q\"", "tab\there"], rateCents: nil, source: "feed\\gps")
        // DEL (U+007F) is not a JSON control character and stays raw.
        #expect(Exporter(format: .json).row(r, first: true) == #"""

            {"id":1,"start":"2026-11-20T11:03:00+01:00","end":"2026-11-20T12:08:09+01:00","duration_seconds":3909,"project":"","client":"","description":"a\u0000b\u001fc\td\ne\rf\"g\\h\#u{7F}i\u0008j\u000c","tags":["\"q\"","tab\there"],"billable":true,"rate":null,"source":"feed\\gps"}
            """#)
    }

    @Test func jsonPassesNonASCIIThroughAsUTF8() {
        let r = record(project: "Café ☕", client: "日本", description: "🇩🇪 Grüße", tags: ["ü"])
        #expect(Exporter(format: .json).row(r, first: false) == #"""
            ,
            {"id":1,"start":"2026-11-20T11:03:00+01:00","end":"2026-11-20T12:08:09+01:00","duration_seconds":3909,"project":"Café ☕","client":"日本","description":"🇩🇪 Grüße","tags":["ü"],"billable":true,"rate":80.00,"source":"cli"}
            """#)
    }

    // MARK: - trackee CSV details

    @Test func trackeeCSVWritesNegativeAndZeroOffsets() {
        let r = record(
            tags: ["a", "b,c"], rateCents: 8050,
            start: LocalDateTime(year: 2026, month: 11, day: 20, hour: 6, minute: 3), startOffset: -18000,
            end: LocalDateTime(year: 2026, month: 11, day: 20, hour: 11, minute: 3), endOffset: 0,
            durationSeconds: 3600, source: "rule:office")
        #expect(Exporter(format: .csv).row(r, first: true)
            == "1,2026-11-20T06:03:00-05:00,2026-11-20T11:03:00+00:00,3600,Acme,Globex,Standup,\"a,b,c\",true,80.50,rule:office\r\n")
    }

    @Test func trackeeCSVWritesSmallRatesWithTwoDecimals() {
        let r = record(tags: [], rateCents: 5)
        #expect(Exporter(format: .csv).row(r, first: true)
            == "1,2026-11-20T11:03:00+01:00,2026-11-20T12:08:09+01:00,3909,Acme,Globex,Standup,,true,0.05,cli\r\n")
    }

    @Test func formulaLikeTextIsWrittenUnchanged() {
        let r = record(project: "=SUM(A1)", client: "+1", description: "-x", tags: ["@y"])
        #expect(Exporter(format: .toggl).row(r, first: true)
            == ",+1,=SUM(A1),-x,Yes,2026-11-20,11:03:00,01:05:09,@y\r\n")
    }

    // MARK: - Clockify options

    @Test(arguments: [
        (ClockifyDateFormat.mdy, "P,,d,,,,Yes,03/07/2026,12:00 AM,1:05\r\n"),
        (.dmy, "P,,d,,,,Yes,07/03/2026,12:00 AM,1:05\r\n"),
        (.ymd, "P,,d,,,,Yes,2026-03-07,12:00 AM,1:05\r\n"),
        (.dmyDots, "P,,d,,,,Yes,07.03.2026,12:00 AM,1:05\r\n"),
        (.ymdSlash, "P,,d,,,,Yes,2026/03/07,12:00 AM,1:05\r\n"),
    ])
    func clockifyDateFormats(format: ClockifyDateFormat, expected: String) {
        #expect(clockifyRow(march7, ExportOptions(dateFormat: format)) == expected)
    }

    @Test(arguments: [
        (0, 0, "12:00 AM", "00:00"),    // midnight
        (0, 30, "12:30 AM", "00:30"),
        (9, 5, "9:05 AM", "09:05"),
        (11, 59, "11:59 AM", "11:59"),
        (12, 0, "12:00 PM", "12:00"),   // noon
        (12, 30, "12:30 PM", "12:30"),
        (23, 3, "11:03 PM", "23:03"),
        (23, 59, "11:59 PM", "23:59"),
    ])
    func clockifyTimeFormats(hour: Int, minute: Int, twelveHour: String, twentyFourHour: String) {
        var r = march7
        r.start.hour = hour
        r.start.minute = minute
        r.start.second = 59  // Clockify start times have no seconds; they are dropped.
        #expect(clockifyRow(r, ExportOptions(timeFormat: .twelveHour))
            == "P,,d,,,,Yes,03/07/2026,\(twelveHour),1:05\r\n")
        #expect(clockifyRow(r, ExportOptions(timeFormat: .twentyFourHour))
            == "P,,d,,,,Yes,03/07/2026,\(twentyFourHour),1:05\r\n")
    }

    @Test(arguments: [
        // h:mm truncates to whole minutes and does not wrap hours into days.
        (Int64(0), ClockifyDurationFormat.clock, "0:00"),
        (59, .clock, "0:00"),
        (3909, .clock, "1:05"),
        (3959, .clock, "1:05"),
        (97_200, .clock, "27:00"),
        (0, .clockSeconds, "00:00:00"),
        (3909, .clockSeconds, "01:05:09"),
        (97_200, .clockSeconds, "27:00:00"),
        (360_000, .clockSeconds, "100:00:00"),
        // decimal rounds half up on the hundredth of an hour (36 s).
        (0, .decimal, "0.00"),
        (17, .decimal, "0.00"),
        (18, .decimal, "0.01"),
        (3900, .decimal, "1.08"),
        (3909, .decimal, "1.09"),
        (4050, .decimal, "1.13"),
        (5400, .decimal, "1.50"),
        (97_200, .decimal, "27.00"),
    ])
    func clockifyDurationFormats(seconds: Int64, format: ClockifyDurationFormat, expected: String) {
        var r = march7
        r.durationSeconds = seconds
        #expect(clockifyRow(r, ExportOptions(durationFormat: format))
            == "P,,d,,,,Yes,03/07/2026,12:00 AM,\(expected)\r\n")
    }

    @Test func clockifyOptionsCombine() {
        var r = march7
        r.start.hour = 23
        r.start.minute = 59
        r.durationSeconds = 5400
        let options = ExportOptions(
            email: "ana@example.com", dateFormat: .dmyDots, timeFormat: .twentyFourHour, durationFormat: .decimal)
        #expect(clockifyRow(r, options) == "P,,d,,ana@example.com,,Yes,07.03.2026,23:59,1.50\r\n")
    }

    @Test func clockifyOptionRawValuesAreWhatUsersType() {
        #expect(ClockifyDateFormat.allCases.map(\.rawValue)
            == ["MM/DD/YYYY", "DD/MM/YYYY", "YYYY-MM-DD", "DD.MM.YYYY", "YYYY/MM/DD"])
        #expect(ClockifyTimeFormat.allCases.map(\.rawValue) == ["12h", "24h"])
        #expect(ClockifyDurationFormat.allCases.map(\.rawValue) == ["h:mm", "hh:mm:ss", "decimal"])
        #expect(ExportFormat.allCases.map(\.rawValue) == ["clockify", "toggl", "csv", "json"])
        #expect(ExportOptions() == ExportOptions(
            email: "", dateFormat: .mdy, timeFormat: .twelveHour, durationFormat: .clock))
    }

    // MARK: - Toggl details

    @Test func togglDurationsPassOneHundredHours() {
        var r = record(tags: [])
        r.durationSeconds = 362_709
        #expect(Exporter(format: .toggl, options: ana).row(r, first: true)
            == "ana@example.com,Globex,Acme,Standup,Yes,2026-11-20,11:03:00,100:45:09,\r\n")
    }

    // MARK: - Volume

    @Test func togglExportsOneHundredThousandEntries() {
        let base = LocalDateTime(year: 2026, month: 1, day: 1).secondsSinceEpoch
        let records = (0..<100_000).map { i in
            let start = LocalDateTime(secondsSinceEpoch: base + Int64(i) * 3600 + Int64(i % 60))
            let duration = Int64(1800 + i % 3600)
            return ExportRecord(
                id: Int64(i + 1), project: "P\(i % 10)", client: "Client", description: "Entry \(i), part 2",
                tags: ["a", "b"], billable: i % 2 == 0, rateCents: nil,
                start: start, startOffset: 3600,
                end: LocalDateTime(secondsSinceEpoch: start.secondsSinceEpoch + duration), endOffset: 3600,
                durationSeconds: duration, source: "cli")
        }
        let text = Exporter(format: .toggl, options: ana).export(records)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        #expect(lines.count == 100_002)
        #expect(lines.last == "")
        #expect(text.utf8.count { $0 == 0x0A } == 100_001)
        #expect(lines[0] == "Email,Client,Project,Description,Billable,Start date,Start time,Duration,Tags")
        #expect(lines[1] == #"ana@example.com,Client,P0,"Entry 0, part 2",Yes,2026-01-01,00:00:00,00:30:00,"a, b""#)
        #expect(lines[100_000]
            == #"ana@example.com,Client,P9,"Entry 99999, part 2",No,2037-05-29,15:00:39,01:16:39,"a, b""#)
    }
}

@Suite struct LoggedParametersTests {
    @Test func startParametersAreSortedCompactJSONWithoutAbsentKeys() {
        let intent = Intent(
            .start(TimerParameters(project: "Docs", description: "say \"hi\"\n", tags: ["b", "a\\"])),
            at: Instant(seconds: 1_763_636_580))
        #expect(intent.loggedParameters
            == #"{"at":1763636580,"description":"say \"hi\"\n","project":"Docs","tags":["a\\","b"]}"#)
    }

    @Test func clientAndEmptyTagsAppearWhenGiven() {
        let intent = Intent(.start(TimerParameters(project: "P", client: "Ácme", tags: [])), at: Instant(seconds: 5))
        #expect(intent.loggedParameters == #"{"at":5,"client":"Ácme","description":"","project":"P","tags":[]}"#)
    }

    @Test func stopAndCancelLogOnlyTheTime() {
        #expect(Intent(.stop, at: Instant(seconds: 7)).loggedParameters == #"{"at":7}"#)
        #expect(Intent(.cancel, at: Instant(seconds: 8)).loggedParameters == #"{"at":8}"#)
    }
}
