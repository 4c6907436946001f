import Foundation
import Testing
import TrackeeTestSupport

/// The one-shot automation commands against the built binary: rules
/// check and next, tick, focus and simulate.
@Suite struct AutomationCommandTests {
    static let rules = """
        rules:
          - id: office-hours
            name: Office hours
            when:
              - at: "Mon..Fri 09:00"
            do:
              - start: {project: Office, client: Acme}
          - id: evening
            when: {at: "Mon..Fri 17:30"}
            if: {timer: running}
            do:
              - stop:
              - notify: {title: Stopped, body: "{{trigger.time}}"}
          - id: deep
            when: {focus: deep}
            do:
              - start: {project: Deep work}
          - id: deep-off
            when: {focus: deep, state: off}
            do:
              - stop:
        """

    /// A sandbox on Friday 2026-11-20 at noon, Prague time, with the rules
    /// above in rules.yaml.
    func sandbox(now: String = "2026-11-20 12:00") throws -> Sandbox {
        let t = try Sandbox(now: now)
        try FileManager.default.createDirectory(atPath: t.path("config/trackee"), withIntermediateDirectories: true)
        try Self.rules.write(toFile: t.path("config/trackee/rules.yaml"), atomically: true, encoding: .utf8)
        return t
    }

    @Test func rulesCheckListsEachRuleWithItsNextFirings() throws {
        let t = try sandbox()
        let r = try t.run("rules", "check")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.lines == [
            #"rule "office-hours" (Office hours)"#,
            "  at Mon..Fri 09:00: 2026-11-23T09:00:00+01:00, 2026-11-24T09:00:00+01:00, 2026-11-25T09:00:00+01:00",
            #"rule "evening""#,
            "  at Mon..Fri 17:30: 2026-11-20T17:30:00+01:00, 2026-11-23T17:30:00+01:00, 2026-11-24T17:30:00+01:00",
            #"rule "deep""#,
            "  focus deep on",
            #"rule "deep-off""#,
            "  focus deep off",
            "4 rules, no errors",
        ])
    }

    @Test func rulesCheckPrintsEveryPositionedErrorAndExits78() throws {
        let t = try sandbox()
        try """
            rules:
              - id: lunch
                when: {at: "Mon..Fry 12:00"}
                do: [{stop: }]
              - id: typo
                when: {focus: w}
                do:
                  - start: {projet: A}
            """.write(toFile: t.path("bad.yaml"), atomically: true, encoding: .utf8)
        let r = try t.run("rules", "check", "bad.yaml")
        #expect(r.status == 78)
        #expect(r.stdout == "")
        #expect(r.stderr == """
            trackee: bad.yaml:3:16: rule "lunch": when.at: invalid calendar expression "Mon..Fry 12:00": unknown weekday "Fry"
            trackee: bad.yaml:8:17: rule "typo": do[0].start.projet: unknown key "projet"; did you mean "project"?
            trackee: no rules, 2 errors

            """)
        let missing = try t.run("rules", "check", "nowhere.yaml")
        #expect(missing.status == 78)
        #expect(missing.stderr == "trackee: nowhere.yaml: no such rule file\ntrackee: no rules, 1 error\n")
    }

    @Test func rulesNextMergesAllRulesInTimeOrder() throws {
        let t = try sandbox()
        let r = try t.run("rules", "next", "--count", "3")
        #expect(r.lines == [
            "2026-11-20T17:30:00+01:00  evening  Mon..Fri 17:30",
            "2026-11-23T09:00:00+01:00  office-hours  Mon..Fri 09:00",
            "2026-11-23T17:30:00+01:00  evening  Mon..Fri 17:30",
        ])
        let json = try t.run("rules", "next", "--count", "1", "--from", "2026-11-23 10:00", "--json").json()
        #expect(json == .array([.object([
            "time": .string("2026-11-23T17:30:00+01:00"), "rule": .string("evening"), "expression": .string("Mon..Fri 17:30"),
        ])]))
    }

    @Test func tickFiresWhatFellDueOnceAndAtItsOwnTime() throws {
        let t = try sandbox()
        #expect(try t.run("tick", now: "2026-11-23 08:58").lines
            == ["first tick: watermark set to 2026-11-23T08:58:00+01:00; nothing before it fires"])
        // Noticed at 09:00:40, within the minute: on time.
        #expect(try t.run("tick", now: "2026-11-23 09:00:40").lines
            == [#"fired office-hours at 2026-11-23T09:00:00+01:00: started Office (created client "Acme", project "Office")"#])
        #expect(try t.run("tick", now: "2026-11-23 09:05").lines
            == ["nothing due from 2026-11-23T09:00:40+01:00 to 2026-11-23T09:05:00+01:00"])
        // The evening stop, noticed four minutes late: it catches up once,
        // and the entry ends at 17:30, not 17:34.
        let evening = try t.run("tick", now: "2026-11-23 17:34")
        #expect(evening.lines == ["fired evening at 2026-11-23T17:30:00+01:00: stopped Office"])
        #expect(evening.stderr.contains("notify (no session bus): Stopped: 2026-11-23T17:30:00+01:00"))
        let log = try t.run("log", "--json", now: "2026-11-23 18:00").json()
        let entries = log["days"][0]["entries"]
        #expect(entries.elements.count == 1)
        #expect(entries[0]["start"] == .string("2026-11-23T09:00:00+01:00"))
        #expect(entries[0]["end"] == .string("2026-11-23T17:30:00+01:00"))
        #expect(entries[0]["source"] == .string("rule:office-hours"))
    }

    /// A `--now` before the watermark would look at a window that runs
    /// backwards: it is refused with what to do instead, and the watermark
    /// stays. A clock set back without `--now` fires nothing and says so.
    @Test func tickNowBeforeTheLastTickIsRefusedAndPointsAtSimulate() throws {
        let t = try sandbox()
        #expect(try t.run("tick", now: "2026-11-23 10:00").status == 0)
        let r = try t.run("tick", "--now", "2026-11-23 08:00", now: "2026-11-23 10:05")
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == failure(
            "--now 2026-11-23T08:00:00+01:00 is before the last tick at 2026-11-23T10:00:00+01:00; tick only moves forward; "
                + "to replay a past window run `trackee simulate --from TIME --to TIME`"))
        #expect(try t.run("tick", now: "2026-11-23 09:30").lines
            == ["the clock (2026-11-23T09:30:00+01:00) is before the last tick at 2026-11-23T10:00:00+01:00; nothing fired"])
        #expect(try t.run("tick", now: "2026-11-23 10:30").lines
            == ["nothing due from 2026-11-23T10:00:00+01:00 to 2026-11-23T10:30:00+01:00"])
    }

    /// A rule that starts a project the store does not have, under the
    /// default setting: `rules check` warns; at firing the start is
    /// refused and logged, nothing changes, and the firing is recorded.
    @Test func aRuleNamingAMissingProjectIsWarnedAboutAndRefusedAtFiring() throws {
        let t = try Sandbox(now: "2026-11-20 12:00", createProjects: nil)
        try t.write("""
            rules:
              - id: office
                when: {at: "Mon..Fri 09:00"}
                do: [{stop: {}}, {start: {project: Ofice}}]
            """, to: "config/trackee/rules.yaml")
        #expect(try t.run("projects", "add", "Office").status == 0)
        #expect(try t.run("start", "-p", "Office", now: "2026-11-23 08:00").status == 0)
        let check = try t.run("rules", "check")
        #expect(check.status == 0)
        #expect(check.stderr == failure(
            "\(t.path("config/trackee/rules.yaml")):4:40: "
                + #"rule "office": do[1].start.project: no project "Ofice"; did you mean "Office"?; when the rule fires, its start "#
                + #"is refused (create_projects: ask); create the project with `trackee projects add "Ofice"`, or set create_projects: always"#))
        #expect(try t.run("tick", now: "2026-11-23 08:58").status == 0)
        let fired = try t.run("tick", now: "2026-11-23 09:00:30")
        #expect(fired.status == 0)
        #expect(fired.lines == [#"refused office at 2026-11-23T09:00:00+01:00: no project "Ofice"; did you mean "Office"?"#])
        #expect(fired.stderr.contains(#"refused: no project "Ofice"; did you mean "Office"?; create the project with `trackee projects add` or set create_projects: always"#))
        // The stop before the start was not applied either: Office still runs.
        let status = try t.run("status", "--json", now: "2026-11-23 09:01").json()
        #expect(status["running"]["project"] == "Office")
        #expect(status["running"]["start"] == "2026-11-23T08:00:00+01:00")
        let history = try t.run("history", "--json", now: "2026-11-23 09:01").json()
        #expect(history["intents"].elements.count == 1)
        // Each occurrence is refused once (the store tests show the ledger
        // row); the next day's is refused in its turn, in JSON as "refused".
        let json = try t.run("tick", "--json", now: "2026-11-24 09:00:30").json()
        #expect(json["fired"][0]["status"] == "refused")
        #expect(json["fired"][0]["time"] == "2026-11-24T09:00:00+01:00")
    }

    @Test func aTickAfterLongDowntimeFiresNothingPastMaxLate() throws {
        let t = try sandbox()
        _ = try t.run("tick", now: "2026-11-23 08:00")
        // Opened again at 11:00: 09:00 is two hours late (max_late 10m).
        #expect(try t.run("tick", now: "2026-11-23 11:00").lines
            == ["skipped office-hours at 2026-11-23T09:00:00+01:00: noticed more than max_late after its time"])
        #expect(try t.run("status", "--json", now: "2026-11-23 11:00").json()["running"] == .absent)
    }

    @Test func tickAsJSON() throws {
        let t = try sandbox()
        _ = try t.run("tick", now: "2026-11-23 08:58")
        let json = try t.run("tick", "--json", now: "2026-11-23 09:00:10").json()
        #expect(json == .object([
            "from": .string("2026-11-23T08:58:00+01:00"), "to": .string("2026-11-23T09:00:10+01:00"),
            "fired": .array([.object([
                "rule": .string("office-hours"), "key": .string("office-hours@at:1795420800"),
                "time": .string("2026-11-23T09:00:00+01:00"), "status": .string("fired"),
                "outcomes": .array([.string("started")]),
            ])]),
            "skipped": .array([]),
            "not_fired": .array([]),
        ]))
    }

    @Test func focusSetFiresItsRulesOnceAndClearFiresTheOffRules() throws {
        let t = try sandbox()
        #expect(try t.run("focus").lines == ["no focus mode on"])
        #expect(try t.run("focus", "set", "deep", now: "2026-11-20 10:00").lines
            == ["focus deep on", #"fired deep at 2026-11-20T10:00:00+01:00: started Deep work (created project "Deep work")"#])
        #expect(try t.run("focus", "set", "DEEP", now: "2026-11-20 10:30").lines == ["unchanged: focus DEEP is already on"])
        #expect(try t.run("focus", "show", now: "2026-11-20 10:45").lines == ["focus deep since 10:00"])
        #expect(try t.run("focus", "clear", now: "2026-11-20 11:00").lines
            == ["focus deep off", "fired deep-off at 2026-11-20T11:00:00+01:00: stopped Deep work"])
        #expect(try t.run("focus", "clear", now: "2026-11-20 11:05").lines == ["unchanged: no focus mode was on"])
        let focus = try t.run("focus", "--json", now: "2026-11-20 11:10").json()
        #expect(focus == .object(["sequence": .number(2), "changed": .string("2026-11-20T11:00:00+01:00")]))
    }

    @Test func focusSetRefusesRulesWithErrors() throws {
        let t = try sandbox()
        try "rules:\n  - id: x\n    when: {focus: a, state: maybe}\n    do: [{stop: }]\n"
            .write(toFile: t.path("config/trackee/rules.d.yaml"), atomically: true, encoding: .utf8)
        let r = try t.run("focus", "set", "a", "--rules", t.path("config/trackee/rules.d.yaml"))
        #expect(r.status == 78)
        #expect(r.stderr.hasPrefix("trackee: \(t.path("config/trackee/rules.d.yaml")):3:29: rule \"x\": when.state:"))
        #expect(try t.run("focus").lines == ["no focus mode on"])
    }

    /// A focus mode named with shell syntax reaches a run action as one
    /// literal argument, and nothing else runs.
    @Test func triggerTextNeverReachesAShell() throws {
        let t = try sandbox()
        let record = t.path("record.sh")
        try """
            #!/bin/sh
            for a in "$@"; do printf '[%s]\\n' "$a"; done > "\(t.path("argv"))"
            printf '%s\\n' "$TRACKEE_TRIGGER_MODE" >> "\(t.path("argv"))"
            """.write(toFile: record, atomically: true, encoding: .utf8)
        chmod(record, 0o755)
        try """
            rules:
              - id: any-focus
                when: {focus: "$(touch \(t.path("pwned"))); rm -rf \(t.path("home"))"}
                do:
                  - run: ["\(record)", "mode={{trigger.mode}}", "{{trigger.rule}}"]
            """.write(toFile: t.path("hostile.yaml"), atomically: true, encoding: .utf8)
        let mode = "$(touch \(t.path("pwned"))); rm -rf \(t.path("home"))"
        let r = try t.run("focus", "set", mode, "--rules", t.path("hostile.yaml"))
        #expect(r.status == 0)
        #expect(try String(contentsOfFile: t.path("argv"), encoding: .utf8) == "[mode=\(mode)]\n[any-focus]\n\(mode)\n")
        #expect(!FileManager.default.fileExists(atPath: t.path("pwned")))
        #expect(FileManager.default.fileExists(atPath: t.path("home")))
    }

    @Test func simulatePlaysADayWithoutTouchingTheStore() throws {
        let t = try sandbox()
        try """
            {"time":"2026-11-23 10:00","type":"focus","mode":"deep"}
            {"time":"2026-11-23 11:30","type":"focus","mode":"deep","state":"off"}
            """.write(toFile: t.path("day.jsonl"), atomically: true, encoding: .utf8)
        let r = try t.run("simulate", "--from", "2026-11-23 00:00", "--to", "2026-11-24 00:00", "--events", "day.jsonl")
        #expect(r.status == 0)
        #expect(r.lines == [
            "simulating 2026-11-23T00:00:00+01:00 – 2026-11-24T00:00:00+01:00, 4 rules, 4 events",
            "2026-11-23T09:00:00+01:00  office-hours  started Office (Acme)",
            "2026-11-23T10:00:00+01:00  deep  switched Deep work",
            "2026-11-23T11:30:00+01:00  deep-off  stopped Deep work",
            "",
            "timesheet",
            "  2026-11-23T09:00:00+01:00 – 2026-11-23T10:00:00+01:00    1:00  Office (Acme)",
            "  2026-11-23T10:00:00+01:00 – 2026-11-23T11:30:00+01:00    1:30  Deep work",
            "  total Deep work: 1:30",
            "  total Office (Acme): 1:00",
            "  total: 2:30",
        ])
        #expect(t.listing(t.path("store")) == [])
    }

    /// office-hours.yaml simulated on Monday 2026-11-23 with the project
    /// "Office" there.
    static let officeMonday = [
        "simulating 2026-11-23T00:00:00+01:00 – 2026-11-23T23:59:00+01:00, 2 rules, 2 events",
        "2026-11-23T09:00:00+01:00  office-hours-start  started Office · Desk day · #auto",
        "2026-11-23T17:30:00+01:00  office-hours-stop  stopped Office · Desk day · #auto",
        "",
        "timesheet",
        "  2026-11-23T09:00:00+01:00 – 2026-11-23T17:30:00+01:00    8:30  Office · Desk day · #auto",
        "  total Office: 8:30",
        "  total: 8:30",
    ]

    /// README's first automation walk-through, its commands read from
    /// README and run in order in one sandbox with the default settings,
    /// as a newcomer runs them: the project `projects add` made is in the
    /// throwaway store, so Monday starts and stops it, and the real store
    /// is only read.
    @Test func readmesWalkThroughSimulatesMondayWithTheProjectItAdded() throws {
        let readme = try String(contentsOf: RecipeTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let examples = DocExample.markdown(readme, document: "README.md")
        // The walk-through's own install, the one its mkdir follows (the
        // Set up section shows the same command beside make deb).
        let first = try #require(examples.indices.first {
            examples[$0].command == "make install PREFIX=$HOME/.local" && $0 + 1 < examples.count
                && examples[$0 + 1].command.hasPrefix("mkdir -p ~/.config/trackee/rules.d")
        })
        let walk = examples[first...].prefix { $0.command.hasPrefix("systemctl") == false }.map(\.command)
        #expect(walk == [
            "make install PREFIX=$HOME/.local",
            "mkdir -p ~/.config/trackee/rules.d ~/.config/systemd/user",
            "cp recipes/rules/office-hours.yaml ~/.config/trackee/rules.d/",
            "trackee projects add Office",
            "trackee rules check",
            #"trackee simulate --from monday --to "monday 23:59""#,
            "cp recipes/systemd/trackee.service ~/.config/systemd/user/",
        ])
        // Friday noon; no settings file: create_projects is ask.
        let t = try Sandbox(now: "2026-11-20 12:00", createProjects: nil)
        // The mkdir and cp, where this sandbox keeps ~/.config.
        try t.write(String(contentsOfFile: RecipeTests.rule("office-hours.yaml"), encoding: .utf8),
                    to: "config/trackee/rules.d/office-hours.yaml")
        var outputs: [[String]] = []
        var files: Sandbox.StoreFiles?
        for command in walk where command.hasPrefix("trackee ") {
            if command.hasPrefix("trackee simulate") { files = t.storeFiles() }
            let r = try t.run(Array(DocExample.arguments(command, home: t.path("home")).dropFirst()))
            #expect(r.status == 0, "\(r)")
            #expect(r.stderr == "", "\(r)")
            outputs.append(r.lines)
        }
        #expect(outputs == [
            [#"added project "Office""#],
            [
                #"rule "office-hours-start" (Office hours start)"#,
                "  at Mon..Fri 09:00: 2026-11-23T09:00:00+01:00, 2026-11-24T09:00:00+01:00, 2026-11-25T09:00:00+01:00",
                #"rule "office-hours-stop" (Office hours stop)"#,
                "  at Mon..Fri 17:30: 2026-11-20T17:30:00+01:00, 2026-11-23T17:30:00+01:00, 2026-11-24T17:30:00+01:00",
                "2 rules, no errors",
            ],
            Self.officeMonday,
        ])
        // Only read: the store's files are as they were.
        #expect(t.storeFiles() == files)
    }

    /// Without the project, `create_projects` decides in `simulate` as in
    /// `run`: `ask` and `never` refuse the start (one `trackee:` line on
    /// stderr, without the logger's metadata), `always` creates it in the
    /// throwaway store. No store is made where there was none.
    @Test func simulateAppliesCreateProjectsAsRunDoes() throws {
        let refusal = """
            trackee: error: rule "office-hours-start" (Office hours start): schedule Mon..Fri 09:00 at \
            2026-11-23T09:00:00+01:00: refused: no project "Office"; create the project with `trackee projects add` \
            or set create_projects: always

            """
        for (setting, started) in [("ask", false), ("never", false), ("always", true)] {
            let t = try Sandbox(now: "2026-11-20 12:00", createProjects: setting)
            let r = try t.run("simulate", "--rules", RecipeTests.rule("office-hours.yaml"), "--from", "monday",
                              "--to", "monday 23:59")
            #expect(r.status == 0, "\(r)")
            #expect(r.stderr == (started ? "" : refusal), "\(setting)")
            #expect(r.lines == (started ? Self.officeMonday : [
                Self.officeMonday[0],
                #"2026-11-23T09:00:00+01:00  office-hours-start  refused office-hours-start at 2026-11-23T09:00:00+01:00: no project "Office""#,
                "",
                "timesheet",
                "  no entries",
                "  total: 0:00",
            ]), "\(setting)")
            #expect(t.listing(t.path("store")) == [])
        }
    }

    @Test func simulateNeedsATimeOnEveryEvent() throws {
        let t = try sandbox()
        try #"{"type":"focus","mode":"deep"}"#.write(toFile: t.path("day.jsonl"), atomically: true, encoding: .utf8)
        let r = try t.run("simulate", "--from", "2026-11-23 00:00", "--to", "2026-11-24 00:00", "--events", "day.jsonl")
        #expect(r.status == 64)
        #expect(r.stderr == "trackee: day.jsonl: line 1: \"time\" is required in a simulation\n")
    }
}
