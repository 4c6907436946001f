import Testing
import TrackeeTestSupport

/// `--from`, `--to`, `--project`, `--client` and `--tag` on `log`,
/// `summary` and `tags`, through the built binary; `summary --by tag`
/// and billable money.
@Suite struct FilterCommandTests {
    /// Friday 2026-11-20 18:00 in Prague. #1 Docs (Acme) 09:00–10:00
    /// #writing; #2 Web (Acme) 10:00–10:30 #review #writing; #3 Docs
    /// (Globex) 10:30–11:00; #4 no project 11:00–11:15 #errand; #5 Docs
    /// (Acme) Thursday 09:00–10:00; #6 Docs (Acme) running since 17:30.
    /// Docs (Acme) is billable at 80.00; Web has a rate of 40.00 but is not
    /// billable.
    private func timesheet() throws -> Sandbox {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-20 18:00")
        #expect(try t.run("projects", "add", "Docs", "-c", "Acme", "--billable", "--rate", "80").status == 0)
        #expect(try t.run("projects", "add", "Web", "-c", "Acme", "--rate", "40").status == 0)
        let adds: [[String]] = [
            ["-p", "Docs", "-c", "Acme", "-t", "writing", "--from", "09:00", "--to", "10:00"],
            ["-p", "Web", "-c", "Acme", "-t", "writing", "-t", "review", "--from", "10:00", "--to", "10:30"],
            ["-p", "Docs", "-c", "Globex", "--from", "10:30", "--to", "11:00"],
            ["-t", "errand", "--from", "11:00", "--to", "11:15"],
            ["-p", "Docs", "-c", "Acme", "--from", "2026-11-19 09:00", "--to", "2026-11-19 10:00"],
        ]
        for args in adds {
            let r = try t.run(["add"] + args)
            #expect(r.status == 0, "\(r)")
        }
        #expect(try t.run("start", "-p", "Docs", "-c", "Acme", "--at", "17:30").status == 0)
        return t
    }

    private func logIDs(_ t: Sandbox, _ arguments: String...) throws -> [Int64] {
        let r = try t.run(["log", "--json"] + arguments)
        #expect(r.status == 0, "\(r)")
        return try r.json()["days"].elements.flatMap { day in day["entries"].elements.compactMap { $0["id"].int } }
    }

    @Test func logKeepsWhatEachFilterNames() throws {
        let t = try timesheet()
        #expect(try logIDs(t) == [6, 4, 3, 2, 1, 5])
        #expect(try logIDs(t, "--project", "Docs") == [6, 3, 1, 5])
        #expect(try logIDs(t, "--client", "Acme") == [6, 2, 1, 5])
        #expect(try logIDs(t, "--tag", "writing") == [2, 1])
        #expect(try logIDs(t, "--from", "10:15", "--to", "10:45") == [3, 2])
        #expect(try logIDs(t, "--to", "today") == [5])
    }

    @Test func logCombinesKindsWithAndAndRepeatsWithOr() throws {
        let t = try timesheet()
        #expect(try logIDs(t, "-p", "Docs", "-c", "Acme") == [6, 1, 5])
        #expect(try logIDs(t, "-t", "writing", "-t", "errand") == [4, 2, 1])
        #expect(try logIDs(t, "-p", "Docs", "-p", "Web", "--tag", "writing") == [2, 1])
        #expect(try logIDs(t, "-c", "Acme", "-c", "Globex", "--from", "today") == [6, 3, 2, 1])
    }

    @Test func logDayTotalsCountTheMatchingTimeInsideTheWindow() throws {
        let t = try timesheet()
        let json = try t.run("log", "--json", "--from", "10:15", "--to", "10:45").json()
        #expect(json["days"].elements.count == 1)
        // #2 from 10:15 and #3 up to 10:45, though both are shown whole.
        #expect(json["days"][0]["total_seconds"] == 1800)
        #expect(json["days"][0]["entries"][0]["duration_seconds"] == 1800)

        let text = try t.run("log", "-p", "Docs", "--limit", "2")
        #expect(text.lines == [
            "Fri 2026-11-20  2:00",
            "  #6     17:30–now      0:30  Docs (Acme)",
            "  #3     10:30–11:00    0:30  Docs (Globex)",
            "older: trackee log --project Docs --before 3",
        ])
        let older = try t.run("log", "--project", "Docs", "--before", "3")
        #expect(older.lines == [
            "Fri 2026-11-20  2:00",
            "  #1     09:00–10:00    1:00  Docs (Acme) · #writing",
            "Thu 2026-11-19  1:00",
            "  #5     09:00–10:00    1:00  Docs (Acme)",
        ])
        let quoted = try t.run("log", "--from", "yesterday 9:30", "--limit", "1")
        #expect(quoted.lines.last == "older: trackee log --from 'yesterday 9:30' --before 6")
        #expect(try t.run("log", "-t", "review", "--before", "2").lines == ["no older entries that match"])
    }

    @Test func anUnknownNameIsAUsageErrorWithTheNearestName() throws {
        let t = try timesheet()
        let project = try t.run("log", "-p", "Dcos")
        #expect(project.status == 64)
        #expect(project.stdout == "")
        #expect(project.stderr == failure(#"--project "Dcos" names no project; did you mean "Docs"?"#))
        let client = try t.run("summary", "--week", "--client", "Initech")
        #expect(client.status == 64)
        #expect(client.stderr == failure(#"--client "Initech" names no client; `trackee clients` lists them"#))
        let tag = try t.run("tags", "--tag", "wrting")
        #expect(tag.status == 64)
        #expect(tag.stderr == failure(#"--tag "wrting" is on no entry; did you mean "writing"?"#))
        let blank = try t.run("summary", "--project", " ")
        #expect(blank.status == 64)
        #expect(blank.stderr == failure("--project is blank; leave it out for every project"))
        let backwards = try t.run("log", "--from", "11:00", "--to", "10:00")
        #expect(backwards.status == 64)
        #expect(backwards.stderr == failure("--to must be after --from"))
    }

    @Test func summaryShowsBillableAndNonBillableTimeApartAndChargesOnlyBillable() throws {
        let t = try timesheet()
        let json = try t.run("summary", "--json").json()
        #expect(json == .object([
            "from": "2026-11-20T00:00:00+01:00",
            "to": "2026-11-21T00:00:00+01:00",
            "grouping": "project",
            "lines": [
                .object(["name": "Docs", "client": "Acme", "seconds": 5400, "billable_seconds": 5400, "entries": 2,
                         "amount_cents": 12000]),
                .object(["name": "Docs", "client": "Globex", "seconds": 1800, "billable_seconds": 0, "entries": 1]),
                .object(["name": "Web", "client": "Acme", "seconds": 1800, "billable_seconds": 0, "entries": 1]),
                .object(["seconds": 900, "billable_seconds": 0, "entries": 1]),
            ],
            "total_seconds": 9900,
            "billable_seconds": 5400,
            "non_billable_seconds": 4500,
            "total_amount_cents": 12000,
        ]))
        let text = try t.run("summary")
        #expect(text.lines == [
            "Fri 2026-11-20",
            "  Docs (Acme)       1:30      120.00",
            "  Docs (Globex)     0:30",
            "  Web (Acme)        0:30",
            "  (no project)      0:15",
            "  billable          1:30      120.00",
            "  non-billable      1:15",
            "  total             2:45",
        ])
        let byClient = try t.run("summary", "--by", "client")
        #expect(byClient.lines == [
            "Fri 2026-11-20",
            "  Acme             2:00      120.00",
            "  Globex           0:30",
            "  (no client)      0:15",
            "  billable         1:30      120.00",
            "  non-billable     1:15",
            "  total            2:45",
        ])
    }

    @Test func summaryByTagCountsAnEntryUnderEachTagAndSaysSo() throws {
        let t = try timesheet()
        let text = try t.run("summary", "--by", "tag")
        #expect(text.lines == [
            "Fri 2026-11-20",
            "  #writing         1:30       80.00",
            "  (no tag)         1:00       40.00",
            "  #review          0:30",
            "  #errand          0:15",
            "  billable         1:30      120.00",
            "  non-billable     1:15",
            "  total            2:45  (each moment once; an entry with several tags is under each)",
        ])
        let json = try t.run("summary", "--by", "tag", "--json").json()
        #expect(json["grouping"] == "tag")
        #expect(json["lines"][0] == .object(["name": "writing", "seconds": 5400, "billable_seconds": 3600, "entries": 2,
                                             "amount_cents": 8000]))
        #expect(json["total_seconds"] == 9900)
    }

    @Test func summaryFiltersAndClipsToTheRange() throws {
        let t = try timesheet()
        let json = try t.run("summary", "--from", "9:30", "--to", "10:15", "--tag", "writing", "--json").json()
        #expect(json["lines"] == .array([
            .object(["name": "Docs", "client": "Acme", "seconds": 1800, "billable_seconds": 1800, "entries": 1,
                     "amount_cents": 4000]),
            .object(["name": "Web", "client": "Acme", "seconds": 900, "billable_seconds": 0, "entries": 1]),
        ]))
        #expect(json["total_seconds"] == 2700)
        #expect(json["non_billable_seconds"] == 900)
        let week = try t.run("summary", "--week", "-p", "Docs", "-c", "Acme")
        #expect(week.lines == [
            "week 2026-11-16 – 2026-11-22",
            "  Docs (Acme)      2:30      200.00",
            "  billable         2:30      200.00",
            "  non-billable     0:00",
            "  total            2:30",
        ])
        let none = try t.run("summary", "--date", "2026-11-18", "-c", "Globex")
        #expect(none.lines == ["Wed 2026-11-18", "no time tracked that matches"])
    }

    @Test func tagsListsEachTagWithItsTimeAndEntries() throws {
        let t = try timesheet()
        let text = try t.run("tags")
        #expect(text.status == 0)
        #expect(text.lines == [
            "#writing     1:30  2 entries",
            "#review      0:30  1 entry",
            "#errand      0:15  1 entry",
        ])
        let json = try t.run("tags", "--from", "10:15", "--json").json()
        #expect(json == .object([
            "from": "2026-11-20T10:15:00+01:00",
            "to": "2026-11-20T18:00:00+01:00",
            "tags": [
                .object(["name": "errand", "seconds": 900, "entries": 1]),
                .object(["name": "review", "seconds": 900, "entries": 1]),
                .object(["name": "writing", "seconds": 900, "entries": 1]),
            ],
        ]))
        #expect(try t.run("tags", "-p", "Docs").lines == ["#writing     1:00  1 entry"])
        #expect(try t.run("tags", "-c", "Globex").lines == ["no tagged time that matches"])
        let empty = try Sandbox()
        #expect(try empty.run("tags").lines == ["no tags yet; `trackee start -t TAG` tags a timer"])
    }
}
