import Foundation
import Testing
import TrackeeTestSupport

/// `trackee report` through the built binary: its numbers against `trackee
/// summary --json` for the same range, filters and grouping (issue 37 §4),
/// its formats, widths and colour, and the input it refuses.
@Suite struct ReportCommandTests {
    /// Prague, Sunday 2026-10-25 23:30, the day the clocks went back. Docs
    /// (Acme) is billable at 80.00, Web (Acme) at 45.50, Mail has a rate
    /// but is not billable. Across midnight: Docs Tue 22:00–Wed 01:00;
    /// across the change: Web Sat 23:00–Sun 04:00 (6 hours); from the
    /// week before: Docs Sun 10-18 23:00–Mon 00:31; a timer without a
    /// project runs since 23:00. Tags hold several tags, stored with commas
    /// between them. Alice shares her timeline: a copy is in people/.
    private func week() throws -> Sandbox {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-10-25 23:30")
        let adds: [[String]] = [
            ["-p", "Docs", "-c", "Acme", "-t", "a", "-t", "b", "--from", "2026-10-19 09:00", "--to", "2026-10-19 10:30", "Write docs"],
            ["-p", "Docs", "-c", "Acme", "-t", "a", "--from", "2026-10-20 22:00", "--to", "2026-10-21 01:00", "Review"],
            ["-p", "Web", "-c", "Acme", "-t", "b", "-t", "night", "--from", "2026-10-24 23:00", "--to", "2026-10-25 04:00"],
            ["-p", "Mail", "--from", "2026-10-25 10:00", "--to", "2026-10-25 10:20", "inbox REVIEW"],
            ["-p", "Docs", "-c", "Acme", "--from", "2026-10-18 23:00", "--to", "2026-10-19 00:31"],
            ["-p", "Docs", "-c", "Globex", "--from", "2026-10-22 13:00", "--to", "2026-10-22 13:07"],
        ]
        for args in adds { #expect(try t.run(["add"] + args).status == 0) }
        #expect(try t.run("start", "--at", "2026-10-25 23:00").status == 0)
        #expect(try t.run("projects", "edit", "Docs", "-c", "Acme", "--billable", "--rate", "80").status == 0)
        #expect(try t.run("projects", "edit", "Web", "-c", "Acme", "--billable", "--rate", "45.50").status == 0)
        #expect(try t.run("projects", "edit", "Mail", "--rate", "30").status == 0)
        let alice = t.path("store/people/alice.sqlite3")
        try FileManager.default.createDirectory(atPath: t.path("store/people"), withIntermediateDirectories: true)
        #expect(try t.run("add", "--store", alice, "-p", "Shared", "-c", "Initech", "--from", "2026-10-21 09:00", "--to",
                          "2026-10-21 11:15").status == 0)
        #expect(try t.run("projects", "edit", "Shared", "-c", "Initech", "--billable", "--rate", "99.99", "--store", alice).status == 0)
        try t.write("currency: EUR\ncreate_projects: always\n", to: "config/trackee/config.yaml")
        return t
    }

    /// What a summary line is called in a report's group labels.
    private func label(_ line: JSONValue, by grouping: String) -> String {
        switch grouping {
        case "project": return (line["name"].string ?? "(no project)") + (line["client"].string.map { " (\($0))" } ?? "")
        case "client": return line["name"].string ?? "(no client)"
        default: return line["name"].string.map { "#" + $0 } ?? "(no tag)"
        }
    }

    @Test func everyKindsGroupsEqualSummaryToTheSecondAndTheCent() throws {
        let t = try week()
        let filters: [[String]] = [[], ["--billable"], ["--non-billable"], ["--client", "Acme"], ["--tag", "b"],
                                   ["--description", "review"], ["--person", "alice"], ["-p", "Docs", "--from", "2026-10-20 23:00", "--to", "2026-10-25 03:30"]]
        var compared = 0
        for filter in filters {
            let period = filter.contains("--from") ? [] : ["--week"]
            for grouping in ["project", "client", "tag"] {
                let summary = try t.run(["summary", "--by", grouping, "--json"] + period + filter)
                #expect(summary.status == 0, "\(summary)")
                let json = try summary.json()
                var lines: [String: [Int64?]] = [:]
                for line in json["lines"].elements {
                    lines[label(line, by: grouping)] = [line["seconds"].int, line["billable_seconds"].int, line["amount_cents"].int]
                }
                for kind in ["summary", "detailed", "weekly"] {
                    let run = try t.run(["report", kind, "--by", grouping, "--json"] + period + filter)
                    #expect(run.status == 0, "\(run)")
                    let report = try run.json()
                    var groups: [String: [Int64?]] = [:]
                    for group in report["groups"].elements {
                        let totals = group["totals"]
                        groups[group["label"].string ?? ""] =
                            [totals["seconds"].int, totals["billable_seconds"].int, totals["amount_cents"].int]
                    }
                    #expect(groups == lines, "report \(kind) --by \(grouping) \(filter)")
                    #expect(report["total"]["seconds"].int == json["total_seconds"].int)
                    #expect(report["total"]["billable_seconds"].int == json["billable_seconds"].int)
                    #expect(report["total"]["amount_cents"] == json["total_amount_cents"])
                    #expect(report["from"] == json["from"] && report["to"] == json["to"])
                    if kind == "weekly" {
                        let rows = report["weekly"]["rows"].elements
                        #expect(rows.map { $0["seconds"].int } == report["groups"].elements.map { $0["totals"]["seconds"].int })
                        for row in rows {
                            #expect(row["seconds_by_day"].elements.compactMap(\.int).reduce(0, +) == row["seconds"].int)
                        }
                    }
                    compared += 1
                }
            }
        }
        #expect(compared == filters.count * 9)
    }

    @Test func theFixturesNumbersAreTheOnesWorkedOutByHand() throws {
        let t = try week()
        let report = try t.run("report", "--week", "--json").json()
        // Docs (Acme): 1:30 + 3:00 + 0:31; Web: 6 h over the change; the
        // timer 0:30; Mail 0:20; Docs (Globex) 0:07.
        #expect(report["groups"].elements.map { $0["label"] } == [
            "Web (Acme)", "Docs (Acme)", "(no project)", "Mail", "Docs (Globex)",
        ])
        #expect(report["groups"].elements.map { $0["totals"]["seconds"].int } == [21600, 18060, 1800, 1200, 420])
        #expect(report["total"]["amount_cents"] == 67433)
        #expect(report["currency"] == "EUR")
        #expect(report["days"].elements.map { $0["seconds"].int } == [7260, 7200, 3600, 420, 0, 3600, 21000])
        // Per person: only Alice's copy, charged at her rate.
        let alice = try t.run("report", "--week", "--person", "alice", "--json").json()
        #expect(alice["total"]["amount_cents"] == 22498)
        #expect(alice["filters"] == ["timeline of alice"])
    }

    @Test func dayAndWeekGroupsEqualSummaryOfEachDayAndWeek() throws {
        let t = try week()
        let byDay = try t.run("report", "--week", "--by", "day", "--json").json()
        for group in byDay["groups"].elements {
            let day = try #require(group["name"].string)
            let summary = try t.run("summary", "--day", "--date", day, "--json").json()
            #expect(group["totals"]["seconds"].int == summary["total_seconds"].int, "\(day)")
            #expect(group["totals"]["amount_cents"] == summary["total_amount_cents"], "\(day)")
        }
        #expect(byDay["groups"].elements.count == 6)
        let byWeek = try t.run("report", "--month", "--by", "week,project", "--json").json()
        for group in byWeek["groups"].elements {
            let week = try #require(group["name"].string)
            let summary = try t.run("summary", "--week", "--date", week, "--json").json()
            // The month clips its first and last week.
            if week >= "2026-10-05" && week <= "2026-10-19" {
                #expect(group["totals"]["seconds"].int == summary["total_seconds"].int, "\(week)")
            }
        }
        #expect(byWeek["groups"].elements.compactMap { $0["name"].string } == ["2026-10-12", "2026-10-19"])
    }

    @Test func roundingIsStatedAndLeavesTheStoreAlone() throws {
        let t = try week()
        let before = try t.run("log", "--json").stdout
        let r = try t.run("report", "detailed", "--week", "--round", "15m", "--json").json()
        #expect(r["rounding_minutes"] == 15)
        // 1:30, 3:00, 6:00, 0:30 (0:20), 0:45 (0:31), 0:15 (0:07), 0:30 (running 0:30).
        #expect(r["entries"].elements.map { $0["rounded_seconds"].int } == [2700, 5400, 10800, 900, 21600, 1800, 1800])
        #expect(r["total"]["seconds"] == 45000)
        let text = try t.run("report", "--week", "--round", "6m")
        #expect(text.lines[1] == "Europe/Prague · rounded up per entry to 6 min · amounts in EUR")
        let csv = try t.run("report", "--week", "--round", "6m", "--format", "csv")
        #expect(csv.lines.dropFirst().allSatisfy { $0.hasSuffix(",6\r") })
        #expect(try t.run("log", "--json").stdout == before)
    }

    @Test(arguments: ["40", "80", "200"])
    func noLineIsWiderThanColumns(_ columns: String) throws {
        let t = try week()
        for kind in ["summary", "detailed", "weekly"] {
            for by in ["project", "client,tag", "description"] {
                let r = try t.run(["report", kind, "--week", "--by", by], environment: ["COLUMNS": columns])
                #expect(r.status == 0)
                #expect(r.lines.allSatisfy { $0.count <= Int(columns)! }, "\(kind) --by \(by): \(r.stdout)")
                #expect(r.lines.contains { $0.count > Int(columns)! * 3 / 4 } || kind == "weekly" || columns == "200")
            }
        }
    }

    @Test func colourOnlyOnATerminalAndNeverWithNoColor() throws {
        let t = try week()
        let piped = try t.run(["report", "--week"], environment: ["NO_COLOR": nil, "TERM": "xterm-256color"])
        #expect(piped.status == 0 && !piped.stdout.contains("\u{1B}"))
        let coloured = try Terminal.run(t, ["report", "--week"], environment: ["NO_COLOR": nil, "TERM": "xterm-256color"])
        #expect(coloured.contains("\u{1B}[38;2;31;119;180m"))
        let plain = try Terminal.run(t, ["report", "--week"], environment: ["NO_COLOR": "1", "TERM": "xterm-256color"])
        #expect(!plain.contains("\u{1B}") && plain.contains("By project"))
    }

    @Test func anEmptyRangeSaysSoAndExitsZero() throws {
        let t = try week()
        let r = try t.run("report", "--week", "--date", "2026-09-01")
        #expect(r.status == 0)
        #expect(r.lines == ["Summary report, week 2026-08-31 – 2026-09-06", "Europe/Prague", "no time tracked"])
        let filtered = try t.run("report", "--week", "--description", "nothing like it")
        #expect(filtered.lines.last == "no time tracked that matches")
        let json = try t.run("report", "weekly", "--week", "--date", "2026-09-01", "--json").json()
        #expect(json["groups"] == [] && json["total"]["entries"] == 0 && json["weekly"]["days"].elements.count == 7)
    }

    @Test func badInputIsRefusedWithTheAcceptedValues() throws {
        let t = try week()
        let refusals: [([String], String)] = [
            (["report", "monthly"], "unknown report kind \"monthly\"; the kinds are summary, detailed and weekly"),
            (["report", "--by", "colour"],
             "--by: unknown grouping \"colour\"; the groupings are project, client, tag, day, week, description"),
            (["report", "--by", "client,client"], "--by names client twice; give each grouping once"),
            (["report", "--by", "client,project,tag"], "--by takes one or two groupings, such as client,project"),
            (["report", "--format", "docx"], "--format is \"docx\"; the formats are terminal, json, csv, html, pdf, xlsx"),
            (["report", "-o", "report.doc"],
             "-o report.doc: the extension does not name a format; give --format (terminal, json, csv, html, pdf, xlsx)"),
            (["report", "--round", "10m"], "--round is \"10m\"; it takes 6m or 15m"),
            (["report", "--week", "--month"], "choose one of --day, --week, --month and --year"),
            (["report", "--billable", "--non-billable"], "choose one of --billable and --non-billable"),
            (["report", "--json", "--format", "csv"], "--json asks for JSON; it does not combine with --format csv"),
        ]
        for (arguments, sentence) in refusals {
            let r = try t.run(arguments)
            #expect(r.status == 64, "\(r)")
            #expect(r.stderr == "trackee: \(sentence)\nSee 'trackee report --help'.\n")
            #expect(r.stdout == "")
        }
        let typo = try t.run("report", "--client", "Acne")
        #expect(typo.status == 64 && typo.stderr == "trackee: --client \"Acne\" names no client; did you mean \"Acme\"?\n")
        let blank = try t.run("report", "--description", "")
        #expect(blank.status == 64 && blank.stderr == "trackee: --description is empty; leave it out for every description\n")
    }

    @Test func outputGoesToAFileByItsExtensionAndAnUnwritablePathLeavesNothing() throws {
        let t = try week()
        let csv = try t.run("report", "--week", "-o", t.path("io/week.csv"))
        #expect(csv.status == 0 && csv.stdout == "")
        let written = try String(contentsOfFile: t.path("io/week.csv"), encoding: .utf8)
        #expect(written == (try t.run("report", "--week", "--format", "csv").stdout))
        #expect(written.hasPrefix("project,seconds,duration,billable_seconds,amount,currency,entries,rounded_up_to_minutes\r\n"))
        let json = try t.run("report", "--week", "-o", t.path("io/week.json"))
        #expect(json.status == 0)
        #expect(try t.bytes(t.path("io/week.json")) == (try t.run("report", "--week", "--json").stdoutData))
        // Colourless in a file, whatever the terminal.
        #expect(try t.run(["report", "--week", "-o", t.path("io/week.txt")], environment: ["NO_COLOR": nil]).status == 0)
        #expect(!(try String(contentsOfFile: t.path("io/week.txt"), encoding: .utf8)).contains("\u{1B}"))

        // An existing file is replaced only once the new one is complete;
        // a path that cannot be written leaves nothing behind.
        try t.write("old", to: "io/kept.csv")
        for name in ["missing/week.csv", "missing/week.pdf", "missing/week.txt"] {
            let r = try t.run(["report", "--week", "-o", t.path("io/" + name)], environment: ["TRACKEE_REPORT": "/bin/true"])
            #expect(r.status == 1, "\(r)")
            #expect(r.stderr == "trackee: cannot write \(t.path("io/" + name)): No such file or directory\n")
        }
        #expect(t.listing(t.path("io")) == ["kept.csv", "week.csv", "week.json", "week.txt"])
        #expect(try t.run("report", "--week", "-o", t.path("io/kept.csv")).status == 0)
        #expect(try String(contentsOfFile: t.path("io/kept.csv"), encoding: .utf8) == written)
        try FileManager.default.removeItem(atPath: t.path("io/kept.csv"))
        for name in ["week.csv", "week.json", "week.txt"] { try FileManager.default.removeItem(atPath: t.path("io/" + name)) }
    }

    @Test func pdfAndXlsxAreTrackeeReportsWhichGetsTheJSON() throws {
        let t = try week()
        // A stand-in for trackee-report that keeps what it was given.
        let tool = try t.write("#!/bin/sh\necho \"$@\" > \"$(dirname \"$0\")/args\"\ncat > \"$(dirname \"$0\")/stdin\"\n", to: "io/tool/trackee-report")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool)
        let r = try t.run(["report", "weekly", "--week", "-o", t.path("io/week.pdf")], environment: ["TRACKEE_REPORT": tool])
        #expect(r.status == 0, "\(r)")
        #expect(try String(contentsOfFile: t.path("io/tool/args"), encoding: .utf8) == "--format pdf -o \(t.path("io/week.pdf"))\n")
        let json = try t.run("report", "weekly", "--week", "--json").stdout
        #expect(try String(contentsOfFile: t.path("io/tool/stdin"), encoding: .utf8) + "\n" == json)
        let xlsx = try t.run(["report", "--format", "xlsx"], environment: ["TRACKEE_REPORT": tool])
        #expect(xlsx.status == 0)
        #expect(try String(contentsOfFile: t.path("io/tool/args"), encoding: .utf8) == "--format xlsx -o -\n")
        try FileManager.default.removeItem(atPath: t.path("io/tool"))

        let missing = try t.run(["report", "--format", "pdf"], environment: ["TRACKEE_REPORT": t.path("nowhere")])
        #expect(missing.status == 78)
        #expect(missing.stderr == "trackee: PDF and XLSX reports need trackee-report; TRACKEE_REPORT names \(t.path("nowhere")), which is not an executable\n")
    }

    /// `--format html` draws the report `--json` prints: over the DST week
    /// (a 25-hour Sunday), midnight, the running timer and two levels, its
    /// day chart's bars add up to each day's and each project's seconds;
    /// `-o week.html` writes the same page.
    @Test(arguments: ["summary", "detailed", "weekly"])
    func htmlDrawsTheReportJSONHolds(kind: String) throws {
        let t = try week()
        let json = try t.run("report", kind, "--week", "--by", "client,project", "--json").json()
        let html = try t.run("report", kind, "--week", "--by", "client,project", "--format", "html")
        #expect(html.status == 0, "\(html)")
        #expect(html.stdout.hasPrefix("<!doctype html>\n"))
        var byDay: [String: Int64] = [:]
        var byProject: [String: Int64] = [:]
        let bar = try Regex(#"data-day="([0-9-]+)" data-project="([0-9]+)" data-seconds="([0-9]+)""#)
        for match in html.stdout.matches(of: bar) {
            let seconds = Int64(match.output[3].substring!)!
            byDay[String(match.output[1].substring!), default: 0] += seconds
            byProject[String(match.output[2].substring!), default: 0] += seconds
        }
        var days: [String: Int64] = [:]
        for day in json["days"].elements where day["seconds"].int != 0 { days[day["date"].string!] = day["seconds"].int! }
        #expect(byDay == days)
        #expect(days["2026-10-25"] != nil)
        var projects: [String: Int64] = [:]
        for (i, project) in json["projects"].elements.enumerated() { projects[String(i)] = project["seconds"].int! }
        #expect(byProject == projects)
        let written = try t.run("report", kind, "--week", "--by", "client,project", "-o", t.path("io/week.html"))
        #expect(written.status == 0 && written.stdout == "")
        #expect(try t.bytes(t.path("io/week.html")) == html.stdoutData)
        try FileManager.default.removeItem(atPath: t.path("io/week.html"))
    }

    @Test func summaryTakesTheYear() throws {
        let t = try week()
        let year = try t.run("summary", "--year", "--json").json()
        #expect(year["from"] == "2026-01-01T00:00:00+01:00" && year["to"] == "2027-01-01T00:00:00+01:00")
        // The entry from the week before counts whole: 1:31.
        let seconds: Int64 = 5400 + 10800 + 5460 + 21600 + 1200 + 420 + 1800
        #expect(year["total_seconds"].int == seconds)
        #expect(try t.run("summary", "--year").lines.first == "2026")
        #expect(try t.run("report", "--year").lines.first == "Summary report, 2026")
    }
}

/// Runs `trackee` with its standard output on a terminal: under
/// script(1), which gives it a pseudo-terminal and copies what it shows.
private enum Terminal {
    static func run(_ t: Sandbox, _ arguments: [String], environment overrides: [String: String?]) throws -> String {
        var environment = t.environment
        for (key, value) in overrides { environment[key] = value }
        let words = [try TrackeeBinary.path()] + arguments
        let command = words.map { "'" + $0 + "'" }.joined(separator: " ")
        return try runProgram("/usr/bin/script", ["--quiet", "--return", "--command", command, "/dev/null"],
                              environment: environment, in: t.root).stdout
    }
}
