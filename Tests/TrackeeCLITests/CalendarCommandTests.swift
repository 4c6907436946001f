import Foundation
import Testing
import TrackeeTestSupport

/// Calendars as trackee reads them, against the built binary: `trackee
/// calendar list`, the errors a calendar or a calendar trigger can give,
/// and calendar firings in `rules check` and `rules next`. The firing
/// itself (`tick`, `simulate`) is in CalendarTriggerTests.swift and khal,
/// the peer program, in CalendarKhalTests.swift; both are nested in this
/// suite so one filter runs them all.
///
/// Every sandbox is in Europe/Prague; the week is Monday 2026-11-23 to
/// Friday 2026-11-27, all of it CET (+01:00).
@Suite struct CalendarCommandTests {
    /// A working week: a weekday standup series with Tuesday excluded,
    /// Wednesday moved to 11:00 and Thursday cancelled; lunch and a design
    /// sync on Monday; a team offsite all of Friday.
    static let week = ICS.calendar(weekEvents)

    static let weekEvents = [
        ICS.event(
            "UID:standup@example.com",
            "DTSTART;TZID=Europe/Prague:20261116T093000",
            "DTEND;TZID=Europe/Prague:20261116T094500",
            "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
            "EXDATE;TZID=Europe/Prague:20261124T093000",
            "SUMMARY:Standup",
            "CATEGORIES:Meetings"),
        ICS.event(
            "UID:standup@example.com",
            "RECURRENCE-ID;TZID=Europe/Prague:20261125T093000",
            "DTSTART;TZID=Europe/Prague:20261125T110000",
            "DTEND;TZID=Europe/Prague:20261125T111500",
            "SUMMARY:Standup (moved)",
            "CATEGORIES:Meetings"),
        ICS.event(
            "UID:standup@example.com",
            "RECURRENCE-ID;TZID=Europe/Prague:20261126T093000",
            "DTSTART;TZID=Europe/Prague:20261126T093000",
            "DTEND;TZID=Europe/Prague:20261126T094500",
            "SUMMARY:Standup",
            "STATUS:CANCELLED"),
        ICS.event(
            "UID:offsite@example.com",
            "DTSTART;VALUE=DATE:20261127",
            "DTEND;VALUE=DATE:20261128",
            "SUMMARY:Team offsite",
            "CATEGORIES:Offsite"),
        ICS.event(
            "UID:design@example.com",
            "DTSTART;TZID=Europe/Prague:20261123T140000",
            "DTEND;TZID=Europe/Prague:20261123T150000",
            "SUMMARY:Design sync",
            "DESCRIPTION:Sprint review",
            "LOCATION:Room 2",
            "CATEGORIES:Meetings"),
        ICS.event(
            "UID:lunch@example.com",
            "DTSTART;TZID=Europe/Prague:20261123T120000",
            "DTEND;TZID=Europe/Prague:20261123T130000",
            "SUMMARY:Lunch"),
    ]

    /// The rules of the issue: start two minutes before a standup or a
    /// sync, stop at the end of any event while Meetings runs.
    static let meetingRules = """
        calendars:
          work: work.ics
        rules:
          - id: meetings
            when: {calendar: work, event: start, offset: -2m, match: {summary: "/standup|sync/i"}}
            do:
              - start: {project: "{{trigger.categories}}", description: "{{trigger.summary}}"}
          - id: meetings-end
            when: {calendar: work, event: end}
            if: {timer: {running: Meetings}}
            do: [{stop: {}}]
        """

    /// A Prague sandbox with the week's calendar in `work.ics` and the
    /// meeting rules in `rules.yaml`, both at its root.
    static func sandbox(now: String = "2026-11-23 08:00") throws -> Sandbox {
        let t = try Sandbox(zone: "Europe/Prague", now: now)
        try t.write(week, to: "work.ics")
        try t.write(meetingRules, to: "rules.yaml")
        return t
    }

    static let jsonKeys = ["all_day", "calendar", "end", "recurrence_id", "start", "status", "summary", "uid"]

    /// One object of `calendar list --json`.
    static func occurrence(
        _ start: String, _ end: String, _ summary: String, uid: String, recurrence: String? = nil,
        status: String = "confirmed", allDay: Bool = false, calendar: String
    ) -> JSONValue {
        .object([
            "start": .string(start), "end": .string(end), "all_day": .bool(allDay), "uid": .string(uid),
            "recurrence_id": recurrence.map(JSONValue.string) ?? .null, "summary": .string(summary),
            "status": .string(status), "calendar": .string(calendar),
        ])
    }

    /// The week's occurrences from Monday to Saturday midnight, as JSON.
    static func weekJSON(calendar: String) -> JSONValue {
        .array([
            occurrence("2026-11-23T09:30:00+01:00", "2026-11-23T09:45:00+01:00", "Standup", uid: "standup@example.com",
                       recurrence: "2026-11-23T09:30:00+01:00", calendar: calendar),
            occurrence("2026-11-23T12:00:00+01:00", "2026-11-23T13:00:00+01:00", "Lunch", uid: "lunch@example.com",
                       calendar: calendar),
            occurrence("2026-11-23T14:00:00+01:00", "2026-11-23T15:00:00+01:00", "Design sync", uid: "design@example.com",
                       calendar: calendar),
            occurrence("2026-11-25T11:00:00+01:00", "2026-11-25T11:15:00+01:00", "Standup (moved)",
                       uid: "standup@example.com", recurrence: "2026-11-25T09:30:00+01:00", calendar: calendar),
            occurrence("2026-11-26T09:30:00+01:00", "2026-11-26T09:45:00+01:00", "Standup", uid: "standup@example.com",
                       recurrence: "2026-11-26T09:30:00+01:00", status: "cancelled", calendar: calendar),
            occurrence("2026-11-27T00:00:00+01:00", "2026-11-28T00:00:00+01:00", "Team offsite", uid: "offsite@example.com",
                       allDay: true, calendar: calendar),
            occurrence("2026-11-27T09:30:00+01:00", "2026-11-27T09:45:00+01:00", "Standup", uid: "standup@example.com",
                       recurrence: "2026-11-27T09:30:00+01:00", calendar: calendar),
        ])
    }

    /// The week's occurrences from Monday to Saturday midnight, as text.
    static let weekLines = [
        "2026-11-23T09:30:00+01:00  2026-11-23T09:45:00+01:00  Standup  uid standup@example.com  recurrence 2026-11-23T09:30:00+01:00",
        "2026-11-23T12:00:00+01:00  2026-11-23T13:00:00+01:00  Lunch  uid lunch@example.com",
        "2026-11-23T14:00:00+01:00  2026-11-23T15:00:00+01:00  Design sync  uid design@example.com",
        "2026-11-25T11:00:00+01:00  2026-11-25T11:15:00+01:00  Standup (moved)  uid standup@example.com  recurrence 2026-11-25T09:30:00+01:00",
        "2026-11-26T09:30:00+01:00  2026-11-26T09:45:00+01:00  Standup [cancelled]  uid standup@example.com  recurrence 2026-11-26T09:30:00+01:00",
        "2026-11-27T00:00:00+01:00  2026-11-28T00:00:00+01:00  Team offsite (all day)  uid offsite@example.com",
        "2026-11-27T09:30:00+01:00  2026-11-27T09:45:00+01:00  Standup  uid standup@example.com  recurrence 2026-11-27T09:30:00+01:00",
    ]

    static let window = ["--from", "2026-11-23 00:00", "--to", "2026-11-28 00:00"]

    // MARK: calendar list

    @Test func listPrintsTheWeekInStartOrderWithExclusionsMovesCancellationsAndAllDay() throws {
        let t = try Self.sandbox()
        let r = try t.run(["calendar", "list", "work.ics"] + Self.window)
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        #expect(r.lines == Self.weekLines)
    }

    @Test func listAsJSONIsOneArrayOfObjectsWithExactlyTheEightKeys() throws {
        let t = try Self.sandbox()
        let r = try t.run(["calendar", "list", "work.ics", "--json"] + Self.window)
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        #expect(r.stdout.hasSuffix("]\n"))
        let json = try r.json()
        #expect(json.elements.count == 7)
        for object in json.elements { #expect(object.keys == Self.jsonKeys) }
        #expect(json == Self.weekJSON(calendar: "work.ics"))
    }

    /// An all-day event is midnight to midnight in whatever zone reads it;
    /// a timed one keeps its instant.
    @Test func listShowsAllDayEventsFromLocalMidnightInAnyZone() throws {
        let t = try Sandbox(zone: "America/New_York", now: "2026-11-23 08:00")
        try t.write(Self.week, to: "work.ics")
        let r = try t.run("calendar", "list", "work.ics", "--from", "2026-11-27 00:00", "--to", "2026-11-28 00:00")
        #expect(r.status == 0, "\(r)")
        #expect(r.lines == [
            "2026-11-27T00:00:00-05:00  2026-11-28T00:00:00-05:00  Team offsite (all day)  uid offsite@example.com",
            "2026-11-27T03:30:00-05:00  2026-11-27T03:45:00-05:00  Standup  uid standup@example.com  recurrence 2026-11-27T03:30:00-05:00",
        ])
    }

    @Test func listFindsACalendarByItsNameInTheRules() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-23 08:00")
        // A relative path is relative to the rule file; ~ is HOME.
        try t.write(Self.week, to: "rules/work.ics")
        try t.write(ICS.calendar(ICS.event(
            "UID:lecture@example.com", "DTSTART:20261123T150000Z", "DTEND:20261123T163000Z", "SUMMARY:Algebra")),
            to: "home/lectures.ics")
        try t.write("""
            calendars:
              work: work.ics
              lectures: {path: ~/lectures.ics}
            """, to: "rules/rules.yaml")
        let rules = t.path("rules/rules.yaml")

        let work = try t.run(["calendar", "list", "work", "--rules", rules, "--json"] + Self.window)
        #expect(work.status == 0, "\(work)")
        #expect(try work.json() == Self.weekJSON(calendar: "work"))

        let lectures = try t.run("calendar", "list", "lectures", "--rules", rules,
                                 "--from", "2026-11-23 00:00", "--to", "2026-11-24 00:00")
        #expect(lectures.status == 0, "\(lectures)")
        #expect(lectures.lines == ["2026-11-23T16:00:00+01:00  2026-11-23T17:30:00+01:00  Algebra  uid lecture@example.com"])

        // Without --rules, the rule files in the configuration folder name it.
        try t.write(try String(contentsOfFile: rules, encoding: .utf8), to: "config/trackee/rules.yaml")
        try FileManager.default.copyItem(atPath: t.path("rules/work.ics"), toPath: t.path("config/trackee/work.ics"))
        let configured = try t.run(["calendar", "list", "work"] + Self.window)
        #expect(configured.status == 0, "\(configured)")
        #expect(configured.lines == Self.weekLines)
    }

    @Test func listReadsAVdirFolderSkippingHiddenFilesAndFilesThatAreNotICS() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-23 08:00")
        try t.write(ICS.calendar(ICS.event(
            "UID:standup@example.com", "DTSTART;TZID=Europe/Prague:20261123T093000",
            "DTEND;TZID=Europe/Prague:20261123T094500", "SUMMARY:Standup")), to: "vdir/standup.ics")
        // UTC times, an upper-case extension, and TEXT escapes.
        try t.write(ICS.calendar(ICS.event(
            "UID:cafe@example.com", "DTSTART:20261123T130000Z", "DTEND:20261123T140000Z",
            #"SUMMARY:Café "U Rohu"\, 2nd floor"#)), to: "vdir/CAFE.ICS")
        // None of these is read: each would be an error if it were.
        try t.write("BEGIN:VCALENDAR\r\nthis is not a calendar\r\n", to: "vdir/.hidden.ics")
        try t.write("not a calendar either\n", to: "vdir/notes.txt")
        try t.write("BEGIN:VCALENDAR\n", to: "vdir/.sync-state")
        try FileManager.default.createDirectory(atPath: t.path("vdir/archive.ics"), withIntermediateDirectories: true)

        let day = ["--from", "2026-11-23 00:00", "--to", "2026-11-24 00:00"]
        let text = try t.run(["calendar", "list", "vdir"] + day)
        #expect(text.status == 0, "\(text)")
        #expect(text.stderr == "")
        #expect(text.lines == [
            "2026-11-23T09:30:00+01:00  2026-11-23T09:45:00+01:00  Standup  uid standup@example.com",
            #"2026-11-23T14:00:00+01:00  2026-11-23T15:00:00+01:00  Café "U Rohu", 2nd floor  uid cafe@example.com"#,
        ])
        let json = try t.run(["calendar", "list", t.path("vdir"), "--json"] + day)
        #expect(json.status == 0, "\(json)")
        #expect(try json.json() == .array([
            Self.occurrence("2026-11-23T09:30:00+01:00", "2026-11-23T09:45:00+01:00", "Standup",
                            uid: "standup@example.com", calendar: t.path("vdir")),
            Self.occurrence("2026-11-23T14:00:00+01:00", "2026-11-23T15:00:00+01:00", #"Café "U Rohu", 2nd floor"#,
                            uid: "cafe@example.com", calendar: t.path("vdir")),
        ]))
        #expect(json.stdout.contains(#""summary":"Café \"U Rohu\", 2nd floor""#))
    }

    /// The window is `[from, to)`: an event ending at `from` or starting at
    /// `to` is outside it, one that overlaps either edge inside.
    @Test func listShowsWhatOverlapsTheWindowAndSaysSoWhenNothingDoes() throws {
        let t = try Self.sandbox()
        let none = try t.run("calendar", "list", "work.ics", "--from", "2026-11-23 09:45", "--to", "2026-11-23 12:00")
        #expect(none.status == 0, "\(none)")
        #expect(none.lines == ["no events from 2026-11-23T09:45:00+01:00 to 2026-11-23T12:00:00+01:00"])
        let noneJSON = try t.run("calendar", "list", "work.ics", "--json", "--from", "2026-11-23 09:45", "--to", "2026-11-23 12:00")
        #expect(noneJSON.stdout == "[]\n")
        let both = try t.run("calendar", "list", "work.ics", "--from", "2026-11-23 09:44", "--to", "2026-11-23 12:01")
        #expect(both.lines == [
            "2026-11-23T09:30:00+01:00  2026-11-23T09:45:00+01:00  Standup  uid standup@example.com  recurrence 2026-11-23T09:30:00+01:00",
            "2026-11-23T12:00:00+01:00  2026-11-23T13:00:00+01:00  Lunch  uid lunch@example.com",
        ])
        let backwards = try t.run("calendar", "list", "work.ics", "--from", "2026-11-24 00:00", "--to", "2026-11-23 00:00")
        #expect(backwards.status == 64)
        #expect(backwards.stdout == "")
        #expect(backwards.stderr == failure("--to must be after --from"))
    }

    // MARK: Calendars written oddly

    /// A calendar file with something trackee reads past, the warning it
    /// gives, and the standup that still loads around it.
    struct Odd: Sendable, CustomTestStringConvertible {
        var file: String
        var bytes: [UInt8]
        var warning: String
        var testDescription: String { file }

        init(_ file: String, _ lines: [String], _ warning: String) {
            self.init(file, Array(ICS.lines(lines).utf8), warning)
        }

        init(_ file: String, _ bytes: [UInt8], _ warning: String) {
            self.file = file
            self.bytes = bytes
            self.warning = warning
        }

        /// `BEGIN:VCALENDAR`, `VERSION`, `PRODID`, a standup on Monday, then
        /// `BEGIN:VEVENT` and a UID: the odd event's next property is on line 12.
        static let head = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//trackee tests//EN", "BEGIN:VEVENT", "UID:standup@example.com",
            "DTSTART;TZID=Europe/Prague:20261123T093000", "DURATION:PT15M", "SUMMARY:Standup", "END:VEVENT",
            "BEGIN:VEVENT", "UID:odd@example.com",
        ]
        static let start = "DTSTART;TZID=Europe/Prague:20261124T100000"
        static let tail = ["END:VEVENT", "END:VCALENDAR"]

        /// The standup, as `calendar list` prints it.
        static let standup = "2026-11-23T09:30:00+01:00  2026-11-23T09:45:00+01:00  Standup  uid standup@example.com"
        /// The odd event, when it loads: Tuesday 10:00, no length.
        static let odd = "2026-11-24T10:00:00+01:00  2026-11-24T10:00:00+01:00  Review  uid odd@example.com"

        static let all: [Odd] = [
            Odd("folding.ics", head + [start, "SUMMARY:Review", "DESCRIPTION:Weekly sync with a long na", "me that was folded"] + tail,
                #"folding.ics:15: ME: expected ":" before the value; skipped the property"#),
            Odd("leading-fold.ics", [" X-WR-CALNAME:Work"] + head + [start, "SUMMARY:Review"] + tail,
                "leading-fold.ics:1: a folded continuation line with no line before it; skipped the line"),
            Odd("date.ics", head + ["DTSTART;TZID=Europe/Prague:20261323T093000", "SUMMARY:Review"] + tail,
                #"date.ics:12: DTSTART: "20261323T093000" is not a date (20261123) or date-time (20261123T093000); skipped the event"#),
            Odd("rrule.ics", head + [start, "RRULE:FREQ=SOMETIMES;BYDAY=MO", "SUMMARY:Review"] + tail,
                #"rrule.ics:13: RRULE: cannot read "FREQ=SOMETIMES;BYDAY=MO"; skipped the event"#),
            Odd("tzid.ics", head + ["DTSTART;TZID=Mars/Olympus_Mons:20261124T100000", "SUMMARY:Review"] + tail,
                #"tzid.ics:12: DTSTART: unknown TZID "Mars/Olympus_Mons" (not a tzdata, Windows or Outlook name, and no usable VTIMEZONE in the file); read as floating time in the local zone"#),
            Odd("bare.ics", Array(head.dropFirst(3)) + [start, "SUMMARY:Review", "END:VEVENT"],
                "bare.ics:1: BEGIN:VEVENT outside BEGIN:VCALENDAR … END:VCALENDAR; read as if inside one"),
            Odd("end.ics", head + [start, "SUMMARY:Review", "END:VEVENT", "END:VCALENDER"],
                "end.ics:15: END:VCALENDER does not close BEGIN:VCALENDAR on line 1; taken as its END"),
            // "Café" in Latin-1: é is the single byte 233, at offset 291.
            Odd("latin1.ics", Array(ICS.lines(head + [start]).utf8) + Array("SUMMARY:Review at the Caf".utf8) + [0xE9, 0x0D, 0x0A]
                    + Array(ICS.lines(tail).utf8),
                "latin1.ics:13: the text is not UTF-8 (byte 233 at offset 291); read such bytes as U+FFFD"),
        ]

        /// What `calendar list` prints for the week.
        var listed: [String] {
            switch file {
            case "date.ics", "rrule.ics": [Self.standup]
            case "latin1.ics": [Self.standup, Self.odd.replacingOccurrences(of: "Review", with: "Review at the Caf\u{FFFD}")]
            default: [Self.standup, Self.odd]
            }
        }
    }

    @Test(arguments: Odd.all)
    func listReadsPastAnOddCalendarWithAWarningAndStrictRefusesIt(_ odd: Odd) throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-23 08:00")
        try t.write(bytes: odd.bytes, to: odd.file)
        let r = try t.run(["calendar", "list", odd.file] + Self.window)
        #expect(r.status == 0, "\(r)")
        #expect(r.lines == odd.listed)
        #expect(r.stderr == failure(odd.warning))
        let json = try t.run(["calendar", "list", odd.file, "--json"] + Self.window)
        #expect(json.status == 0)
        #expect(try json.json().elements.count == odd.listed.count)
        #expect(json.stderr == failure(odd.warning))
        let strict = try t.run(["calendar", "list", odd.file, "--strict"] + Self.window)
        #expect(strict.status == 65)
        #expect(strict.stdout == "")
        #expect(strict.stderr == failure(odd.warning) + failure("1 calendar warning (--strict)"))
    }

    @Test(arguments: Odd.all)
    func rulesCheckShowsAnOddCalendarsWarningsAndFailsOnlyWithStrict(_ odd: Odd) throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-20 12:00")
        try t.write(bytes: odd.bytes, to: odd.file)
        try t.write("""
            calendars:
              work: \(odd.file)
            rules:
              - id: meetings
                when: {calendar: work, offset: -2m}
                do: [{start: {project: Meetings}}]
            """, to: "rules.yaml")
        let warning = #"calendar "work": \#(t.path(odd.file))\#(odd.warning.dropFirst(odd.file.count))"#
        let upcoming = odd.listed.count == 1 ? "2026-11-23T09:28:00+01:00 Standup"
            : "2026-11-23T09:28:00+01:00 Standup, 2026-11-24T09:58:00+01:00 " + (odd.file == "latin1.ics" ? "Review at the Caf\u{FFFD}" : "Review")
        let r = try t.run("rules", "check", t.path("rules.yaml"))
        #expect(r.status == 0, "\(r)")
        #expect(r.lines == [#"rule "meetings""#, "  calendar work start -2m: \(upcoming)", "1 rule, no errors, 1 calendar warning"])
        #expect(r.stderr == failure(warning))
        let strict = try t.run("rules", "check", t.path("rules.yaml"), "--strict")
        #expect(strict.status == 65)
        #expect(strict.lines == [#"rule "meetings""#, "  calendar work start -2m: \(upcoming)"])
        #expect(strict.stderr == failure(warning) + failure("1 rule, no errors, 1 calendar warning (--strict)"))
        let json = try t.run("rules", "check", t.path("rules.yaml"), "--json")
        #expect(json.status == 0)
        #expect(json.stderr == "")
        #expect(try json.json()["warnings"] == .array([.string(warning)]))
    }

    @Test func commandsThatActOnRulesWriteCalendarWarningsAndGoOn() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-20 12:00")
        let odd = Odd.all.first { $0.file == "rrule.ics" }!
        try t.write(bytes: odd.bytes, to: odd.file)
        try t.write("""
            calendars:
              work: \(odd.file)
            rules:
              - id: meetings
                when: {calendar: work, offset: -2m}
                do: [{start: {project: Meetings}}]
            """, to: "rules.yaml")
        let warning = #"calendar "work": \#(t.path(odd.file))\#(odd.warning.dropFirst(odd.file.count))"#
        let next = try t.run("rules", "next", "--rules", t.path("rules.yaml"))
        #expect(next.status == 0, "\(next)")
        #expect(next.lines == ["2026-11-23T09:28:00+01:00  meetings  calendar work: Standup (start)"])
        #expect(next.stderr == failure(warning))
        let simulate = try t.run("simulate", "--from", "2026-11-23 00:00", "--to", "2026-11-24 00:00", "--rules", t.path("rules.yaml"))
        #expect(simulate.status == 0, "\(simulate)")
        #expect(simulate.stderr == failure(warning))
    }

    @Test func listShowsTheFirstTenWarningsThenCountsTheRest() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-23 08:00")
        let strays = (1...13).map { "X-LOST-\($0)=fold" }
        try t.write(ICS.lines(Array(Odd.head.prefix(3)) + strays + Array(Odd.head[3..<9]) + ["END:VCALENDAR"]), to: "many.ics")
        let r = try t.run(["calendar", "list", "many.ics"] + Self.window)
        #expect(r.status == 0, "\(r)")
        #expect(r.lines == [Odd.standup])
        #expect(r.stderr == ((1...10).map { #"many.ics:\#($0 + 3): X-LOST-\#($0): expected ":" before the value; skipped the property"# }
            + ["… and 3 more calendar warnings"]).map(failure).joined())
    }

    // MARK: Bad calendars

    /// A calendar file that cannot be read, the line at fault, and what
    /// trackee says about it.
    struct Malformed: Sendable, CustomTestStringConvertible {
        var file: String
        var bytes: [UInt8]
        var line: Int
        var message: String
        var testDescription: String { file }

        init(_ file: String, _ lines: [String], line: Int, _ message: String) {
            self.init(file, Array(ICS.lines(lines).utf8), line: line, message)
        }

        init(_ file: String, _ bytes: [UInt8], line: Int, _ message: String) {
            self.file = file
            self.bytes = bytes
            self.line = line
            self.message = message
        }

        /// `BEGIN:VCALENDAR`, `VERSION`, `PRODID`, `BEGIN:VEVENT` and a UID:
        /// the event's next property is on line 6.
        static let head = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//trackee tests//EN", "BEGIN:VEVENT", "UID:bad@example.com"]
        static let start = "DTSTART;TZID=Europe/Prague:20261123T093000"
        static let tail = ["END:VEVENT", "END:VCALENDAR"]

        /// A file cut off inside an event (being written) is the one left
        /// refused: the next read will see it whole.
        static let all: [Malformed] = [
            Malformed("truncated.ics", head + [start, "SUMMARY:Stand"], line: 7,
                      "the file ends inside VEVENT begun on line 4; is it cut off?"),
            Malformed("truncated-line.ics", Array(ICS.lines(head + [start]).utf8) + Array("SUMMARY:Sta".utf8), line: 7,
                      "the file ends inside VEVENT begun on line 4; is it cut off?"),
        ]
    }

    @Test(arguments: Malformed.all)
    func listRefusesAMalformedCalendarNamingTheFileAndLine(_ bad: Malformed) throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-23 08:00")
        try t.write(bytes: bad.bytes, to: bad.file)
        let r = try t.run(["calendar", "list", bad.file] + Self.window)
        #expect(r.status == 78)
        #expect(r.stdout == "")
        #expect(r.stderr == failure("\(bad.file):\(bad.line): \(bad.message)"))
        let json = try t.run(["calendar", "list", bad.file, "--json"] + Self.window)
        #expect(json.status == 78)
        #expect(json.stdout == "")
        #expect(json.stderr == failure("\(bad.file):\(bad.line): \(bad.message)"))
    }

    @Test(arguments: Malformed.all)
    func rulesCheckReportsAMalformedCalendarExits78AndStillListsTheRules(_ bad: Malformed) throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-20 12:00")
        try t.write(bytes: bad.bytes, to: bad.file)
        try t.write("""
            calendars:
              work: \(bad.file)
            rules:
              - id: office-hours
                when: {at: "Mon..Fri 09:00"}
                do: [{start: {project: Office}}]
              - id: meetings
                when: {calendar: work, offset: -2m}
                do: [{start: {project: Meetings}}]
            """, to: "rules.yaml")
        let r = try t.run("rules", "check", t.path("rules.yaml"))
        #expect(r.status == 78)
        #expect(r.lines == [
            #"rule "office-hours""#,
            "  at Mon..Fri 09:00: 2026-11-23T09:00:00+01:00, 2026-11-24T09:00:00+01:00, 2026-11-25T09:00:00+01:00",
            #"rule "meetings""#,
            "  calendar work start -2m: not read (see the error above)",
        ])
        #expect(r.stderr == failure("\(t.path("rules.yaml")):2:9: calendars.work: \(t.path(bad.file)):\(bad.line): \(bad.message)")
            + failure("2 rules, 1 error"))
    }

    @Test func aMissingCalendarIsAnErrorNamingItAndAnEmptyOneIsFine() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-20 12:00")
        let day = ["--from", "2026-11-23 00:00", "--to", "2026-11-24 00:00"]

        let path = try t.run(["calendar", "list", "./nowhere.ics"] + day)
        #expect(path.status == 78)
        #expect(path.stdout == "")
        #expect(path.stderr == failure("./nowhere.ics: no such calendar file or folder"))
        let name = try t.run(["calendar", "list", "nowhere"] + day)
        #expect(name.status == 78)
        #expect(name.stderr == failure("nowhere: no such calendar file or folder, and no calendar of that name in the rules"))

        try t.write("calendars:\n  work: work.ics\n  lectures: {path: ~/lectures.ics}\n", to: "rules.yaml")
        try t.write("", to: "work.ics")
        let named = try t.run(["calendar", "list", "nowhere", "--rules", t.path("rules.yaml")] + day)
        #expect(named.status == 78)
        #expect(named.stderr == failure(
            #"nowhere: no such calendar file or folder, and no calendar of that name in the rules (calendars: "work", "lectures")"#))
        let defined = try t.run(["calendar", "list", "lectures", "--rules", t.path("rules.yaml")] + day)
        #expect(defined.status == 78)
        #expect(defined.stderr == failure("\(t.path("home/lectures.ics")): no such calendar file or folder"))

        // An empty file and an empty folder hold no events, and that is all.
        let empty = try t.run(["calendar", "list", "work", "--rules", t.path("rules.yaml")] + day)
        #expect(empty.status == 0, "\(empty)")
        #expect(empty.lines == ["no events from 2026-11-23T00:00:00+01:00 to 2026-11-24T00:00:00+01:00"])
        try FileManager.default.createDirectory(atPath: t.path("home/lectures.ics"), withIntermediateDirectories: true)
        let folder = try t.run(["calendar", "list", "lectures", "--rules", t.path("rules.yaml"), "--json"] + day)
        #expect(folder.status == 0, "\(folder)")
        #expect(folder.stdout == "[]\n")

        // A bad file inside a folder is named by its own path.
        try t.write(ICS.lines(Malformed.head + ["DTSTART:20261323T093000"]), to: "home/lectures.ics/bad.ics")
        let inside = try t.run(["calendar", "list", "lectures", "--rules", t.path("rules.yaml")] + day)
        #expect(inside.status == 78)
        #expect(inside.stderr == failure(
            #"\#(t.path("home/lectures.ics/bad.ics")):6: the file ends inside VEVENT begun on line 4; is it cut off?"#))
    }

    @Test func rulesCheckNamesAMissingCalendarAndAcceptsAnEmptyOne() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-20 12:00")
        let rules = """
            calendars:
              work: work.ics
            rules:
              - id: meetings
                when: {calendar: work, offset: -2m}
                do: [{start: {project: Meetings}}]
            """
        try t.write(rules, to: "rules.yaml")
        // The error names where the rules name the calendar (line 2,
        // column 9: its path), and the trigger says it was not read rather
        // than that the calendar has no events.
        let named = "\(t.path("rules.yaml")):2:9: calendars.work: \(t.path("work.ics")): no such calendar file or folder"
        let missing = try t.run("rules", "check", t.path("rules.yaml"))
        #expect(missing.status == 78)
        #expect(missing.lines == [#"rule "meetings""#, "  calendar work start -2m: not read (see the error above)"])
        #expect(missing.stderr == failure(named) + failure("1 rule, 1 error"))
        let json = try t.run("rules", "check", t.path("rules.yaml"), "--json")
        #expect(json.status == 78)
        #expect(json.stderr == "")
        #expect(try json.json() == .object([
            "errors": .array([.string(named)]),
            "rules": .array([.object(["id": "meetings", "enabled": true, "triggers": .array([.object([
                "calendar": "work", "event": "start", "offset": "-2m",
            ])])])]),
        ]))

        try t.write("", to: "work.ics")
        let empty = try t.run("rules", "check", t.path("rules.yaml"))
        #expect(empty.status == 0, "\(empty)")
        #expect(empty.stderr == "")
        #expect(empty.lines == [
            #"rule "meetings""#, "  calendar work start -2m: no event ahead within a year", "1 rule, no errors",
        ])
    }

    // MARK: Calendar triggers in rule files

    @Test func aRuleNamingAnUndefinedCalendarIsAPositionedError() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-20 12:00")
        try t.write("""
            rules:
              - id: home
                when: {calendar: home}
                do: [{stop: }]
            """, to: "none.yaml")
        let none = try t.run("rules", "check", t.path("none.yaml"))
        #expect(none.status == 78)
        #expect(none.stdout == "")
        #expect(none.stderr == failure(
            #"\#(t.path("none.yaml")):3:22: rule "home": when.calendar: unknown calendar "home"; define it under calendars:, e.g. calendars: {home: ~/.calendars/home}"#)
            + failure("no rules, 1 error"))

        try t.write(Self.week, to: "work.ics")
        try t.write("""
            calendars:
              work: work.ics
            rules:
              - id: typo
                when: {calendar: wrok}
                do: [{stop: }]
              - id: ok
                when: {calendar: work, match: {summary: lunch}}
                do: [{stop: }]
            """, to: "typo.yaml")
        let typo = try t.run("rules", "check", t.path("typo.yaml"))
        #expect(typo.status == 78)
        #expect(typo.lines == [#"rule "ok""#, "  calendar work start: 2026-11-23T12:00:00+01:00 Lunch"])
        #expect(typo.stderr == failure(
            #"\#(t.path("typo.yaml")):5:22: rule "typo": when.calendar: unknown calendar "wrok"; did you mean "work"?"#)
            + failure("1 rule, 1 error"))
        // A command that acts on rules refuses them all.
        let tick = try t.run("tick", "--rules", t.path("typo.yaml"))
        #expect(tick.status == 78)
        #expect(tick.stdout == "")
        #expect(tick.stderr == failure(
            #"\#(t.path("typo.yaml")):5:22: rule "typo": when.calendar: unknown calendar "wrok"; did you mean "work"?"#))
    }

    @Test func calendarTriggerOptionsAreCheckedWhereTheyAreWritten() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-20 12:00")
        try t.write(Self.week, to: "work.ics")
        try t.write("""
            calendars:
              work: work.ics
            rules:
              - id: options
                when: {calendar: work, event: middle, offset: soon, all_day: maybe}
                do: [{stop: }]
              - id: match
                when: {calendar: work, match: {title: standup, summary: "/(/"}}
                do: [{stop: }]
              - id: flag
                when: {calendar: work, match: {summary: "/x/g"}}
                do: [{stop: }]
              - id: field
                when: {calendar: work}
                do: [{start: {project: "{{trigger.sumary}}"}}]
            """, to: "rules.yaml")
        let file = t.path("rules.yaml")
        let r = try t.run("rules", "check", file)
        #expect(r.status == 78)
        #expect(r.stdout == "")
        #expect(r.stderr == [
            #"\#(file):5:35: rule "options": when.event: expected start or end, found "middle""#,
            #"\#(file):5:51: rule "options": when.offset: expected an offset such as -5m, 10m or +1h, found "soon""#,
            #"\#(file):5:66: rule "options": when.all_day: expected include or exclude, found "maybe""#,
            #"\#(file):8:36: rule "match": when.match.title: unknown key "title"; use "summary", "description", "location", "categories""#,
            #"\#(file):8:61: rule "match": when.match.summary: invalid regex /(/: expected ')'"#,
            #"\#(file):11:45: rule "flag": when.match.summary: unknown regex flag "g" in /x/g; only i (ignore case) is supported"#,
            #"\#(file):15:28: rule "field": do[0].start.project: unknown template field "trigger.sumary"; did you mean "trigger.summary"?"#,
            "no rules, 7 errors",
        ].map(failure).joined())
    }

    @Test func rulesCheckListsCalendarFiringsWithSummariesAndOffsets() throws {
        let t = try Self.sandbox()
        let r = try t.run("rules", "check", t.path("rules.yaml"))
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        // Tuesday's standup is excluded; the Wednesday one moved to 11:00.
        #expect(r.lines == [
            #"rule "meetings""#,
            "  calendar work start -2m: 2026-11-23T09:28:00+01:00 Standup, 2026-11-23T13:58:00+01:00 Design sync, 2026-11-25T10:58:00+01:00 Standup (moved)",
            #"rule "meetings-end""#,
            "  calendar work end: 2026-11-23T09:45:00+01:00 Standup, 2026-11-23T13:00:00+01:00 Lunch, 2026-11-23T15:00:00+01:00 Design sync",
            "2 rules, no errors",
        ])
        // From Wednesday noon: Thursday's standup is cancelled, Friday's
        // offsite is all-day (excluded by default).
        let later = try t.run(["rules", "check", t.path("rules.yaml"), "--count", "2"], now: "2026-11-25 12:00")
        #expect(later.lines == [
            #"rule "meetings""#,
            "  calendar work start -2m: 2026-11-27T09:28:00+01:00 Standup, 2026-11-30T09:28:00+01:00 Standup",
            #"rule "meetings-end""#,
            "  calendar work end: 2026-11-27T09:45:00+01:00 Standup, 2026-11-30T09:45:00+01:00 Standup",
            "2 rules, no errors",
        ])
    }

    @Test func rulesCheckAsJSON() throws {
        let t = try Self.sandbox()
        let r = try t.run("rules", "check", t.path("rules.yaml"), "--json", "--count", "2")
        #expect(r.status == 0, "\(r)")
        #expect(try r.json() == .object([
            "errors": .array([]),
            "rules": .array([
                .object(["id": "meetings", "enabled": true, "triggers": .array([.object([
                    "calendar": "work", "event": "start", "offset": "-2m",
                    "upcoming": .array([
                        .object(["time": "2026-11-23T09:28:00+01:00", "summary": "Standup"]),
                        .object(["time": "2026-11-23T13:58:00+01:00", "summary": "Design sync"]),
                    ]),
                ])])]),
                .object(["id": "meetings-end", "enabled": true, "triggers": .array([.object([
                    "calendar": "work", "event": "end",
                    "upcoming": .array([
                        .object(["time": "2026-11-23T09:45:00+01:00", "summary": "Standup"]),
                        .object(["time": "2026-11-23T13:00:00+01:00", "summary": "Lunch"]),
                    ]),
                ])])]),
            ]),
        ]))
    }

    @Test func rulesNextMergesCalendarEdgesWithSchedulesInTimeOrder() throws {
        let t = try Self.sandbox()
        try t.write(Self.meetingRules + """

              - id: office-hours
                when: {at: "Mon..Fri 09:00"}
                do: [{start: {project: Office}}]
              - id: offsite
                when: {calendar: work, all_day: include, offset: +9h, match: {categories: offsite}}
                do: [{start: {project: "{{trigger.summary}}"}}]
            """, to: "rules.yaml")
        let r = try t.run("rules", "next", "--rules", t.path("rules.yaml"), "--count", "5")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        #expect(r.lines == [
            "2026-11-23T09:00:00+01:00  office-hours  Mon..Fri 09:00",
            "2026-11-23T09:28:00+01:00  meetings  calendar work: Standup (start)",
            "2026-11-23T09:45:00+01:00  meetings-end  calendar work: Standup (end)",
            "2026-11-23T13:00:00+01:00  meetings-end  calendar work: Lunch (end)",
            "2026-11-23T13:58:00+01:00  meetings  calendar work: Design sync (start)",
        ])
        let friday = try t.run("rules", "next", "--rules", t.path("rules.yaml"), "--count", "4",
                               "--from", "2026-11-25 12:00", "--json")
        #expect(friday.status == 0, "\(friday)")
        #expect(try friday.json() == .array([
            .object(["time": "2026-11-26T09:00:00+01:00", "rule": "office-hours", "expression": "Mon..Fri 09:00"]),
            .object(["time": "2026-11-27T09:00:00+01:00", "rule": "office-hours", "expression": "Mon..Fri 09:00"]),
            .object(["time": "2026-11-27T09:00:00+01:00", "rule": "offsite", "calendar": "work", "event": "start",
                     "summary": "Team offsite"]),
            .object(["time": "2026-11-27T09:28:00+01:00", "rule": "meetings", "calendar": "work", "event": "start",
                     "summary": "Standup"]),
        ]))
    }
}

// MARK: - Helpers

/// iCalendar text as calendar programs write it: CRLF line ends, one
/// VCALENDAR around the events.
///
/// ```swift
/// ICS.calendar(ICS.event("UID:a@example.com", "DTSTART:20261123T090000Z", "SUMMARY:Standup"))
/// ```
enum ICS {
    static func calendar(_ events: [String]...) -> String { calendar(events) }

    static func calendar(_ events: [[String]]) -> String {
        lines(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//trackee tests//EN"] + events.flatMap { $0 } + ["END:VCALENDAR"])
    }

    static func event(_ properties: String...) -> [String] { event(properties) }

    static func event(_ properties: [String]) -> [String] {
        ["BEGIN:VEVENT"] + properties + ["END:VEVENT"]
    }

    static func lines(_ lines: [String]) -> String {
        lines.map { $0 + "\r\n" }.joined()
    }
}

extension Sandbox {
    /// Every entry of `trackee log --json` at `now`, newest first.
    func loggedEntries(at now: String) throws -> JSONValue {
        let log = try run(["log", "--json"], now: now)
        #expect(log.status == 0, "\(log)")
        return .array(try log.json()["days"].elements.flatMap(\.["entries"].elements))
    }
}
