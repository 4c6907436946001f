import Testing
import TrackeeTestSupport

/// Entries belong to the local day they start on; day totals clip entries
/// to local midnight; days around a daylight-saving change have 23 or 25
/// hours.
@Suite struct LocalDayTests {
    private func days(_ json: JSONValue) -> [String] {
        json["days"].elements.compactMap(\.["date"].string)
    }

    private func ids(_ day: JSONValue) -> [JSONValue] {
        day["entries"].elements.map(\.["id"])
    }

    /// Europe/Prague leaves summer time on 2026-10-25: 03:00 CEST becomes
    /// 02:00 CET, so 02:00–03:00 happens twice.
    private func pragueAutumn() throws -> Sandbox {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-10-27 12:00")
        let adds: [[String]] = [
            ["-p", "A", "--from", "2026-10-24 23:00", "--to", "2026-10-24 23:30"],
            ["-p", "A", "--from", "2026-10-25 00:30", "--to", "2026-10-25 01:00"],
            // From the first 02:30 (summer time) to the second (winter time).
            ["-p", "A", "--from", "2026-10-25 02:30", "--to", "2026-10-25T02:30+01:00"],
            // Inside the repeated hour, second pass.
            ["-p", "A", "--from", "2026-10-25T02:15+01:00", "--to", "2026-10-25T02:45+01:00"],
            // Across local midnight.
            ["-p", "B", "--from", "2026-10-25 23:00", "--to", "2026-10-26 01:00"],
            ["-p", "A", "--from", "2026-10-26 00:00", "--to", "2026-10-26 00:10"],
        ]
        for args in adds { #expect(try t.run(["add"] + args).status == 0) }
        return t
    }

    @Test func pragueEntriesAreGroupedByTheirLocalStartDate() throws {
        let t = try pragueAutumn()
        let log = try t.run("log", "--json").json()
        #expect(days(log) == ["2026-10-26", "2026-10-25", "2026-10-24"])
        #expect(log["days"].elements.map(\.["total_seconds"]) == [4200, 10800, 1800])
        #expect(ids(log["days"][0]) == [6])
        #expect(ids(log["days"][1]) == [5, 4, 3, 2])
        #expect(ids(log["days"][2]) == [1])

        let repeated = log["days"][1]["entries"][2]
        #expect(repeated["start"] == "2026-10-25T02:30:00+02:00")
        #expect(repeated["end"] == "2026-10-25T02:30:00+01:00")
        #expect(repeated["duration_seconds"] == 3600)
        #expect(log["days"][1]["entries"][1]["start"] == "2026-10-25T02:15:00+01:00")

        let text = try t.run("log")
        #expect(text.lines == [
            "Mon 2026-10-26  1:10",
            "  #6     00:00–00:10    0:10  A",
            "Sun 2026-10-25  3:00",
            "  #5     23:00–01:00+1d    2:00  B",
            "  #4     02:15–02:45    0:30  A",
            "  #3     02:30–02:30    1:00  A",
            "  #2     00:30–01:00    0:30  A",
            "Sat 2026-10-24  0:30",
            "  #1     23:00–23:30    0:30  A",
        ])
    }

    @Test func pragueDaySummaryClipsAtLocalMidnight() throws {
        let t = try pragueAutumn()
        let sunday = try t.run("summary", "--day", "--date", "2026-10-25", "--json").json()
        #expect(sunday["from"] == "2026-10-25T00:00:00+02:00")
        #expect(sunday["to"] == "2026-10-26T00:00:00+01:00")
        #expect(sunday["grouping"] == "project")
        #expect(sunday["lines"] == .array([
            .object(["name": "A", "seconds": 7200, "billable_seconds": 0, "entries": 3]),
            .object(["name": "B", "seconds": 3600, "billable_seconds": 0, "entries": 1]),
        ]))
        #expect(sunday["total_seconds"] == 10800)
        #expect(sunday["total_amount_cents"] == .absent)

        let text = try t.run("summary", "--day", "--date", "2026-10-25")
        #expect(text.lines == ["Sun 2026-10-25", "  A         2:00", "  B         1:00", "  total     3:00"])

        let monday = try t.run("summary", "--day", "--date", "2026-10-26", "--json").json()
        #expect(monday["lines"] == .array([
            .object(["name": "B", "seconds": 3600, "billable_seconds": 0, "entries": 1]),
            .object(["name": "A", "seconds": 600, "billable_seconds": 0, "entries": 1]),
        ]))
        #expect(monday["total_seconds"] == 4200)
    }

    @Test func theWeekWithTheLongDayHas169Hours() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-10-27 12:00")
        #expect(try t.run("add", "-p", "W", "--from", "2026-10-24 12:00", "--to", "2026-10-26 12:00").status == 0)
        let week = try t.run("summary", "--week", "--date", "2026-10-25", "--json").json()
        #expect(week["from"] == "2026-10-19T00:00:00+02:00")
        #expect(week["to"] == "2026-10-26T00:00:00+01:00")
        // Saturday from noon (12 h) and the whole 25-hour Sunday.
        #expect(week["total_seconds"] == 133_200)
        let text = try t.run("summary", "--week", "--date", "2026-10-25")
        #expect(text.lines == ["week 2026-10-19 – 2026-10-25", "  W        37:00", "  total    37:00"])
    }

    /// America/New_York springs forward on 2026-03-08 (02:00 EST becomes
    /// 03:00 EDT).
    @Test func newYorkSpringForwardDay() throws {
        let t = try Sandbox(zone: "America/New_York", now: "2026-03-10 12:00")
        let adds: [[String]] = [
            ["-p", "A", "--from", "2026-03-07 22:00", "--to", "2026-03-07 23:00"],
            ["-p", "A", "--from", "2026-03-08 01:30", "--to", "2026-03-08 03:30"],
            // 02:30 does not exist that night; it means 03:30 EDT.
            ["-p", "A", "--from", "2026-03-08 02:30", "--to", "2026-03-08 04:00"],
            ["-p", "B", "--from", "2026-03-08 23:30", "--to", "2026-03-09 00:30"],
            ["-p", "A", "--from", "2026-03-09 09:00", "--to", "2026-03-09 10:00"],
        ]
        for args in adds { #expect(try t.run(["add"] + args).status == 0) }

        let log = try t.run("log", "--json").json()
        #expect(days(log) == ["2026-03-09", "2026-03-08", "2026-03-07"])
        #expect(log["days"].elements.map(\.["total_seconds"]) == [5400, 7200, 3600])
        #expect(ids(log["days"][1]) == [4, 3, 2])
        let overGap = log["days"][1]["entries"][2]
        #expect(overGap["start"] == "2026-03-08T01:30:00-05:00")
        #expect(overGap["end"] == "2026-03-08T03:30:00-04:00")
        #expect(overGap["duration_seconds"] == 3600)
        #expect(log["days"][1]["entries"][1]["start"] == "2026-03-08T03:30:00-04:00")

        let day = try t.run("summary", "--day", "--date", "2026-03-08", "--json").json()
        #expect(day["from"] == "2026-03-08T00:00:00-05:00")
        #expect(day["to"] == "2026-03-09T00:00:00-04:00")
        #expect(day["lines"] == .array([
            .object(["name": "A", "seconds": 5400, "billable_seconds": 0, "entries": 2]),
            .object(["name": "B", "seconds": 1800, "billable_seconds": 0, "entries": 1]),
        ]))
        #expect(day["total_seconds"] == 7200)
    }

    /// America/New_York falls back on 2026-11-01 (02:00 EDT becomes 01:00 EST).
    @Test func newYorkFallBackDay() throws {
        let t = try Sandbox(zone: "America/New_York", now: "2026-11-03 12:00")
        let adds: [[String]] = [
            ["-p", "A", "--from", "2026-10-31 23:30", "--to", "2026-11-01 00:30"],
            ["-p", "A", "--from", "2026-11-01 01:30", "--to", "2026-11-01T01:30-05:00"],
            ["-p", "B", "--from", "2026-11-01 23:00", "--to", "2026-11-02 02:00"],
        ]
        for args in adds { #expect(try t.run(["add"] + args).status == 0) }

        let log = try t.run("log", "--json").json()
        #expect(days(log) == ["2026-11-01", "2026-10-31"])
        #expect(log["days"].elements.map(\.["total_seconds"]) == [9000, 1800])
        #expect(ids(log["days"][0]) == [3, 2])
        #expect(log["days"][0]["entries"][1]["start"] == "2026-11-01T01:30:00-04:00")
        #expect(log["days"][0]["entries"][1]["end"] == "2026-11-01T01:30:00-05:00")

        let day = try t.run("summary", "--day", "--date", "2026-11-01")
        #expect(day.lines == ["Sun 2026-11-01", "  A         1:30", "  B         1:00", "  total     2:30"])
        let next = try t.run("summary", "--day", "--date", "2026-11-02", "--json").json()
        #expect(next["from"] == "2026-11-02T00:00:00-05:00")
        #expect(next["total_seconds"] == 7200)
    }

    @Test(arguments: [
        ("Europe/Prague", "2026-10-25", "2026-10-25T00:00:00+02:00", "2026-10-26T00:00:00+01:00", 90_000),
        ("Europe/Prague", "2026-03-29", "2026-03-29T00:00:00+01:00", "2026-03-30T00:00:00+02:00", 82_800),
        ("America/New_York", "2026-03-08", "2026-03-08T00:00:00-05:00", "2026-03-09T00:00:00-04:00", 82_800),
        ("America/New_York", "2026-11-01", "2026-11-01T00:00:00-04:00", "2026-11-02T00:00:00-05:00", 90_000),
        ("America/New_York", "2026-11-02", "2026-11-02T00:00:00-05:00", "2026-11-03T00:00:00-05:00", 86_400),
    ])
    func aDayCoveredByOneEntryCountsItsRealLength(
        zone: String, date: String, from: String, to: String, seconds: Int
    ) throws {
        let t = try Sandbox(zone: zone, now: "2026-12-31 12:00")
        #expect(try t.run("add", "-p", "Long", "--from", "2026-01-01 00:00", "--to", "2026-12-30 00:00").status == 0)
        let day = try t.run("summary", "--day", "--date", date, "--json").json()
        #expect(day["from"] == .string(from))
        #expect(day["to"] == .string(to))
        #expect(day["total_seconds"] == .number(Double(seconds)))
    }
}
