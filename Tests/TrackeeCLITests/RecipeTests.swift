import Foundation
import Testing
import TrackeeTestSupport

/// Every file in recipes/ works with the trackee it ships with: the rule
/// files load and do what their comments say on a throwaway store, and the
/// systemd unit passes `systemd-analyze verify`.
@Suite struct RecipeTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let recipes = root.appendingPathComponent("recipes")

    /// The path of a rule recipe, such as `rule("office-hours.yaml")`.
    static func rule(_ name: String) -> String { recipes.appendingPathComponent("rules/" + name).path }

    /// A sandbox whose home holds the sample calendar the meetings recipe
    /// names (`~/.calendars/work`), as its comment says to set up.
    static func sandbox(now: String = "2026-11-20 12:00", createProjects: String? = "always") throws -> Sandbox {
        let t = try Sandbox(now: now, createProjects: createProjects)
        try FileManager.default.createDirectory(atPath: t.path("home/.calendars"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: recipes.appendingPathComponent("calendars/work").path, toPath: t.path("home/.calendars/work"))
        return t
    }

    /// Runs a recipe script with the built trackee first on PATH.
    private func runRecipe(_ t: Sandbox, _ script: String, _ arguments: [String],
                           environment: [String: String] = [:]) throws -> (Int32, String) {
        let bin = try binDirectory(t)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [Self.recipes.appendingPathComponent(script).path] + arguments
        var env = t.environment
        env["PATH"] = bin + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// `bin/` in the sandbox, holding a `trackee` link to the built binary.
    private func binDirectory(_ t: Sandbox) throws -> String {
        let bin = t.path("bin")
        if !FileManager.default.fileExists(atPath: bin) {
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(atPath: bin + "/trackee", withDestinationPath: TrackeeBinary.path())
        }
        return bin
    }

    /// `trackee tick --rules RECIPE` as if it were `now`.
    private func tick(_ t: Sandbox, _ recipe: String, at now: String) throws -> TrackeeRun {
        try t.run(["tick", "--rules", recipe], now: now)
    }

    /// Every entry of `trackee log --json` at `now`, newest first.
    private func entries(_ t: Sandbox, at now: String) throws -> JSONValue {
        let log = try t.run(["log", "--json"], now: now)
        #expect(log.status == 0, "\(log)")
        return .array(try log.json()["days"].elements.flatMap(\.["entries"].elements))
    }

    private func json(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    /// The line a `notify` action logs on standard error without a session
    /// bus: for a person, without the firing's metadata.
    private func notification(_ text: String) -> String {
        "trackee: notice: notify (no session bus): \(text)\n"
    }

    // MARK: Scripts

    /// Under the default settings, as cron runs it: no terminal to ask on,
    /// so the script's --new-project is what creates its project.
    @Test func theCronWorkdayRecipeIsSafeToRunTwice() throws {
        let t = try Sandbox(now: "2026-11-20 09:00", createProjects: nil)
        let first = try runRecipe(t, "shell/cron-workday.sh", ["start"])
        #expect(first.0 == 0)
        #expect(first.1 == "created project \"Work\"\nstarted Work at 09:00\n")
        let again = try runRecipe(t, "shell/cron-workday.sh", ["start"])
        #expect(again.0 == 0)
        #expect(again.1.hasPrefix("started Work at 09:00 — key \"cron-workday-start-"))
        #expect(again.1.hasSuffix("\" was applied before; nothing changed\n"))
        let stop = try runRecipe(t, "shell/cron-workday.sh", ["stop"])
        #expect(stop.0 == 0)
        #expect(stop.1 == "stopped Work at 09:00 after 0:00\n")
        let stopAgain = try runRecipe(t, "shell/cron-workday.sh", ["stop"])
        #expect(stopAgain.0 == 0)
        let log = try t.run("log", "--json").json()
        #expect(log["days"][0]["entries"].elements.count == 1)
        let usage = try runRecipe(t, "shell/cron-workday.sh", [])
        #expect(usage.0 == 64)
    }

    // MARK: Rule files load

    /// What `trackee rules check FILE` prints for each rule recipe on
    /// Friday 2026-11-20 at 12:00, Prague time.
    static let checked: [String: [String]] = [
        "meetings.yaml": [
            #"rule "meeting-start" (Meetings from the work calendar)"#,
            "  calendar work start -2m: 2026-11-23T09:28:00+01:00 Standup, 2026-11-23T13:58:00+01:00 Client workshop, "
                + "2026-11-24T09:28:00+01:00 Standup",
            #"rule "meeting-end""#,
            "  calendar work end: 2026-11-23T09:45:00+01:00 Standup, 2026-11-23T16:00:00+01:00 Client workshop, "
                + "2026-11-24T09:45:00+01:00 Standup",
            "2 rules, no errors",
        ],
        "desk.yaml": [
            #"rule "away" (Away from the desk)"#,
            "  idle for 10m",
            #"rule "back" (Back at the desk)"#,
            "  idle ended after 10m or more",
            #"rule "lock" (Screen locked)"#,
            "  session locked",
            #"rule "sleep" (Lid closed)"#,
            "  sleep suspend",
            #"rule "office-net" (Office Wi-Fi)"#,
            "  network connected (ssid ACME-Office)",
            #"rule "power" (On battery)"#,
            "  power battery",
            #"rule "dock" (Docked)"#,
            "  device added (usb 17ef:30b4)",
            "7 rules, no errors",
        ],
        "timeflip.yaml": [
            #"rule "face-1-mail""#,
            "  flip facet 1",
            #"rule "face-2-docs""#,
            "  flip facet 2",
            #"rule "face-3-code""#,
            "  flip facet 3",
            #"rule "face-4-review""#,
            "  flip facet 4",
            #"rule "face-5-meetings""#,
            "  flip facet 5",
            #"rule "face-6-calls""#,
            "  flip facet 6",
            #"rule "face-7-support""#,
            "  flip facet 7",
            #"rule "face-8-admin""#,
            "  flip facet 8",
            #"rule "face-9-learning""#,
            "  flip facet 9",
            #"rule "face-10-planning""#,
            "  flip facet 10",
            #"rule "face-11-break""#,
            "  flip facet 11",
            #"rule "face-12-done""#,
            "  flip facet 12",
            #"rule "paused""#,
            "  flip paused",
            #"rule "cube-battery""#,
            "  flip battery below 20%",
            "14 rules, no errors",
        ],
        "end-of-day.yaml": [
            #"rule "end-of-day" (End-of-day safety stop)"#,
            "  at *-*-* 19:00: 2026-11-20T19:00:00+01:00, 2026-11-21T19:00:00+01:00, 2026-11-22T19:00:00+01:00",
            "1 rule, no errors",
        ],
        "forgotten-timer.yaml": [
            #"rule "long-timer" (Timer running long)"#,
            "  timer running for 4h",
            #"rule "overnight" (Forgotten overnight)"#,
            "  timer running for 10h",
            "2 rules, no errors",
        ],
        "focus-tracking.yaml": [
            #"rule "focus-deep" (Deep work)"#,
            "  focus deep on",
            #"rule "focus-meeting" (Meetings)"#,
            "  focus meeting on",
            #"rule "focus-off" (Focus ended)"#,
            "  focus deep off",
            "  focus meeting off",
            "3 rules, no errors",
        ],
        "lunch-break.yaml": [
            #"rule "lunch-stop" (Lunch break)"#,
            "  at Mon..Fri 12:30: 2026-11-20T12:30:00+01:00, 2026-11-23T12:30:00+01:00, 2026-11-24T12:30:00+01:00",
            #"rule "lunch-resume" (Back from lunch) [disabled]"#,
            "  at Mon..Fri 13:15: disabled",
            "2 rules, no errors",
        ],
        "office-arrive-leave.yaml": [
            #"rule "office-arrive" (Arrived at the office)"#,
            "  arrive office for 2m",
            #"rule "office-leave" (Left the office)"#,
            "  leave office for 5m",
            "2 rules, no errors",
        ],
        "office-hours.yaml": [
            #"rule "office-hours-start" (Office hours start)"#,
            "  at Mon..Fri 09:00: 2026-11-23T09:00:00+01:00, 2026-11-24T09:00:00+01:00, 2026-11-25T09:00:00+01:00",
            #"rule "office-hours-stop" (Office hours stop)"#,
            "  at Mon..Fri 17:30: 2026-11-20T17:30:00+01:00, 2026-11-23T17:30:00+01:00, 2026-11-24T17:30:00+01:00",
            "2 rules, no errors",
        ],
        "reminder.yaml": [
            #"rule "timesheet-reminder" (Submit the timesheet)"#,
            "  at Fri 15:30: 2026-11-20T15:30:00+01:00, 2026-11-27T15:30:00+01:00, 2026-12-04T15:30:00+01:00",
            "1 rule, no errors",
        ],
        "run-script.yaml": [
            #"rule "focus-on-log" (Focus on, to the system log)"#,
            "  focus deep on",
            "  focus meeting on",
            #"rule "focus-off-log" (Focus off, to the system log)"#,
            "  focus deep off",
            "  focus meeting off",
            #"rule "weekly-export" (Weekly CSV export)"#,
            "  at Fri 17:00: 2026-11-20T17:00:00+01:00, 2026-11-27T17:00:00+01:00, 2026-12-04T17:00:00+01:00",
            "3 rules, no errors",
        ],
    ]

    /// Every `.yaml` file anywhere in recipes/ but http/ (Home Assistant's
    /// settings, which HTTPRecipeTests reads), relative to it, sorted.
    private func yamlRecipes() throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: Self.recipes.path)
            .filter { $0.hasSuffix(".yaml") && !$0.hasPrefix("http/") }.sorted()
    }

    @Test func everyRuleRecipeChecksCleanWithItsNextFirings() throws {
        let files = try yamlRecipes()
        #expect(files == Self.checked.keys.sorted().map { "rules/" + $0 })
        let t = try Self.sandbox(now: "2026-11-20 12:00")
        for file in files {
            let r = try t.run("rules", "check", Self.recipes.appendingPathComponent(file).path)
            #expect(r.status == 0, "\(r)")
            #expect(r.stderr == "", "\(file)")
            #expect(r.lines == Self.checked[(file as NSString).lastPathComponent], "\(file)")
        }
    }

    @Test func allRuleRecipesLoadTogetherFromRulesD() throws {
        let t = try Self.sandbox(now: "2026-11-20 12:00")
        let rulesD = t.path("config/trackee/rules.d")
        try FileManager.default.createDirectory(atPath: rulesD, withIntermediateDirectories: true)
        for name in Self.checked.keys {
            try FileManager.default.copyItem(atPath: Self.rule(name), toPath: rulesD + "/" + name)
        }
        let check = try t.run("rules", "check")
        #expect(check.status == 0, "\(check)")
        #expect(check.stderr == "")
        let eachFile = Self.checked.keys.sorted().flatMap { Self.checked[$0]!.dropLast() }
        #expect(check.lines == eachFile + ["39 rules, no errors"])

        let next = try t.run("rules", "next", "--count", "6")
        #expect(next.status == 0, "\(next)")
        #expect(next.lines == [
            "2026-11-20T12:30:00+01:00  lunch-stop  Mon..Fri 12:30",
            "2026-11-20T15:30:00+01:00  timesheet-reminder  Fri 15:30",
            "2026-11-20T17:00:00+01:00  weekly-export  Fri 17:00",
            "2026-11-20T17:30:00+01:00  office-hours-stop  Mon..Fri 17:30",
            "2026-11-20T19:00:00+01:00  end-of-day  *-*-* 19:00",
            "2026-11-21T19:00:00+01:00  end-of-day  *-*-* 19:00",
            "idle, session, sleep, network, power, device and flip triggers are not timed: they fire when the machine changes, so none is listed",
        ])
    }

    // MARK: Rule files at work

    @Test func officeHoursStartsAtNineStopsAtHalfPastFiveAndCatchesUpOnlyAShortSleep() throws {
        let t = try Sandbox()
        let recipe = Self.rule("office-hours.yaml")
        let steps: [(now: String, output: [String])] = [
            ("2026-11-23 08:00", ["first tick: watermark set to 2026-11-23T08:00:00+01:00; nothing before it fires"]),
            ("2026-11-23 09:00", [#"fired office-hours-start at 2026-11-23T09:00:00+01:00: started Office (created project "Office")"#]),
            ("2026-11-23 09:00", ["nothing due from 2026-11-23T09:00:00+01:00 to 2026-11-23T09:00:00+01:00"]),
            ("2026-11-23 17:31", ["fired office-hours-stop at 2026-11-23T17:30:00+01:00: stopped Office"]),
            // Tuesday: woken at 09:12, within max_late 15m; the entry still starts at 09:00.
            ("2026-11-24 09:12", ["fired office-hours-start at 2026-11-24T09:00:00+01:00: started Office"]),
            // Asleep at 17:30, woken at 19:00, within max_late 4h; the entry ends at 17:30.
            ("2026-11-24 19:00", ["fired office-hours-stop at 2026-11-24T17:30:00+01:00: stopped Office"]),
            // Wednesday: woken at 09:20, past max_late 15m; nothing starts.
            ("2026-11-25 09:20", ["skipped office-hours-start at 2026-11-25T09:00:00+01:00: noticed more than max_late after its time"]),
        ]
        for step in steps {
            let r = try tick(t, recipe, at: step.now)
            #expect(r.status == 0, "\(r)")
            #expect(r.stderr == "")
            #expect(r.lines == step.output, "tick at \(step.now)")
        }
        #expect(try entries(t, at: "2026-11-25 09:20") == json("""
            [
              {"id": 2, "project": "Office", "description": "Desk day", "tags": ["auto"], "billable": false,
               "start": "2026-11-24T09:00:00+01:00", "end": "2026-11-24T17:30:00+01:00", "duration_seconds": 30600,
               "running": false, "source": "rule:office-hours-start"},
              {"id": 1, "project": "Office", "description": "Desk day", "tags": ["auto"], "billable": false,
               "start": "2026-11-23T09:00:00+01:00", "end": "2026-11-23T17:30:00+01:00", "duration_seconds": 30600,
               "running": false, "source": "rule:office-hours-start"}
            ]
            """))
    }

    @Test func lunchBreakStopsARunningTimerAndTheEnabledResumeStartsOfficeWhenNothingRuns() throws {
        let t = try Sandbox()
        let recipe = Self.rule("lunch-break.yaml")
        #expect(try tick(t, recipe, at: "2026-11-23 08:00").status == 0)
        #expect(try t.run(["start", "-p", "Docs", "user guide"], now: "2026-11-23 10:00").status == 0)

        let lunch = try tick(t, recipe, at: "2026-11-23 12:31")
        #expect(lunch.status == 0, "\(lunch)")
        #expect(lunch.lines == ["fired lunch-stop at 2026-11-23T12:30:00+01:00: stopped Docs"])
        #expect(lunch.stderr == notification(
            "Lunch break: Timer stopped at 2026-11-23T12:30:00+01:00"))

        // Nothing runs on Tuesday: the condition keeps the rule, and its notification, quiet.
        let quiet = try tick(t, recipe, at: "2026-11-24 12:31")
        #expect(quiet.lines == ["not fired lunch-stop at 2026-11-24T12:30:00+01:00: conditions not met or cooling down"])
        #expect(quiet.stderr == "")

        // The optional resume, switched on as the recipe's comment says.
        let text = try String(contentsOfFile: recipe, encoding: .utf8)
        #expect(text.components(separatedBy: "\n    enabled: false\n").count == 2)
        let enabled = t.path("lunch-break.yaml")
        try text.replacingOccurrences(of: "\n    enabled: false\n", with: "\n    enabled: true\n")
            .write(toFile: enabled, atomically: true, encoding: .utf8)
        let resume = try tick(t, enabled, at: "2026-11-24 13:16")
        #expect(resume.lines == [#"fired lunch-resume at 2026-11-24T13:15:00+01:00: started Office (created project "Office")"#])
        #expect(try t.run(["stop"], now: "2026-11-24 17:00").status == 0)

        // Wednesday: a timer started by hand after lunch is left alone.
        #expect(try tick(t, enabled, at: "2026-11-25 12:00").status == 0)
        #expect(try t.run(["start", "-p", "Review"], now: "2026-11-25 12:45").status == 0)
        let busy = try tick(t, enabled, at: "2026-11-25 13:16")
        #expect(busy.lines == [
            "skipped lunch-stop at 2026-11-25T12:30:00+01:00: noticed more than max_late after its time",
            "not fired lunch-resume at 2026-11-25T13:15:00+01:00: conditions not met or cooling down",
        ])

        #expect(try entries(t, at: "2026-11-25 14:00") == json("""
            [
              {"id": 3, "project": "Review", "description": "", "tags": [], "billable": false,
               "start": "2026-11-25T12:45:00+01:00", "duration_seconds": 4500, "running": true, "source": "cli"},
              {"id": 2, "project": "Office", "description": "Desk day", "tags": ["auto"], "billable": false,
               "start": "2026-11-24T13:15:00+01:00", "end": "2026-11-24T17:00:00+01:00", "duration_seconds": 13500,
               "running": false, "source": "rule:lunch-resume"},
              {"id": 1, "project": "Docs", "description": "user guide", "tags": [], "billable": false,
               "start": "2026-11-23T10:00:00+01:00", "end": "2026-11-23T12:30:00+01:00", "duration_seconds": 9000,
               "running": false, "source": "cli"}
            ]
            """))
    }

    @Test func focusTrackingFollowsTheFocusModeAndLeavesAHandStartedTimerRunning() throws {
        let t = try Sandbox()
        let recipe = Self.rule("focus-tracking.yaml")
        func focus(_ arguments: [String], at now: String) throws -> [String] {
            let r = try t.run(["focus"] + arguments + ["--rules", recipe], now: now)
            #expect(r.status == 0, "\(r)")
            #expect(r.stderr == "")
            return r.lines
        }
        #expect(try focus(["set", "deep"], at: "2026-11-23 09:30") == [
            "focus deep on",
            #"fired focus-deep at 2026-11-23T09:30:00+01:00: started Deep work (created project "Deep work")"#,
        ])
        // Modes compare without regard to case; the old one goes off first.
        #expect(try focus(["set", "Meeting"], at: "2026-11-23 11:00") == [
            "focus Meeting on",
            "fired focus-off at 2026-11-23T11:00:00+01:00: stopped Deep work",
            #"fired focus-meeting at 2026-11-23T11:00:00+01:00: started Meetings (created project "Meetings")"#,
        ])
        #expect(try focus(["set", "meeting"], at: "2026-11-23 11:10") == ["unchanged: focus meeting is already on"])
        #expect(try focus(["clear"], at: "2026-11-23 11:45") == [
            "focus Meeting off",
            "fired focus-off at 2026-11-23T11:45:00+01:00: stopped Meetings",
        ])
        #expect(try focus(["clear"], at: "2026-11-23 11:50") == ["unchanged: no focus mode was on"])

        #expect(try focus(["set", "deep"], at: "2026-11-23 13:00") == [
            "focus deep on",
            "fired focus-deep at 2026-11-23T13:00:00+01:00: started Deep work",
        ])
        #expect(try t.run(["start", "-p", "Review"], now: "2026-11-23 13:30").status == 0)
        #expect(try focus(["clear"], at: "2026-11-23 14:00") == ["focus deep off"])

        #expect(try entries(t, at: "2026-11-23 14:00") == json("""
            [
              {"id": 4, "project": "Review", "description": "", "tags": [], "billable": false,
               "start": "2026-11-23T13:30:00+01:00", "duration_seconds": 1800, "running": true, "source": "cli"},
              {"id": 3, "project": "Deep work", "description": "", "tags": ["focus"], "billable": false,
               "start": "2026-11-23T13:00:00+01:00", "end": "2026-11-23T13:30:00+01:00", "duration_seconds": 1800,
               "running": false, "source": "rule:focus-deep"},
              {"id": 2, "project": "Meetings", "description": "", "tags": ["focus"], "billable": false,
               "start": "2026-11-23T11:00:00+01:00", "end": "2026-11-23T11:45:00+01:00", "duration_seconds": 2700,
               "running": false, "source": "rule:focus-meeting"},
              {"id": 1, "project": "Deep work", "description": "", "tags": ["focus"], "billable": false,
               "start": "2026-11-23T09:30:00+01:00", "end": "2026-11-23T11:00:00+01:00", "duration_seconds": 5400,
               "running": false, "source": "rule:focus-deep"}
            ]
            """))
    }

    @Test func endOfDayStopsAForgottenTimerAtSevenEvenLateButNotTheNextMorning() throws {
        let t = try Sandbox()
        let recipe = Self.rule("end-of-day.yaml")
        #expect(try tick(t, recipe, at: "2026-11-23 08:00").status == 0)

        // Monday: on time.
        #expect(try t.run(["start", "-p", "Docs"], now: "2026-11-23 16:00").status == 0)
        let onTime = try tick(t, recipe, at: "2026-11-23 19:00")
        #expect(onTime.lines == ["fired end-of-day at 2026-11-23T19:00:00+01:00: stopped Docs"])
        #expect(onTime.stderr == notification(
            "Timer stopped at the end of the day: A timer was still running at 2026-11-23T19:00:00+01:00; it is saved, ending then."))

        // Tuesday: asleep at 19:00, woken at 21:30; the entry still ends at 19:00.
        #expect(try t.run(["start", "-p", "Docs"], now: "2026-11-24 17:00").status == 0)
        let late = try tick(t, recipe, at: "2026-11-24 21:30")
        #expect(late.lines == ["fired end-of-day at 2026-11-24T19:00:00+01:00: stopped Docs"])

        // Wednesday: asleep until Thursday 08:00; the stop is dropped, and
        // the recipe's advice stops the timer by hand.
        #expect(try t.run(["start", "-p", "Docs"], now: "2026-11-25 18:00").status == 0)
        let nextMorning = try tick(t, recipe, at: "2026-11-26 08:00")
        #expect(nextMorning.lines == ["skipped end-of-day at 2026-11-25T19:00:00+01:00: noticed more than max_late after its time"])
        #expect(nextMorning.stderr == "")
        let byHand = try t.run(["stop", "--at", "yesterday 19:00"], now: "2026-11-26 08:00")
        #expect(byHand.lines == ["stopped Docs at Wed 19:00 after 1:00"])

        #expect(try entries(t, at: "2026-11-26 08:00") == json("""
            [
              {"id": 3, "project": "Docs", "description": "", "tags": [], "billable": false,
               "start": "2026-11-25T18:00:00+01:00", "end": "2026-11-25T19:00:00+01:00", "duration_seconds": 3600,
               "running": false, "source": "cli"},
              {"id": 2, "project": "Docs", "description": "", "tags": [], "billable": false,
               "start": "2026-11-24T17:00:00+01:00", "end": "2026-11-24T19:00:00+01:00", "duration_seconds": 7200,
               "running": false, "source": "cli"},
              {"id": 1, "project": "Docs", "description": "", "tags": [], "billable": false,
               "start": "2026-11-23T16:00:00+01:00", "end": "2026-11-23T19:00:00+01:00", "duration_seconds": 10800,
               "running": false, "source": "cli"}
            ]
            """))
    }

    @Test func forgottenTimerWarnsAtFourHoursAndEndsAnOvernightTimerAtEight() throws {
        let t = try Sandbox()
        let recipe = Self.rule("forgotten-timer.yaml")
        #expect(try tick(t, recipe, at: "2026-11-23 08:00").status == 0)
        #expect(try t.run(["start", "-p", "Docs"], now: "2026-11-23 18:00").status == 0)
        let warned = try tick(t, recipe, at: "2026-11-23 22:00")
        #expect(warned.lines == ["fired long-timer at 2026-11-23T22:00:00+01:00"])
        #expect(warned.stderr == notification(
            "Docs has run for 4h 00m"))
        // Asleep from 22:00 to 07:30: the 04:00 edge fires late, the entry ends at 02:00.
        let morning = try tick(t, recipe, at: "2026-11-24 07:30")
        #expect(morning.lines == ["fired overnight at 2026-11-24T04:00:00+01:00: stopped Docs"])
        #expect(morning.stderr == notification(
            "Timer stopped: Docs ran overnight; it ends at 2026-11-24T02:00:00+01:00"))
        #expect(try entries(t, at: "2026-11-24 07:30") == json("""
            [{"id": 1, "project": "Docs", "description": "", "tags": [], "billable": false,
              "start": "2026-11-23T18:00:00+01:00", "end": "2026-11-24T02:00:00+01:00", "duration_seconds": 28800,
              "running": false, "source": "cli"}]
            """))
        #expect(try tick(t, recipe, at: "2026-11-24 08:00").lines == ["nothing due from 2026-11-24T07:30:00+01:00 to 2026-11-24T08:00:00+01:00"])
    }

    @Test func theReminderNotifiesOnFridayAfternoonAndNeverTouchesTheTimer() throws {
        let t = try Sandbox()
        let recipe = Self.rule("reminder.yaml")
        #expect(try tick(t, recipe, at: "2026-11-20 15:00").status == 0)
        let onTime = try tick(t, recipe, at: "2026-11-20 15:31")
        #expect(onTime.status == 0, "\(onTime)")
        #expect(onTime.lines == ["fired timesheet-reminder at 2026-11-20T15:30:00+01:00"])
        #expect(onTime.stderr == notification(
            "Submit your timesheet: This week so far: trackee summary --week"))

        // Woken at 17:00 the next Friday, within max_late 2h: it still comes.
        #expect(try tick(t, recipe, at: "2026-11-27 15:00").status == 0)
        let late = try tick(t, recipe, at: "2026-11-27 17:00")
        #expect(late.lines == ["fired timesheet-reminder at 2026-11-27T15:30:00+01:00"])
        // Woken at 18:00 the Friday after, past max_late: no reminder.
        #expect(try tick(t, recipe, at: "2026-12-04 15:00").status == 0)
        let tooLate = try tick(t, recipe, at: "2026-12-04 18:00")
        #expect(tooLate.lines == ["skipped timesheet-reminder at 2026-12-04T15:30:00+01:00: noticed more than max_late after its time"])
        #expect(tooLate.stderr == "")

        #expect(try entries(t, at: "2026-12-04 18:00") == [])
        #expect(try t.run(["status", "--json"], now: "2026-12-04 18:00").json() == json(#"{"today_seconds": 0, "week_seconds": 0}"#))
    }

    @Test func runScriptPassesTemplatesAsSingleArgumentsAndTheTriggerInTheEnvironment() throws {
        let t = try Sandbox()
        let recipe = Self.rule("run-script.yaml")
        // A stand-in for logger(1) that records its argv, one [argument]
        // each, and the trackee variables it was given.
        let bin = try binDirectory(t)
        try """
            #!/bin/sh
            { for a in "$@"; do printf '[%s]' "$a"; done; echo; env | grep -E '^TRACKEE_(RULE|TRIGGER_)' | sort; } >> "$HOME/logger.out"

            """.write(toFile: bin + "/logger", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin + "/logger")
        let path: [String: String?] = ["PATH": bin + ":/usr/local/bin:/usr/bin:/bin"]
        for (arguments, now) in [(["set", "deep"], "2026-11-23 10:00"), (["set", "meeting"], "2026-11-23 11:00")] {
            let r = try t.run(["focus"] + arguments + ["--rules", recipe], now: now, environment: path)
            #expect(r.status == 0, "\(r)")
            #expect(r.stderr == "")
        }
        #expect(try String(contentsOfFile: t.path("home/logger.out"), encoding: .utf8) == """
            [--tag][trackee][focus deep on at 2026-11-23T10:00:00+01:00 (focus-on-log)]
            TRACKEE_RULE=focus-on-log
            TRACKEE_RULE_NAME=Focus on, to the system log
            TRACKEE_TRIGGER_KIND=focus
            TRACKEE_TRIGGER_MODE=deep
            TRACKEE_TRIGGER_STATE=on
            TRACKEE_TRIGGER_TIME=2026-11-23T10:00:00+01:00
            [--tag][trackee][focus deep off at 2026-11-23T11:00:00+01:00 (focus-off-log)]
            TRACKEE_RULE=focus-off-log
            TRACKEE_RULE_NAME=Focus off, to the system log
            TRACKEE_TRIGGER_KIND=focus
            TRACKEE_TRIGGER_MODE=deep
            TRACKEE_TRIGGER_STATE=off
            TRACKEE_TRIGGER_TIME=2026-11-23T11:00:00+01:00
            [--tag][trackee][focus meeting on at 2026-11-23T11:00:00+01:00 (focus-on-log)]
            TRACKEE_RULE=focus-on-log
            TRACKEE_RULE_NAME=Focus on, to the system log
            TRACKEE_TRIGGER_KIND=focus
            TRACKEE_TRIGGER_MODE=meeting
            TRACKEE_TRIGGER_STATE=on
            TRACKEE_TRIGGER_TIME=2026-11-23T11:00:00+01:00

            """)
        #expect(try entries(t, at: "2026-11-23 12:00") == [])
    }

    @Test func runScriptExportsTheWeekOnFridayEvening() throws {
        let t = try Sandbox()
        let recipe = Self.rule("run-script.yaml")
        let path: [String: String?] = ["PATH": try binDirectory(t) + ":/usr/local/bin:/usr/bin:/bin"]
        try FileManager.default.createDirectory(atPath: t.path("home/.local/share/trackee"), withIntermediateDirectories: true)
        for (from, to) in [("2026-11-20 10:00", "2026-11-20 11:00"), ("2026-11-26 10:00", "2026-11-26 11:30")] {
            #expect(try t.run(["add", "-p", "Docs", "--from", from, "--to", to], now: "2026-11-27 12:00").status == 0)
        }
        #expect(try t.run(["tick", "--rules", recipe], now: "2026-11-27 16:00", environment: path).status == 0)
        let r = try t.run(["tick", "--rules", recipe], now: "2026-11-27 17:01", environment: path)
        #expect(r.status == 0, "\(r)")
        #expect(r.lines == ["fired weekly-export at 2026-11-27T17:00:00+01:00"])
        #expect(r.stderr == "")
        // "7d ago" from 17:01 leaves out last Friday's morning entry.
        #expect(t.listing(t.path("home/.local/share/trackee")) == ["week-2026-W48.csv"])
        #expect(try String(contentsOfFile: t.path("home/.local/share/trackee/week-2026-W48.csv"), encoding: .utf8) ==
            "id,start,end,duration_seconds,project,client,description,tags,billable,rate,source\r\n"
            + "2,2026-11-26T10:00:00+01:00,2026-11-26T11:30:00+01:00,5400,Docs,,,,false,,cli\r\n")
    }

    // MARK: Location

    /// The office recipe played over its sample track as its comment shows:
    /// `places`, then `feed --dry-run` and `simulate --feed`, which leave
    /// the store as it was, then a real feed. The timer runs from 08:57, when the walk went in,
    /// to 12:33, when it went out; the coffee across the street at 10:41
    /// (three minutes) stops nothing.
    @Test func officeArriveLeaveTracksTheMorningOfTheSampleWalkAndIgnoresTheCoffee() throws {
        let t = try Sandbox(now: "2026-11-23 14:00")
        let recipe = Self.rule("office-arrive-leave.yaml")
        let walk = Self.recipes.appendingPathComponent("location/walk-to-office.gpx").path

        let places = try t.run("places", "--rules", recipe)
        #expect(places.status == 0, "\(places)")
        #expect(places.lines == ["office  circle of 150 m around 50.0875, 14.4213  unknown"])
        let store = t.storeFiles()

        // The three minutes across the street are no transition: the
        // leave rule's five-minute dwell never held, so the office was
        // never left, as trackee-rules(5) says and simulate shows.
        let transitions = [
            "2026-11-23T08:57:00+01:00  arrive office, accuracy 4 m",
            "2026-11-23T12:33:00+01:00  leave office, accuracy 4 m",
        ]
        let dryRun = try t.run("feed", "--dry-run", "--rules", recipe, walk)
        #expect(dryRun.status == 0, "\(dryRun)")
        #expect(dryRun.stderr == "")
        #expect(dryRun.lines == [
            transitions[0],
            "2026-11-23T08:57:00+01:00  office-arrive  started Office · At the office · #location",
            transitions[1],
            "2026-11-23T12:33:00+01:00  office-leave  stopped Office · At the office · #location",
            "read 85 lines, 61 fixes used, 0 ignored, 2 transitions, 2 rules fired (dry run)",
        ])

        let simulation = try t.run("simulate", "--rules", recipe, "--feed", walk,
                                   "--from", "2026-11-23 00:00", "--to", "2026-11-24 00:00")
        #expect(simulation.status == 0, "\(simulation)")
        #expect(simulation.stderr == "")
        #expect(simulation.lines == [
            "simulating 2026-11-23T00:00:00+01:00 – 2026-11-24T00:00:00+01:00, 2 rules, 2 events",
            "2026-11-23T08:57:00+01:00  office-arrive  started Office · At the office · #location",
            "2026-11-23T12:33:00+01:00  office-leave  stopped Office · At the office · #location",
            "",
            "timesheet",
            "  2026-11-23T08:57:00+01:00 – 2026-11-23T12:33:00+01:00    3:36  Office · At the office · #location",
            "  total Office: 3:36",
            "  total: 3:36",
        ])
        #expect(t.storeFiles() == store)

        let feed = try t.run("feed", "--rules", recipe, walk)
        #expect(feed.status == 0, "\(feed)")
        #expect(feed.stderr == "")
        #expect(feed.lines == [
            transitions[0],
            #"fired office-arrive at 2026-11-23T08:57:00+01:00: started Office (created project "Office")"#,
            transitions[1],
            "fired office-leave at 2026-11-23T12:33:00+01:00: stopped Office",
            "read 85 lines, 61 fixes used, 0 ignored, 2 transitions, 2 rules fired",
        ])
        #expect(try entries(t, at: "2026-11-23 14:00") == json("""
            [{"id": 1, "project": "Office", "description": "At the office", "tags": ["location"], "billable": false,
              "start": "2026-11-23T08:57:00+01:00", "end": "2026-11-23T12:33:00+01:00", "duration_seconds": 12960,
              "running": false, "source": "rule:office-arrive"}]
            """))
        #expect(try t.run("places", "--rules", recipe).lines == [
            "office  circle of 150 m around 50.0875, 14.4213  outside since 2026-11-23T12:33:00+01:00",
        ])
    }

    // MARK: The systemd unit

    static let systemdAnalyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The service, and the invoice report's service with its timer.
    @Test(.enabled(if: systemdAnalyze != nil, "systemd-analyze is not installed, so the unit cannot be verified"),
          arguments: [["trackee.service"], ["trackee-invoice.service", "trackee-invoice.timer"]])
    func theUnitsPassSystemdAnalyzeVerify(_ units: [String]) throws {
        let t = try Sandbox()
        // verify checks that %h/.local/bin/trackee (and trackee-invoice)
        // exist, where `make install PREFIX=~/.local` and the recipe's
        // comment put them, and that the Documentation= pages open with
        // man(1): both are set up in the sandbox.
        let bin = t.path("home/.local/bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/trackee", withDestinationPath: TrackeeBinary.path())
        try FileManager.default.createSymbolicLink(
            atPath: bin + "/trackee-invoice", withDestinationPath: Self.recipes.appendingPathComponent("shell/monthly-invoice.sh").path)
        for (section, page) in [("man1", "trackee.1"), ("man5", "trackee-rules.5")] {
            try FileManager.default.createDirectory(atPath: t.path("man/" + section), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: Self.root.appendingPathComponent("man/" + page).path, toPath: t.path("man/\(section)/\(page)"))
        }
        let runtime = t.path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        let hasMan = FileManager.default.isExecutableFile(atPath: "/usr/bin/man")
        if !hasMan { print("man(1) is not installed; Documentation= is not checked") }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.systemdAnalyze!)
        process.arguments = ["verify", "--user"] + (hasMan ? [] : ["--man=no"])
            + units.map { Self.recipes.appendingPathComponent("systemd/" + $0).path }
        process.environment = [
            "HOME": t.path("home"), "XDG_RUNTIME_DIR": runtime, "MANPATH": t.path("man"),
            "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let report = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(report == "")
        #expect(process.terminationStatus == 0)
    }

    @Test func meetingsStartTwoMinutesEarlyFromTheCalendarAndStopWhenTheyEnd() throws {
        let t = try Self.sandbox()
        let recipe = Self.rule("meetings.yaml")
        let list = try t.run(["calendar", "list", "work", "--rules", recipe, "--from", "2026-11-23 00:00", "--to", "2026-11-24 00:00"])
        #expect(list.lines == [
            "2026-11-23T09:30:00+01:00  2026-11-23T09:45:00+01:00  Standup  uid standup@example.com  recurrence 2026-11-23T09:30:00+01:00",
            "2026-11-23T14:00:00+01:00  2026-11-23T16:00:00+01:00  Client workshop  uid acme-workshop@example.com",
        ])
        for now in ["2026-11-23 08:00", "2026-11-23 09:28", "2026-11-23 09:45", "2026-11-23 13:58", "2026-11-23 16:00"] {
            #expect(try tick(t, recipe, at: now).status == 0)
        }
        let all = try entries(t, at: "2026-11-23 17:00").elements
        #expect(all.map { $0["start"].string } == ["2026-11-23T13:58:00+01:00", "2026-11-23T09:28:00+01:00"])
        #expect(all.map { $0["end"].string } == ["2026-11-23T16:00:00+01:00", "2026-11-23T09:45:00+01:00"])
        #expect(all.map { $0["description"].string } == ["Client workshop", "Standup"])
        #expect(all.map { $0["project"].string } == ["Meetings", "Meetings"])
    }

    @Test func theRuleFilesInTheManualAreTheRecipesWithoutComments() throws {
        let manual = try String(contentsOf: Self.root.appendingPathComponent("man/trackee-rules.5"), encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
        for name in ["office-hours.yaml", "focus-tracking.yaml"] {
            let recipe = try String(contentsOfFile: Self.rule(name), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
                .joined(separator: "\n")
            #expect(manual.contains(".EX\n" + recipe.trimmingCharacters(in: .newlines) + "\n.EE\n"), "\(name)")
        }
    }

    /// The invoice recipe's script, as its timer runs it and by hand: a
    /// detailed report of the client's billable time, rounded to 6 minutes,
    /// handed to trackee-report (a stand-in here that keeps what it got)
    /// for a PDF named after the month, in a directory it makes.
    @Test func theMonthlyInvoiceScriptReportsTheMonthBeforeAsAPDF() throws {
        let t = try Self.sandbox(now: "2026-11-01 06:00")
        #expect(try t.run("add", "-p", "Docs", "-c", "Acme", "--from", "2026-10-30 09:00", "--to", "2026-10-30 10:01").status == 0)
        #expect(try t.run("add", "-p", "Web", "-c", "Acme", "--from", "2026-10-31 09:00", "--to", "2026-10-31 10:00").status == 0)
        #expect(try t.run("add", "-p", "Docs", "-c", "Acme", "--from", "2026-11-01 05:00", "--to", "2026-11-01 06:00").status == 0)
        #expect(try t.run("projects", "edit", "Docs", "-c", "Acme", "--billable", "--rate", "80").status == 0)
        let tool = try t.write("#!/bin/sh\necho \"$@\" > \"$(dirname \"$0\")/args\"\ncat > \"$(dirname \"$0\")/stdin\"\n",
                               to: "tool/trackee-report")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool)
        let (status, output) = try runRecipe(t, "shell/monthly-invoice.sh", ["Acme", t.path("home/invoices"), "2026-10-15"],
                                             environment: ["TRACKEE_REPORT": tool])
        #expect(status == 0, "\(output)")
        #expect(try String(contentsOfFile: t.path("tool/args"), encoding: .utf8)
            == "--format pdf -o \(t.path("home/invoices/acme-2026-10.pdf"))\n")
        let report = try JSONDecoder().decode(JSONValue.self, from: try t.bytes(t.path("tool/stdin")))
        #expect(report["kind"] == "detailed" && report["title"] == "2026-10" && report["rounding_minutes"] == 6)
        #expect(report["filters"] == ["client Acme", "billable only"])
        // Docs's 1:01 rounded up to 1:06; Web is not billable.
        #expect(report["entries"].elements.map { $0["rounded_seconds"] } == [3960])
        #expect(report["total"]["amount_cents"] == 8800)
        #expect(FileManager.default.fileExists(atPath: t.path("home/invoices")))
        // Without a client it says how it is used.
        let (usage, said) = try runRecipe(t, "shell/monthly-invoice.sh", [])
        #expect(usage != 0 && said.contains("usage: monthly-invoice.sh CLIENT [DIRECTORY [DAY]]"))
    }

    @Test func everyRecipeFileIsCoveredByATest() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.recipes.path)
            .filter { [".sh", ".yaml", ".service", ".gpx", ".nmea"].contains(where: $0.hasSuffix) }
            .sorted()
        // trackee-gps.sh, trackee-gps.service and walk-to-office.nmea are
        // run against real gpsd in FeedPipelineTests; the HTTP recipes in
        // HTTPRecipeTests and ServedRecipeTests.
        #expect(files == [
            "http/home-assistant.yaml",
            "http/waybar/trackee-waybar.sh",
            "location/walk-to-office.gpx",
            "location/walk-to-office.nmea",
            "rules/desk.yaml",
            "rules/end-of-day.yaml",
            "rules/focus-tracking.yaml",
            "rules/forgotten-timer.yaml",
            "rules/lunch-break.yaml",
            "rules/meetings.yaml",
            "rules/office-arrive-leave.yaml",
            "rules/office-hours.yaml",
            "rules/reminder.yaml",
            "rules/run-script.yaml",
            "rules/timeflip.yaml",
            "shell/cron-workday.sh",
            "shell/monthly-invoice.sh",
            "shell/swayidle-events.sh",
            "shell/trackee-gps.sh",
            "systemd/trackee-gps.service",
            "systemd/trackee-invoice.service",
            "systemd/trackee.service",
        ])
    }
}
