import Foundation
import Testing
import TrackeeTestSupport

extension CalendarCommandTests {
    /// khal, a calendar program people really keep their vdir calendars
    /// with, as the peer: events made with `khal new` are listed by khal
    /// and by trackee with the same times, and fire trackee's rules.
    /// `scripts/install-deps.sh` (run by `make test`) installs khal; khal
    /// runs with HOME and the XDG folders inside the test's sandbox.
    @Suite struct Khal {
        /// The khal program, and why it cannot be used here if it cannot.
        enum Program {
            static let path: String? = ["/usr/bin/khal", "/usr/local/bin/khal", "/bin/khal"]
                .first { FileManager.default.isExecutableFile(atPath: $0) }

            /// Nil when `khal --version` runs; else a sentence saying why the
            /// test is skipped.
            static let problem: String? = {
                guard let path else {
                    return "khal is not installed (scripts/install-deps.sh installs the Debian package khal)"
                }
                let home = FileManager.default.temporaryDirectory.appendingPathComponent("trackee-khal-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: home) }
                do {
                    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
                    let run = try Program.run(path, ["--version"], environment: [
                        "HOME": home.path, "XDG_CONFIG_HOME": home.path, "XDG_DATA_HOME": home.path,
                        "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "Europe/Prague",
                    ], in: home)
                    return run.status == 0 ? nil : "\(path) --version exited with status \(run.status): \(run.stderr)"
                } catch {
                    return "\(path) cannot be started: \(error)"
                }
            }()

            static func run(_ executable: String, _ arguments: [String], environment: [String: String], in directory: URL)
                throws -> (status: Int32, stdout: String, stderr: String)
            {
                try runProgram(executable, arguments, environment: environment, in: directory)
            }
        }

        /// Runs khal in the sandbox (its HOME, XDG folders and TZ) and
        /// expects it to succeed; returns its standard output.
        func khal(_ t: Sandbox, _ arguments: String...) throws -> String {
            let run = try Program.run(try #require(Program.path), arguments, environment: t.environment, in: t.root)
            #expect(run.status == 0, "khal \(arguments.joined(separator: " ")) → \(run.status): \(run.stderr)")
            return run.stdout
        }

        // Skipped, with the reason, only where khal cannot run at all.
        @Test(.enabled(if: Program.problem == nil, Comment(rawValue: Program.problem ?? "khal runs")))
        func eventsMadeWithKhalListWithTheSameTimesAndFireTrackeeRules() throws {
            let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-23 08:00")
            let vdir = t.path("calendars/work")
            try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
            try t.write("""
                [calendars]
                [[work]]
                path = \(vdir)
                type = calendar

                [locale]
                timeformat = %H:%M
                dateformat = %Y-%m-%d
                longdateformat = %Y-%m-%d
                datetimeformat = %Y-%m-%d %H:%M
                longdatetimeformat = %Y-%m-%d %H:%M
                local_timezone = Europe/Prague
                default_timezone = Europe/Prague

                """, to: "config/khal/config")

            _ = try khal(t, "new", "-a", "work", "-g", "Meetings", "2026-11-23", "09:30", "10:00", "Standup", "::", "daily standup")
            _ = try khal(t, "new", "-a", "work", "-g", "Meetings,Design", "--repeat", "weekly",
                         "2026-11-24", "14:00", "15:00", "Weekly sync")
            _ = try khal(t, "new", "-a", "work", "2026-11-25", "Conference day")

            // khal's own view of the window, which also tells the UIDs it chose.
            let listed = try khal(t, "list", "--day-format", "", "--format", "{start-long}|{end-long}|{title}|{uid}|{categories}",
                                  "2026-11-23", "2026-12-02")
                .split(separator: "\n").map(String.init).filter { !$0.isEmpty }
            var uids: [String: String] = [:]
            for line in listed {
                let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                if fields.count == 5 { uids[fields[2]] = fields[3] }
            }
            let standup = try #require(uids["Standup"])
            let sync = try #require(uids["Weekly sync"])
            let conference = try #require(uids["Conference day"])
            #expect(listed == [
                "2026-11-23 09:30|2026-11-23 10:00|Standup|\(standup)|Meetings",
                "2026-11-24 14:00|2026-11-24 15:00|Weekly sync|\(sync)|Meetings,Design",
                "2026-11-25|2026-11-25|Conference day|\(conference)|",
                "2026-12-01 14:00|2026-12-01 15:00|Weekly sync|\(sync)|Meetings,Design",
            ])
            // A vdir: one file per event, named for its UID.
            #expect(t.listing(vdir) == [standup, sync, conference].map { $0 + ".ics" }.sorted())

            let window = ["--from", "2026-11-23 00:00", "--to", "2026-12-02 00:00"]
            let text = try t.run(["calendar", "list", vdir] + window)
            #expect(text.status == 0, "\(text)")
            #expect(text.stderr == "")
            #expect(text.lines == [
                "2026-11-23T09:30:00+01:00  2026-11-23T10:00:00+01:00  Standup  uid \(standup)",
                "2026-11-24T14:00:00+01:00  2026-11-24T15:00:00+01:00  Weekly sync  uid \(sync)  recurrence 2026-11-24T14:00:00+01:00",
                "2026-11-25T00:00:00+01:00  2026-11-26T00:00:00+01:00  Conference day (all day)  uid \(conference)",
                "2026-12-01T14:00:00+01:00  2026-12-01T15:00:00+01:00  Weekly sync  uid \(sync)  recurrence 2026-12-01T14:00:00+01:00",
            ])

            try t.write("""
                calendars:
                  khal: \(vdir)
                rules:
                  - id: meetings
                    when: {calendar: khal, offset: -2m, match: {categories: meetings}}
                    do: [{start: {project: "{{trigger.category}}", description: "{{trigger.summary}}"}}]
                  - id: meetings-end
                    when: {calendar: khal, event: end, match: {categories: meetings}}
                    do: [{stop: {}}]
                  - id: conference
                    when: {calendar: khal, all_day: include, match: {summary: conference}}
                    do: [{start: {project: Conference}}]
                  - id: conference-end
                    when: {calendar: khal, event: end, all_day: include, match: {summary: conference}}
                    do: [{stop: {}}]
                """, to: "rules.yaml")
            let rules = t.path("rules.yaml")
            let json = try t.run(["calendar", "list", "khal", "--rules", rules, "--json"] + window)
            #expect(json.status == 0, "\(json)")
            #expect(try json.json() == .array([
                CalendarCommandTests.occurrence("2026-11-23T09:30:00+01:00", "2026-11-23T10:00:00+01:00", "Standup",
                                                uid: standup, calendar: "khal"),
                CalendarCommandTests.occurrence("2026-11-24T14:00:00+01:00", "2026-11-24T15:00:00+01:00", "Weekly sync",
                                                uid: sync, recurrence: "2026-11-24T14:00:00+01:00", calendar: "khal"),
                CalendarCommandTests.occurrence("2026-11-25T00:00:00+01:00", "2026-11-26T00:00:00+01:00", "Conference day",
                                                uid: conference, allDay: true, calendar: "khal"),
                CalendarCommandTests.occurrence("2026-12-01T14:00:00+01:00", "2026-12-01T15:00:00+01:00", "Weekly sync",
                                                uid: sync, recurrence: "2026-12-01T14:00:00+01:00", calendar: "khal"),
            ]))

            let next = try t.run("rules", "next", "--rules", rules, "--count", "3")
            #expect(next.lines == [
                "2026-11-23T09:28:00+01:00  meetings  calendar khal: Standup (start)",
                "2026-11-23T10:00:00+01:00  meetings-end  calendar khal: Standup (end)",
                "2026-11-24T13:58:00+01:00  meetings  calendar khal: Weekly sync (start)",
            ])

            let steps: [(now: String, output: [String])] = [
                ("2026-11-23 08:00", ["first tick: watermark set to 2026-11-23T08:00:00+01:00; nothing before it fires"]),
                ("2026-11-23 09:28", [#"fired meetings at 2026-11-23T09:28:00+01:00: started Meetings (created project "Meetings")"#]),
                ("2026-11-23 10:00", ["fired meetings-end at 2026-11-23T10:00:00+01:00: stopped Meetings"]),
                ("2026-11-24 13:58", ["fired meetings at 2026-11-24T13:58:00+01:00: started Meetings"]),
                ("2026-11-24 15:00", ["fired meetings-end at 2026-11-24T15:00:00+01:00: stopped Meetings"]),
                ("2026-11-25 00:00", [#"fired conference at 2026-11-25T00:00:00+01:00: started Conference (created project "Conference")"#]),
                ("2026-11-26 00:00", ["fired conference-end at 2026-11-26T00:00:00+01:00: stopped Conference"]),
                ("2026-12-01 13:58", ["fired meetings at 2026-12-01T13:58:00+01:00: started Meetings"]),
                ("2026-12-01 15:00", ["fired meetings-end at 2026-12-01T15:00:00+01:00: stopped Meetings"]),
            ]
            for step in steps {
                let r = try t.run(["tick", "--rules", rules], now: step.now)
                #expect(r.status == 0, "\(r)")
                #expect(r.stderr == "")
                #expect(r.lines == step.output, "tick at \(step.now)")
            }
            #expect(try t.loggedEntries(at: "2026-12-01 16:00") == parsedJSON("""
                [
                  {"id": 4, "project": "Meetings", "description": "Weekly sync", "tags": [], "billable": false,
                   "start": "2026-12-01T13:58:00+01:00", "end": "2026-12-01T15:00:00+01:00", "duration_seconds": 3720,
                   "running": false, "source": "rule:meetings"},
                  {"id": 3, "project": "Conference", "description": "", "tags": [], "billable": false,
                   "start": "2026-11-25T00:00:00+01:00", "end": "2026-11-26T00:00:00+01:00", "duration_seconds": 86400,
                   "running": false, "source": "rule:conference"},
                  {"id": 2, "project": "Meetings", "description": "Weekly sync", "tags": [], "billable": false,
                   "start": "2026-11-24T13:58:00+01:00", "end": "2026-11-24T15:00:00+01:00", "duration_seconds": 3720,
                   "running": false, "source": "rule:meetings"},
                  {"id": 1, "project": "Meetings", "description": "Standup", "tags": [], "billable": false,
                   "start": "2026-11-23T09:28:00+01:00", "end": "2026-11-23T10:00:00+01:00", "duration_seconds": 1920,
                   "running": false, "source": "rule:meetings"}
                ]
                """))
        }
    }
}
