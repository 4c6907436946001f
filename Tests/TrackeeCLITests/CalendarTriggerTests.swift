import Foundation
import GRDB
import Testing
import TrackeeTestSupport

extension CalendarCommandTests {
    /// Calendar triggers firing through `trackee tick` with the clock
    /// stepped by TRACKEE_NOW, and played by `trackee simulate`: each edge
    /// fires at its own time plus the offset, once per rule, UID,
    /// recurrence id and edge, under the rule's catch-up policy.
    @Suite struct Triggers {
        /// Runs `trackee tick --rules rules.yaml` at `now` and expects it to
        /// succeed quietly on stderr; returns its lines.
        func tick(_ t: Sandbox, at now: String) throws -> [String] {
            let r = try t.run(["tick", "--rules", t.path("rules.yaml")], now: now)
            #expect(r.status == 0, "\(r)")
            #expect(r.stderr == "", "tick at \(now)")
            return r.lines
        }

        /// An entry as `trackee log --json` prints it, for a stopped timer.
        func entry(_ id: Int, _ project: String, _ description: String, _ start: String, _ end: String,
                   seconds: Int, source: String) -> JSONValue {
            .object([
                "id": .number(Double(id)), "project": .string(project), "description": .string(description),
                "tags": .array([]), "billable": false, "start": .string(start), "end": .string(end),
                "duration_seconds": .number(Double(seconds)), "running": false, "source": .string(source),
            ])
        }

        @Test func tickThroughMondayStartsTwoMinutesEarlyAndStopsAtTheEndWhileMeetingsRuns() throws {
            let t = try CalendarCommandTests.sandbox()
            let steps: [(now: String, output: [String])] = [
                ("2026-11-23 08:00", ["first tick: watermark set to 2026-11-23T08:00:00+01:00; nothing before it fires"]),
                ("2026-11-23 09:27", ["nothing due from 2026-11-23T08:00:00+01:00 to 2026-11-23T09:27:00+01:00"]),
                ("2026-11-23 09:28", [#"fired meetings at 2026-11-23T09:28:00+01:00: started Meetings (created project "Meetings")"#]),
                // Noticed a minute late: on time, and the entry still ends at 09:45.
                ("2026-11-23 09:46", ["fired meetings-end at 2026-11-23T09:45:00+01:00: stopped Meetings"]),
                // Lunch does not match the start rule; its end finds nothing running.
                ("2026-11-23 13:05", ["not fired meetings-end at 2026-11-23T13:00:00+01:00: conditions not met or cooling down"]),
                ("2026-11-23 13:58:30", ["fired meetings at 2026-11-23T13:58:00+01:00: started Meetings"]),
                ("2026-11-23 15:00", ["fired meetings-end at 2026-11-23T15:00:00+01:00: stopped Meetings"]),
                ("2026-11-23 15:00", ["nothing due from 2026-11-23T15:00:00+01:00 to 2026-11-23T15:00:00+01:00"]),
            ]
            for step in steps {
                #expect(try tick(t, at: step.now) == step.output, "tick at \(step.now)")
            }
            #expect(try t.loggedEntries(at: "2026-11-23 16:00") == .array([
                entry(2, "Meetings", "Design sync", "2026-11-23T13:58:00+01:00", "2026-11-23T15:00:00+01:00",
                      seconds: 3720, source: "rule:meetings"),
                entry(1, "Meetings", "Standup", "2026-11-23T09:28:00+01:00", "2026-11-23T09:45:00+01:00",
                      seconds: 1020, source: "rule:meetings"),
            ]))
        }

        /// Every template field and TRACKEE_TRIGGER_* variable, and a
        /// match whose every key must hold.
        @Test func templatesAndProgramVariablesCarryTheEvent() throws {
            let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-23 08:00")
            try t.write(ICS.calendar(
                ICS.event(
                    "UID:review@example.com",
                    "DTSTART;TZID=Europe/Prague:20261123T140000",
                    "DTEND;TZID=Europe/Prague:20261123T150000",
                    #"SUMMARY:Design review\, round 2"#,
                    "DESCRIPTION:Bring the mock-ups",
                    "LOCATION:Room 2",
                    "CATEGORIES:Design,Meetings"),
                // Category and location match, the description does not.
                ICS.event(
                    "UID:chat@example.com",
                    "DTSTART;TZID=Europe/Prague:20261123T100000",
                    "DTEND;TZID=Europe/Prague:20261123T103000",
                    "SUMMARY:Design chat",
                    "DESCRIPTION:Coffee",
                    "LOCATION:Room 2",
                    "CATEGORIES:Design")), to: "work.ics")
            let record = try t.write("""
                #!/bin/sh
                for a in "$@"; do printf '[%s]\\n' "$a"; done > "\(t.path("record.txt"))"
                env | grep -E '^TRACKEE_(RULE|TRIGGER_)' | LC_ALL=C sort >> "\(t.path("record.txt"))"
                """, to: "record.sh")
            chmod(record, 0o755)
            try t.write("""
                calendars:
                  work: work.ics
                rules:
                  - id: review
                    when: {calendar: work, offset: -5m, match: {categories: design, location: room, description: MOCK}}
                    do:
                      - start: {project: "{{trigger.categories}}", description: "{{trigger.summary}} in {{trigger.location}}"}
                      - run: ["\(record)", "{{trigger.category}}", "{{trigger.start}}", "{{trigger.end}}", "{{trigger.all_day}}",
                              "{{trigger.uid}}", "{{trigger.calendar}}", "{{trigger.time}}", "{{trigger.description}}"]
                """, to: "rules.yaml")

            #expect(try tick(t, at: "2026-11-23 08:00") == ["first tick: watermark set to 2026-11-23T08:00:00+01:00; nothing before it fires"])
            #expect(try tick(t, at: "2026-11-23 10:00") == ["nothing due from 2026-11-23T08:00:00+01:00 to 2026-11-23T10:00:00+01:00"])
            #expect(try tick(t, at: "2026-11-23 13:55") == [
                #"fired review at 2026-11-23T13:55:00+01:00: started Design,Meetings (created project "Design,Meetings")"#,
            ])
            #expect(try String(contentsOfFile: t.path("record.txt"), encoding: .utf8) == """
                [Design]
                [2026-11-23T14:00:00+01:00]
                [2026-11-23T15:00:00+01:00]
                [false]
                [review@example.com]
                [work]
                [2026-11-23T13:55:00+01:00]
                [Bring the mock-ups]
                TRACKEE_RULE=review
                TRACKEE_TRIGGER_ALL_DAY=false
                TRACKEE_TRIGGER_CALENDAR=work
                TRACKEE_TRIGGER_CATEGORIES=Design,Meetings
                TRACKEE_TRIGGER_CATEGORY=Design
                TRACKEE_TRIGGER_DESCRIPTION=Bring the mock-ups
                TRACKEE_TRIGGER_END=2026-11-23T15:00:00+01:00
                TRACKEE_TRIGGER_KIND=calendar
                TRACKEE_TRIGGER_LOCATION=Room 2
                TRACKEE_TRIGGER_START=2026-11-23T14:00:00+01:00
                TRACKEE_TRIGGER_SUMMARY=Design review, round 2
                TRACKEE_TRIGGER_TIME=2026-11-23T13:55:00+01:00
                TRACKEE_TRIGGER_UID=review@example.com

                """)
            let status = try t.run(["status", "--json"], now: "2026-11-23 14:05")
            #expect(status.status == 0, "\(status)")
            #expect(try status.json()["running"] == .object([
                "id": 1, "project": "Design,Meetings", "description": "Design review, round 2 in Room 2", "tags": [],
                "billable": false, "start": "2026-11-23T13:55:00+01:00", "duration_seconds": 600, "running": true,
                "source": "rule:review",
            ]))
        }

        /// All-day events are left out unless a trigger asks for them, and
        /// then fire at local midnight plus the offset.
        @Test func allDayEventsFireOnlyWhenIncludedAtLocalMidnightPlusTheOffset() throws {
            let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-26 23:00")
            try t.write(CalendarCommandTests.week, to: "work.ics")
            try t.write("""
                calendars:
                  work: work.ics
                rules:
                  - id: offsite
                    when: {calendar: work, all_day: include, offset: +9h, match: {categories: offsite}}
                    do: [{start: {project: "{{trigger.summary}}", description: "all day: {{trigger.all_day}}"}}]
                  - id: offsite-end
                    when: {calendar: work, event: end, all_day: include, match: {categories: offsite}}
                    do: [{stop: {}}]
                  - id: excluded
                    when: {calendar: work, match: {summary: offsite}}
                    do: [{start: {project: Never}}]
                  - id: excluded-explicitly
                    when: {calendar: work, all_day: exclude, match: {summary: offsite}}
                    do: [{start: {project: Never}}]
                """, to: "rules.yaml")
            #expect(try tick(t, at: "2026-11-26 23:00") == ["first tick: watermark set to 2026-11-26T23:00:00+01:00; nothing before it fires"])
            #expect(try tick(t, at: "2026-11-27 00:00:30") == ["nothing due from 2026-11-26T23:00:00+01:00 to 2026-11-27T00:00:30+01:00"])
            #expect(try tick(t, at: "2026-11-27 09:00") == [
                #"fired offsite at 2026-11-27T09:00:00+01:00: started Team offsite (created project "Team offsite")"#,
            ])
            #expect(try tick(t, at: "2026-11-28 00:00") == ["fired offsite-end at 2026-11-28T00:00:00+01:00: stopped Team offsite"])
            #expect(try t.loggedEntries(at: "2026-11-28 08:00") == .array([
                entry(1, "Team offsite", "all day: true", "2026-11-27T09:00:00+01:00", "2026-11-28T00:00:00+01:00",
                      seconds: 54000, source: "rule:offsite"),
            ]))
        }

        @Test func aCancelledInstanceOrEventNeverFires() throws {
            let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-25 23:00")
            try t.write(ICS.calendar(CalendarCommandTests.weekEvents + [ICS.event(
                "UID:retro@example.com",
                "DTSTART;TZID=Europe/Prague:20261126T150000",
                "DTEND;TZID=Europe/Prague:20261126T160000",
                "SUMMARY:Retro sync",
                "STATUS:CANCELLED")]), to: "work.ics")
            try t.write(CalendarCommandTests.meetingRules, to: "rules.yaml")
            #expect(try tick(t, at: "2026-11-25 23:00") == ["first tick: watermark set to 2026-11-25T23:00:00+01:00; nothing before it fires"])
            for (from, to) in [("2026-11-25T23:00", "2026-11-26 09:28"), ("2026-11-26T09:28", "2026-11-26 09:45"),
                               ("2026-11-26T09:45", "2026-11-26 14:58"), ("2026-11-26T14:58", "2026-11-26 16:00")] {
                let toISO = to.replacingOccurrences(of: " ", with: "T")
                #expect(try tick(t, at: to) == ["nothing due from \(from):00+01:00 to \(toISO):00+01:00"])
            }
            #expect(try t.loggedEntries(at: "2026-11-26 17:00") == .array([]))
            // Neither is ahead in rules next either.
            let next = try t.run(["rules", "next", "--rules", t.path("rules.yaml"), "--count", "1"], now: "2026-11-26 00:00")
            #expect(next.lines == ["2026-11-27T09:28:00+01:00  meetings  calendar work: Standup (start)"])
        }

        // MARK: Catch-up

        /// An edge noticed late but within `max_late` fires at its own time;
        /// `catchup: skip` passes a missed one over.
        @Test func aLateEdgeFiresAtItsOwnTimeWithinMaxLateAndCatchupSkipPassesItOver() throws {
            let t = try CalendarCommandTests.sandbox()
            try t.write(Self.catchUpRules, to: "rules.yaml")
            #expect(try tick(t, at: "2026-11-23 08:00") == ["first tick: watermark set to 2026-11-23T08:00:00+01:00; nothing before it fires"])
            // 09:28 noticed at 09:31: three minutes late, within max_late 5m.
            #expect(try tick(t, at: "2026-11-23 09:31") == [
                #"fired meetings at 2026-11-23T09:28:00+01:00: started Meetings (created project "Meetings")"#,
            ])
            // The 09:45 end, two hours late, within 8h; lunch four minutes late, with catchup: skip.
            #expect(try tick(t, at: "2026-11-23 12:04") == [
                "skipped lunch at 2026-11-23T12:00:00+01:00: missed (catchup: skip)",
                "fired meetings-end at 2026-11-23T09:45:00+01:00: stopped Meetings",
            ])
            // 13:58 noticed at 14:10: past max_late 5m.
            #expect(try tick(t, at: "2026-11-23 14:10") == [
                "skipped meetings at 2026-11-23T13:58:00+01:00: noticed more than max_late after its time",
            ])
            #expect(try t.loggedEntries(at: "2026-11-23 14:10") == .array([
                entry(1, "Meetings", "Standup", "2026-11-23T09:28:00+01:00", "2026-11-23T09:45:00+01:00",
                      seconds: 1020, source: "rule:meetings"),
            ]))
        }

        /// After a long gap, as with `at:` schedules: what is past
        /// `max_late` is skipped, and of the missed edges within it only the
        /// latest of each rule fires.
        @Test func afterALongGapOnlyTheLatestMissedEdgeOfEachRuleFires() throws {
            let t = try CalendarCommandTests.sandbox()
            try t.write(Self.catchUpRules + """

                  - id: standup-alarm
                    when: {at: "Mon..Fri 09:28"}
                    max_late: 5m
                    do: [{start: {project: Alarm}}]
                """, to: "rules.yaml")
            #expect(try tick(t, at: "2026-11-23 08:00") == ["first tick: watermark set to 2026-11-23T08:00:00+01:00; nothing before it fires"])
            #expect(try tick(t, at: "2026-11-23 16:00") == [
                "skipped standup-alarm at 2026-11-23T09:28:00+01:00: noticed more than max_late after its time",
                "skipped meetings at 2026-11-23T09:28:00+01:00: noticed more than max_late after its time",
                "skipped meetings-end at 2026-11-23T09:45:00+01:00: missed; a later occurrence catches up instead",
                "skipped lunch at 2026-11-23T12:00:00+01:00: noticed more than max_late after its time",
                "skipped meetings at 2026-11-23T13:58:00+01:00: noticed more than max_late after its time",
                "fired meetings-end at 2026-11-23T15:00:00+01:00: unchanged",
            ])
            let json = try t.run(["tick", "--rules", t.path("rules.yaml"), "--json"], now: "2026-11-23 16:01")
            #expect(try json.json() == .object([
                "from": "2026-11-23T16:00:00+01:00", "to": "2026-11-23T16:01:00+01:00",
                "fired": [], "skipped": [], "not_fired": [],
            ]))
            #expect(try t.loggedEntries(at: "2026-11-23 16:01") == .array([]))
        }

        static let catchUpRules = """
            calendars:
              work: work.ics
            rules:
              - id: meetings
                when: {calendar: work, offset: -2m, match: {summary: "/standup|sync/i"}}
                max_late: 5m
                do:
                  - start: {project: "{{trigger.categories}}", description: "{{trigger.summary}}"}
              - id: meetings-end
                when: {calendar: work, event: end, match: {summary: "/standup|sync/i"}}
                max_late: 8h
                do: [{stop: {}}]
              - id: lunch
                when: {calendar: work, match: {summary: lunch}}
                catchup: skip
                do: [{start: {project: Lunch}}]
            """

        // MARK: Exactly once

        /// A weekday standup from Monday 2026-11-23, with `extra` lines in
        /// its VEVENT.
        static func standups(_ extra: String...) -> [String] {
            ICS.event(["UID:standup@example.com",
                       "DTSTART;TZID=Europe/Prague:20261123T093000",
                       "DTEND;TZID=Europe/Prague:20261123T094500",
                       "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"] + extra + ["SUMMARY:Standup", "CATEGORIES:Meetings"])
        }

        /// An override of the standup that started on `day` at 09:30.
        static func movedStandup(day: String, start: String, end: String) -> [String] {
            ICS.event("UID:standup@example.com",
                      "RECURRENCE-ID;TZID=Europe/Prague:\(day)T093000",
                      "SEQUENCE:1",
                      "DTSTART;TZID=Europe/Prague:\(day)T\(start)",
                      "DTEND;TZID=Europe/Prague:\(day)T\(end)",
                      "SUMMARY:Standup (moved)",
                      "CATEGORIES:Meetings")
        }

        static func single(_ uid: String, _ summary: String, _ start: String, _ end: String) -> [String] {
            ICS.event("UID:\(uid)",
                      "DTSTART;TZID=Europe/Prague:\(start)",
                      "DTEND;TZID=Europe/Prague:\(end)",
                      "SUMMARY:\(summary)",
                      "CATEGORIES:Meetings")
        }

        static let onceRules = """
            calendars:
              work: work.ics
            rules:
              - id: meetings
                when: {calendar: work, offset: -2m, match: {summary: "/standup|sync/i"}}
                do:
                  - start: {project: "{{trigger.category}}", description: "{{trigger.summary}}"}
              - id: meetings-end
                when: {calendar: work, event: end}
                do: [{stop: {}}]
            """

        @Test func aMovedInstanceDoesNotFireAgainADeletedOneNeverFiresAndALaterOneDoes() throws {
            let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-23 08:00")
            try t.write(Self.onceRules, to: "rules.yaml")
            let ana = Self.single("ana@example.com", "Sync with Ana", "20261124T140000", "20261124T143000")
            try t.write(ICS.calendar(Self.standups(), ana), to: "work.ics")

            #expect(try tick(t, at: "2026-11-23 08:00") == ["first tick: watermark set to 2026-11-23T08:00:00+01:00; nothing before it fires"])
            #expect(try tick(t, at: "2026-11-23 09:28") == [
                #"fired meetings at 2026-11-23T09:28:00+01:00: started Meetings (created project "Meetings")"#,
            ])
            #expect(try tick(t, at: "2026-11-23 09:45") == ["fired meetings-end at 2026-11-23T09:45:00+01:00: stopped Meetings"])

            // Monday's standup, already started and ended, moves to 11:00 the same day.
            try t.write(ICS.calendar(
                Self.standups(), Self.movedStandup(day: "20261123", start: "110000", end: "111500"), ana), to: "work.ics")
            let moved = try t.run(["tick", "--rules", t.path("rules.yaml"), "--json"], now: "2026-11-23 10:58")
            #expect(moved.status == 0, "\(moved)")
            #expect(try moved.json() == .object([
                "from": "2026-11-23T09:45:00+01:00", "to": "2026-11-23T10:58:00+01:00",
                "fired": .array([.object([
                    "rule": "meetings", "key": "meetings@cal:work:standup@example.com:1795422600:start:-120",
                    "time": "2026-11-23T10:58:00+01:00", "status": "already_fired", "outcomes": [],
                ])]),
                "skipped": [], "not_fired": [],
            ]))
            #expect(try tick(t, at: "2026-11-23 11:15") == ["already fired meetings-end at 2026-11-23T11:15:00+01:00"])

            // Tuesday's standup and the sync with Ana are deleted before they start.
            try t.write(ICS.calendar(
                Self.standups("EXDATE;TZID=Europe/Prague:20261124T093000"),
                Self.movedStandup(day: "20261123", start: "110000", end: "111500")), to: "work.ics")
            #expect(try tick(t, at: "2026-11-24 09:28") == ["nothing due from 2026-11-23T11:15:00+01:00 to 2026-11-24T09:28:00+01:00"])
            #expect(try tick(t, at: "2026-11-24 09:45") == ["nothing due from 2026-11-24T09:28:00+01:00 to 2026-11-24T09:45:00+01:00"])
            #expect(try tick(t, at: "2026-11-24 13:58") == ["nothing due from 2026-11-24T09:45:00+01:00 to 2026-11-24T13:58:00+01:00"])
            #expect(try tick(t, at: "2026-11-24 14:30") == ["nothing due from 2026-11-24T13:58:00+01:00 to 2026-11-24T14:30:00+01:00"])

            // Wednesday's standup is a later instance: it fires.
            #expect(try tick(t, at: "2026-11-25 09:28") == ["fired meetings at 2026-11-25T09:28:00+01:00: started Meetings"])
            #expect(try tick(t, at: "2026-11-25 09:45") == ["fired meetings-end at 2026-11-25T09:45:00+01:00: stopped Meetings"])

            #expect(try t.loggedEntries(at: "2026-11-25 10:00") == .array([
                entry(2, "Meetings", "Standup", "2026-11-25T09:28:00+01:00", "2026-11-25T09:45:00+01:00",
                      seconds: 1020, source: "rule:meetings"),
                entry(1, "Meetings", "Standup", "2026-11-23T09:28:00+01:00", "2026-11-23T09:45:00+01:00",
                      seconds: 1020, source: "rule:meetings"),
            ]))
        }

        /// Moved before it starts, an instance fires once, at its new time;
        /// a single event edited after it started does not start again, but
        /// its end, not yet reached, fires at the new end.
        @Test func anInstanceMovedBeforeItStartsFiresAtItsNewTimeAndAnEditedEventDoesNotStartAgain() throws {
            let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-26 08:00")
            try t.write(Self.onceRules, to: "rules.yaml")
            try t.write(ICS.calendar(
                Self.standups(), Self.single("ana@example.com", "Sync with Ana", "20261126T100000", "20261126T103000")),
                to: "work.ics")
            #expect(try tick(t, at: "2026-11-26 08:00") == ["first tick: watermark set to 2026-11-26T08:00:00+01:00; nothing before it fires"])

            // Thursday's standup moves to the afternoon before 09:28.
            try t.write(ICS.calendar(
                Self.standups(), Self.movedStandup(day: "20261126", start: "160000", end: "161500"),
                Self.single("ana@example.com", "Sync with Ana", "20261126T100000", "20261126T103000")), to: "work.ics")
            #expect(try tick(t, at: "2026-11-26 09:45") == ["nothing due from 2026-11-26T08:00:00+01:00 to 2026-11-26T09:45:00+01:00"])
            #expect(try tick(t, at: "2026-11-26 09:58") == [
                #"fired meetings at 2026-11-26T09:58:00+01:00: started Meetings (created project "Meetings")"#,
            ])

            // The sync with Ana, under way, is pushed to 12:00–12:30.
            try t.write(ICS.calendar(
                Self.standups(), Self.movedStandup(day: "20261126", start: "160000", end: "161500"),
                Self.single("ana@example.com", "Sync with Ana", "20261126T120000", "20261126T123000")), to: "work.ics")
            #expect(try tick(t, at: "2026-11-26 10:30") == ["nothing due from 2026-11-26T09:58:00+01:00 to 2026-11-26T10:30:00+01:00"])
            let again = try t.run(["tick", "--rules", t.path("rules.yaml"), "--json"], now: "2026-11-26 11:58")
            #expect(try again.json()["fired"] == .array([.object([
                "rule": "meetings", "key": "meetings@cal:work:ana@example.com:-:start:-120",
                "time": "2026-11-26T11:58:00+01:00", "status": "already_fired", "outcomes": [],
            ])]))
            #expect(try tick(t, at: "2026-11-26 12:30") == ["fired meetings-end at 2026-11-26T12:30:00+01:00: stopped Meetings"])
            #expect(try tick(t, at: "2026-11-26 15:58") == ["fired meetings at 2026-11-26T15:58:00+01:00: started Meetings"])
            #expect(try tick(t, at: "2026-11-26 16:15") == ["fired meetings-end at 2026-11-26T16:15:00+01:00: stopped Meetings"])

            #expect(try t.loggedEntries(at: "2026-11-26 17:00") == .array([
                entry(2, "Meetings", "Standup (moved)", "2026-11-26T15:58:00+01:00", "2026-11-26T16:15:00+01:00",
                      seconds: 1020, source: "rule:meetings"),
                entry(1, "Meetings", "Sync with Ana", "2026-11-26T09:58:00+01:00", "2026-11-26T12:30:00+01:00",
                      seconds: 9120, source: "rule:meetings"),
            ]))
        }

        /// The clocks going forward skip 02:00–03:00 and going back repeat
        /// it: a weekly 02:30 job runs at 03:30 (moved forward by the gap) in
        /// spring and once, in the first 02:30, in autumn.
        @Test func aNightlyEdgeFiresOnceOnTheNightsTheClocksChange() throws {
            let t = try Sandbox(zone: "Europe/Prague", now: "2027-03-28T01:00+01:00")
            try t.write(ICS.calendar(ICS.event(
                "UID:night@example.com",
                "DTSTART;TZID=Europe/Prague:20270321T023000",
                "DTEND;TZID=Europe/Prague:20270321T024500",
                "RRULE:FREQ=WEEKLY",
                "SUMMARY:Night job")), to: "work.ics")
            try t.write("""
                calendars:
                  work: work.ics
                rules:
                  - id: night
                    when: {calendar: work}
                    do: [{start: {project: Night}}]
                  - id: night-end
                    when: {calendar: work, event: end}
                    do: [{stop: {}}]
                """, to: "rules.yaml")
            let spring = try t.run("calendar", "list", "work.ics", "--from", "2027-03-28 00:00", "--to", "2027-03-29 00:00")
            #expect(spring.lines == [
                "2027-03-28T03:30:00+02:00  2027-03-28T03:45:00+02:00  Night job  uid night@example.com  recurrence 2027-03-28T03:30:00+02:00",
            ])
            let autumn = try t.run("calendar", "list", "work.ics", "--from", "2027-10-31 00:00", "--to", "2027-11-01 00:00")
            #expect(autumn.lines == [
                "2027-10-31T02:30:00+02:00  2027-10-31T02:45:00+02:00  Night job  uid night@example.com  recurrence 2027-10-31T02:30:00+02:00",
            ])
            let steps: [(now: String, output: [String])] = [
                ("2027-03-28T01:00+01:00", ["first tick: watermark set to 2027-03-28T01:00:00+01:00; nothing before it fires"]),
                ("2027-03-28T03:31+02:00", [#"fired night at 2027-03-28T03:30:00+02:00: started Night (created project "Night")"#]),
                ("2027-03-28T03:46+02:00", ["fired night-end at 2027-03-28T03:45:00+02:00: stopped Night"]),
                ("2027-10-31T01:00+02:00", ["nothing due from 2027-03-28T03:46:00+02:00 to 2027-10-31T01:00:00+02:00"]),
                ("2027-10-31T02:31+02:00", ["fired night at 2027-10-31T02:30:00+02:00: started Night"]),
                ("2027-10-31T02:46+02:00", ["fired night-end at 2027-10-31T02:45:00+02:00: stopped Night"]),
                // The same wall-clock times again, an hour later.
                ("2027-10-31T02:31+01:00", ["nothing due from 2027-10-31T02:46:00+02:00 to 2027-10-31T02:31:00+01:00"]),
                ("2027-10-31T02:46+01:00", ["nothing due from 2027-10-31T02:31:00+01:00 to 2027-10-31T02:46:00+01:00"]),
                ("2027-10-31T04:00+01:00", ["nothing due from 2027-10-31T02:46:00+01:00 to 2027-10-31T04:00:00+01:00"]),
            ]
            for step in steps {
                #expect(try tick(t, at: step.now) == step.output, "tick at \(step.now)")
            }
            #expect(try t.loggedEntries(at: "2027-10-31T12:00+01:00") == .array([
                entry(2, "Night", "", "2027-10-31T02:30:00+02:00", "2027-10-31T02:45:00+02:00", seconds: 900, source: "rule:night"),
                entry(1, "Night", "", "2027-03-28T03:30:00+02:00", "2027-03-28T03:45:00+02:00", seconds: 900, source: "rule:night"),
            ]))
        }

        /// A rule fires once for an edge, however many of its triggers
        /// accept it.
        @Test func aRuleWhoseTwoTriggersAcceptTheSameEdgeFiresOnce() throws {
            let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-23 08:00")
            try t.write(ICS.calendar(Self.standups()), to: "work.ics")
            try t.write("""
                calendars:
                  work: work.ics
                rules:
                  - id: standup
                    when:
                      - {calendar: work, match: {summary: standup}}
                      - {calendar: work, match: {categories: meetings}}
                    do: [{start: {project: Standup}}]
                """, to: "rules.yaml")
            #expect(try tick(t, at: "2026-11-23 08:00") == ["first tick: watermark set to 2026-11-23T08:00:00+01:00; nothing before it fires"])
            #expect(try tick(t, at: "2026-11-23 09:30") == [
                #"fired standup at 2026-11-23T09:30:00+01:00: started Standup (created project "Standup")"#,
            ])
        }

        /// Two triggers of one rule on the same edge at different offsets
        /// fire once each: the offset is part of the firing key.
        @Test func aRuleWhoseTwoTriggersTakeOneEdgeAtTwoOffsetsFiresForEach() throws {
            let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-23 08:00")
            try t.write(ICS.calendar(Self.standups()), to: "work.ics")
            try t.write("""
                calendars:
                  work: work.ics
                rules:
                  - id: standup
                    when:
                      - {calendar: work, offset: -5m, match: {summary: standup}}
                      - {calendar: work, match: {summary: standup}}
                    do: [{start: {project: Standup}}]
                """, to: "rules.yaml")
            #expect(try tick(t, at: "2026-11-23 08:00") == ["first tick: watermark set to 2026-11-23T08:00:00+01:00; nothing before it fires"])
            #expect(try tick(t, at: "2026-11-23 09:26") == [
                #"fired standup at 2026-11-23T09:25:00+01:00: started Standup (created project "Standup")"#,
            ])
            #expect(try tick(t, at: "2026-11-23 09:31") == ["fired standup at 2026-11-23T09:30:00+01:00: unchanged Standup"])
            // Both are in the ledger, under keys that name the offset.
            let keys = try DatabaseQueue(path: t.storePath).read {
                try String.fetchAll($0, sql: "SELECT key FROM rule_firing ORDER BY occurred")
            }
            #expect(keys == ["standup@cal:work:standup@example.com:1795422600:start:-300",
                             "standup@cal:work:standup@example.com:1795422600:start"])
        }

        /// A calendar that cannot be read stops tick before anything fires
        /// and leaves the watermark, so the next good tick catches up.
        @Test func aBrokenCalendarStopsTickAndTheNextGoodTickCatchesUp() throws {
            let t = try CalendarCommandTests.sandbox()
            #expect(try tick(t, at: "2026-11-23 08:00") == ["first tick: watermark set to 2026-11-23T08:00:00+01:00; nothing before it fires"])
            try t.write(ICS.lines(["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:x"]), to: "work.ics")
            let broken = try t.run(["tick", "--rules", t.path("rules.yaml")], now: "2026-11-23 09:28")
            #expect(broken.status == 78)
            #expect(broken.stdout == "")
            // Where the rules name the calendar (rules.yaml:2:9), then the
            // calendar's own file and line.
            let named = "\(t.path("rules.yaml")):2:9: calendars.work: "
            #expect(broken.stderr == failure(
                named + #"\#(t.path("work.ics")):3: the file ends inside VEVENT begun on line 2; is it cut off?"#))
            try FileManager.default.removeItem(atPath: t.path("work.ics"))
            let missing = try t.run(["tick", "--rules", t.path("rules.yaml")], now: "2026-11-23 09:29")
            #expect(missing.status == 78)
            #expect(missing.stderr == failure(named + #"\#(t.path("work.ics")): no such calendar file or folder"#))

            try t.write(CalendarCommandTests.week, to: "work.ics")
            #expect(try tick(t, at: "2026-11-23 09:31") == [
                #"fired meetings at 2026-11-23T09:28:00+01:00: started Meetings (created project "Meetings")"#,
            ])
        }

        // MARK: Simulation

        @Test func simulatePlaysCalendarEdgesAndPrintsTheTimesheet() throws {
            let t = try CalendarCommandTests.sandbox()
            let monday = try t.run("simulate", "--rules", t.path("rules.yaml"), "--from", "2026-11-23 00:00", "--to", "2026-11-24 00:00")
            #expect(monday.status == 0, "\(monday)")
            #expect(monday.stderr == "")
            // Five edges: three ends (lunch's finds nothing running) and two starts.
            #expect(monday.lines == [
                "simulating 2026-11-23T00:00:00+01:00 – 2026-11-24T00:00:00+01:00, 2 rules, 5 events",
                "2026-11-23T09:28:00+01:00  meetings  started Meetings · Standup",
                "2026-11-23T09:45:00+01:00  meetings-end  stopped Meetings · Standup",
                "2026-11-23T13:58:00+01:00  meetings  started Meetings · Design sync",
                "2026-11-23T15:00:00+01:00  meetings-end  stopped Meetings · Design sync",
                "",
                "timesheet",
                "  2026-11-23T09:28:00+01:00 – 2026-11-23T09:45:00+01:00    0:17  Meetings · Standup",
                "  2026-11-23T13:58:00+01:00 – 2026-11-23T15:00:00+01:00    1:02  Meetings · Design sync",
                "  total Meetings: 1:19",
                "  total: 1:19",
            ])
            // The rest of the week: Wednesday's moved standup, nothing on the
            // cancelled Thursday, Friday's all-day offsite left out.
            let rest = try t.run("simulate", "--rules", t.path("rules.yaml"), "--from", "2026-11-25 00:00", "--to", "2026-11-28 00:00")
            #expect(rest.status == 0, "\(rest)")
            #expect(rest.lines == [
                "simulating 2026-11-25T00:00:00+01:00 – 2026-11-28T00:00:00+01:00, 2 rules, 4 events",
                "2026-11-25T10:58:00+01:00  meetings  started Meetings · Standup (moved)",
                "2026-11-25T11:15:00+01:00  meetings-end  stopped Meetings · Standup (moved)",
                "2026-11-27T09:28:00+01:00  meetings  started Meetings · Standup",
                "2026-11-27T09:45:00+01:00  meetings-end  stopped Meetings · Standup",
                "",
                "timesheet",
                "  2026-11-25T10:58:00+01:00 – 2026-11-25T11:15:00+01:00    0:17  Meetings · Standup (moved)",
                "  2026-11-27T09:28:00+01:00 – 2026-11-27T09:45:00+01:00    0:17  Meetings · Standup",
                "  total Meetings: 0:34",
                "  total: 0:34",
            ])
            #expect(t.listing(t.path("store")) == [])
        }
    }
}
