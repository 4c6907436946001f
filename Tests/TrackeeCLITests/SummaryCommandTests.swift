import Testing
import TrackeeTestSupport

/// `trackee summary` over a day, week, month and range, by project and by
/// client, with amounts from hourly rates.
@Suite struct SummaryCommandTests {
    /// Friday 2026-11-20 18:00 in Prague. Docs (Acme) is billable at 80.00,
    /// Web (Acme) at 45.50, Mail is not billable; Mail has run since 17:00.
    private func timesheet() throws -> Sandbox {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-20 18:00")
        let adds: [[String]] = [
            ["-p", "Docs", "-c", "Acme", "--from", "2026-11-20 09:00", "--to", "2026-11-20 10:30"],
            ["-p", "Docs", "-c", "Acme", "--from", "2026-11-16 09:00", "--to", "2026-11-16 10:00"],
            ["-p", "Web", "-c", "Acme", "--from", "2026-11-18 13:00", "--to", "2026-11-18 13:45"],
            ["-p", "Mail", "--from", "2026-11-20 14:00", "--to", "2026-11-20 14:20"],
            // Sunday night into Monday: one hour of it falls in this week.
            ["-p", "Docs", "-c", "Acme", "--from", "2026-11-15 22:00", "--to", "2026-11-16 01:00"],
            ["-p", "Web", "-c", "Acme", "--from", "2026-10-31 10:00", "--to", "2026-10-31 11:00"],
        ]
        for args in adds { #expect(try t.run(["add"] + args).status == 0) }
        #expect(try t.run("start", "-p", "Mail", "--at", "17:00").status == 0)
        let docs = try t.run("projects", "edit", "Docs", "--billable", "--rate", "80")
        #expect(docs.lines == ["edited project \"Docs\": billable, 80.00/h"])
        #expect(try t.run("projects", "edit", "Web", "--billable", "--rate", "45.50").status == 0)
        return t
    }

    @Test func dayIsTheDefaultAndCountsTheRunningTimerUpToNow() throws {
        let t = try timesheet()
        let r = try t.run("summary", "--json")
        #expect(r.status == 0)
        #expect(try r.json() == .object([
            "from": "2026-11-20T00:00:00+01:00",
            "to": "2026-11-21T00:00:00+01:00",
            "grouping": "project",
            "lines": [
                .object(["name": "Docs", "client": "Acme", "seconds": 5400, "billable_seconds": 5400, "entries": 1,
                         "amount_cents": 12000]),
                .object(["name": "Mail", "seconds": 4800, "billable_seconds": 0, "entries": 2]),
            ],
            "total_seconds": 10200,
            "billable_seconds": 5400,
            "non_billable_seconds": 4800,
            "total_amount_cents": 12000,
        ]))

        let text = try t.run("summary", "--day")
        #expect(text.lines == [
            "Fri 2026-11-20",
            "  Docs (Acme)      1:30      120.00",
            "  Mail             1:20",
            "  billable         1:30      120.00",
            "  non-billable     1:20",
            "  total            2:50",
        ])
    }

    @Test func weekStartsOnMondayAndClipsTheEntryFromSunday() throws {
        let t = try timesheet()
        let json = try t.run("summary", "--week", "--json").json()
        #expect(json["from"] == "2026-11-16T00:00:00+01:00")
        #expect(json["to"] == "2026-11-23T00:00:00+01:00")
        #expect(json["lines"] == .array([
            .object(["name": "Docs", "client": "Acme", "seconds": 12600, "billable_seconds": 12600, "entries": 3,
                     "amount_cents": 28000]),
            .object(["name": "Mail", "seconds": 4800, "billable_seconds": 0, "entries": 2]),
            // 45.50 × 0.75 h = 34.125, rounded half up.
            .object(["name": "Web", "client": "Acme", "seconds": 2700, "billable_seconds": 2700, "entries": 1,
                     "amount_cents": 3413]),
        ]))
        #expect(json["total_seconds"] == 20100)
        #expect(json["total_amount_cents"] == 31413)

        let text = try t.run("summary", "--week", "--date", "2026-11-22")
        #expect(text.lines == [
            "week 2026-11-16 – 2026-11-22",
            "  Docs (Acme)      3:30      280.00",
            "  Mail             1:20",
            "  Web (Acme)       0:45       34.13",
            "  billable         4:15      314.13",
            "  non-billable     1:20",
            "  total            5:35",
        ])
    }

    @Test func monthIsTheCalendarMonth() throws {
        let t = try timesheet()
        let json = try t.run("summary", "--month", "--json").json()
        #expect(json["from"] == "2026-11-01T00:00:00+01:00")
        #expect(json["to"] == "2026-12-01T00:00:00+01:00")
        #expect(json["lines"] == .array([
            .object(["name": "Docs", "client": "Acme", "seconds": 19800, "billable_seconds": 19800, "entries": 3,
                     "amount_cents": 44000]),
            .object(["name": "Mail", "seconds": 4800, "billable_seconds": 0, "entries": 2]),
            .object(["name": "Web", "client": "Acme", "seconds": 2700, "billable_seconds": 2700, "entries": 1,
                     "amount_cents": 3413]),
        ]))
        #expect(json["total_seconds"] == 27300)
        #expect(json["total_amount_cents"] == 47413)

        let october = try t.run("summary", "--month", "--date", "2026-10-15")
        #expect(october.lines == [
            "2026-10",
            "  Web (Acme)       1:00       45.50",
            "  billable         1:00       45.50",
            "  non-billable     0:00",
            "  total            1:00",
        ])
    }

    @Test func fromToIsACustomRange() throws {
        let t = try timesheet()
        let json = try t.run("summary", "--from", "2026-11-18", "--to", "2026-11-20 10:00", "--json").json()
        #expect(json["from"] == "2026-11-18T00:00:00+01:00")
        #expect(json["to"] == "2026-11-20T10:00:00+01:00")
        #expect(json["lines"] == .array([
            .object(["name": "Docs", "client": "Acme", "seconds": 3600, "billable_seconds": 3600, "entries": 1,
                     "amount_cents": 8000]),
            .object(["name": "Web", "client": "Acme", "seconds": 2700, "billable_seconds": 2700, "entries": 1,
                     "amount_cents": 3413]),
        ]))
        #expect(json["total_seconds"] == 6300)
        #expect(json["total_amount_cents"] == 11413)

        let text = try t.run("summary", "--from", "2026-11-18", "--to", "2026-11-20 10:00")
        #expect(text.lines.first == "2026-11-18T00:00:00+01:00 – 2026-11-20T10:00:00+01:00")
    }

    @Test func byClientAddsUpProjectsAndAmounts() throws {
        let t = try timesheet()
        let json = try t.run("summary", "--week", "--by", "client", "--json").json()
        #expect(json["grouping"] == "client")
        #expect(json["lines"] == .array([
            .object(["name": "Acme", "seconds": 15300, "billable_seconds": 15300, "entries": 4, "amount_cents": 31413]),
            .object(["seconds": 4800, "billable_seconds": 0, "entries": 2]),
        ]))
        #expect(json["total_amount_cents"] == 31413)

        let text = try t.run("summary", "--week", "--by", "client")
        #expect(text.lines == [
            "week 2026-11-16 – 2026-11-22",
            "  Acme             4:15      314.13",
            "  (no client)      1:20",
            "  billable         4:15      314.13",
            "  non-billable     1:20",
            "  total            5:35",
        ])
    }

    @Test func anHourAndAHalfAtEightyIsOneHundredTwenty() throws {
        let t = try Sandbox(now: "2026-11-20 18:00")
        #expect(try t.run("add", "-p", "Docs", "--from", "09:00", "--to", "10:30").status == 0)
        #expect(try t.run("projects", "edit", "Docs", "--billable", "--rate", "80").status == 0)
        let json = try t.run("summary", "--json").json()
        #expect(json["lines"][0]["amount_cents"] == 12000)
        #expect(json["total_amount_cents"] == 12000)
        let projects = try t.run("projects").lines
        #expect(projects == ["Docs  billable  80.00/h  1 entry"])
    }

    @Test func anEmptyPeriodSaysSo() throws {
        let t = try Sandbox(now: "2026-11-20 18:00")
        let r = try t.run("summary", "--week")
        #expect(r.status == 0)
        #expect(r.lines == ["week 2026-11-16 – 2026-11-22", "no time tracked"])
    }

    @Test func aRangeEndingBeforeItStartsIsRefused() throws {
        let t = try Sandbox(now: "2026-11-20 18:00")
        let r = try t.run("summary", "--from", "12:00", "--to", "11:00")
        #expect(r.status == 64)
        #expect(r.stderr == failure("--to must be after --from"))
    }
}
