import Foundation
import GRDB
import Glibc
import Testing
import TrackeeTestSupport

/// `trackee run` holding a calendar in real time: the file is edited under
/// it, and it fires exactly the edges the new file has, none twice.
@Suite(.serialized) struct CalendarDaemonTests {
    let daemon = DaemonTests()

    /// `20261123T093000Z` for an instant.
    static func ical(_ seconds: Int) -> String {
        let t = Date(timeIntervalSince1970: TimeInterval(seconds))
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return f.string(from: t)
    }

    /// A series of eight one-second meetings four seconds apart from
    /// `start`, with `extra` lines in the series and `overrides` after it.
    static func calendar(start: Int, extra: String = "", overrides: String = "") -> String {
        """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//trackee tests//EN\r
        BEGIN:VEVENT\r
        UID:pulse@trackee.test\r
        DTSTART:\(ical(start))\r
        DURATION:PT1S\r
        RRULE:FREQ=SECONDLY;INTERVAL=4;COUNT=8\r
        SUMMARY:Pulse\r
        \(extra)END:VEVENT\r
        \(overrides)END:VCALENDAR\r

        """
    }

    @Test func editsUnderARunningDaemonFireExactlyTheNewFilesEdgesNoneTwice() async throws {
        let t = try daemon.sandbox(rules: """
            calendars:
              pulse: pulse.ics
            rules:
              - id: pulse
                when: {calendar: pulse}
                do: [{start: {project: "{{trigger.summary}}"}}]
            """)
        let t0 = Int(Date().timeIntervalSince1970) + 6
        let path = t.path("config/trackee/pulse.ics")
        try Self.calendar(start: t0).write(toFile: path, atomically: true, encoding: .utf8)
        let run = try t.launch(["run"])
        defer { run.stop() }

        // Once the second instance has fired, the file changes: the third
        // instance moves 6 s later, the fourth is cancelled, the fifth
        // excluded.
        #expect(daemon.eventuallyHolding(20) { daemon.firingCount(t) == 2 })
        try Self.calendar(
            start: t0, extra: "EXDATE:\(Self.ical(t0 + 16))\r\n",
            overrides: """
                BEGIN:VEVENT\r
                UID:pulse@trackee.test\r
                RECURRENCE-ID:\(Self.ical(t0 + 8))\r
                DTSTART:\(Self.ical(t0 + 14))\r
                DURATION:PT1S\r
                SUMMARY:Moved\r
                END:VEVENT\r
                BEGIN:VEVENT\r
                UID:pulse@trackee.test\r
                RECURRENCE-ID:\(Self.ical(t0 + 12))\r
                DTSTART:\(Self.ical(t0 + 12))\r
                DURATION:PT1S\r
                STATUS:CANCELLED\r
                SUMMARY:Pulse\r
                END:VEVENT\r

                """
        ).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(await daemon.eventually(90) { daemon.firingCount(t) == 6 })
        // Past the last instance, and a little more: nothing else fires.
        await pause(Double(t0 + 31) - Date().timeIntervalSince1970)
        run.signal(SIGTERM)
        let r = try await run.finish()
        #expect(r.status == 0)
        #expect(r.stderr.contains("calendar \"pulse\": \(path) changed; reading it again"))

        let firings = try daemon.rows(t, "SELECT key, occurred FROM rule_firing ORDER BY occurred").map {
            ($0[0] as String, Int($0[1] as Int64) - t0)
        }
        let rid = { (offset: Int) in "pulse@cal:pulse:pulse@trackee.test:\(t0 + offset):start" }
        #expect(firings.map(\.0) == [rid(0), rid(4), rid(8), rid(20), rid(24), rid(28)])
        #expect(firings.map(\.1) == [0, 4, 14, 20, 24, 28])
        let entries = try daemon.rows(t, "SELECT e.start, p.name FROM entry e JOIN project p ON p.id = e.project_id ORDER BY e.start")
            .map { "\(Int($0[0] as Int64) - t0) \($0[1] as String)" }
        #expect(entries == ["0 Pulse", "14 Moved", "20 Pulse"])
    }

    /// A calendar broken under the daemon keeps its last good contents; the
    /// error is logged once for the change, not on every pass; the other
    /// calendar goes on.
    @Test func aBrokenCalendarKeepsItsLastGoodContentsAndIsReportedOncePerChange() async throws {
        let t = try daemon.sandbox(rules: """
            calendars:
              pulse: pulse.ics
              other: other.ics
            rules:
              - id: pulse
                when: {calendar: pulse}
                do: [{start: {project: Pulse}}]
              - id: other
                when: {calendar: other}
                do: [{start: {project: Other}}]
            """)
        let t0 = Int(Date().timeIntervalSince1970) + 6
        let path = t.path("config/trackee/pulse.ics")
        try Self.calendar(start: t0).write(toFile: path, atomically: true, encoding: .utf8)
        try """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:other@trackee.test
            DTSTART:\(Self.ical(t0 + 18))
            SUMMARY:Other
            END:VEVENT
            END:VCALENDAR

            """.write(toFile: t.path("config/trackee/other.ics"), atomically: true, encoding: .utf8)
        let run = try t.launch(["run"])
        defer { run.stop() }
        // Held on the thread: the cut must come well before the series'
        // last instance, however busy the test pool is.
        #expect(daemon.eventuallyHolding(60) { daemon.firingCount(t) >= 1 })
        // Cut off inside the series, as a file being written is.
        let whole = Self.calendar(start: t0)
        try String(whole[..<whole.range(of: "END:VEVENT")!.lowerBound]).write(toFile: path, atomically: true, encoding: .utf8)
        // The series fires on from its last good contents, and the other
        // calendar's event fires in between.
        #expect(await daemon.eventually(90) { daemon.firingCount(t) == 9 })
        run.signal(SIGTERM)
        let r = try await run.finish()
        #expect(r.status == 0)
        let errors = r.stderr.split(separator: "\n").filter { $0.contains("error:") }
        #expect(errors == [
            #"trackee run: error: calendar "pulse": \#(path):9: the file ends inside VEVENT begun on line 4; is it cut off?; its last good contents stay in force"#,
        ])
        let rules = try daemon.rows(t, "SELECT rule FROM rule_firing ORDER BY occurred").map { $0[0] as String }
        #expect(rules == ["pulse", "pulse", "pulse", "pulse", "pulse", "other", "pulse", "pulse", "pulse"])
    }

    /// A calendar with something read past loads; its warning is logged
    /// when it is first read and again once for each change of the file,
    /// not when the rules are reloaded for another reason.
    @Test func aCalendarsWarningsAreLoggedOncePerChangeOfTheFile() async throws {
        let t = try daemon.sandbox(rules: """
            calendars:
              work: work.ics
            rules:
              - id: meetings
                when: {calendar: work}
                do: [{start: {project: Meetings}}]
            """)
        let path = t.path("config/trackee/work.ics")
        let text = """
            BEGIN:VCALENDAR\r
            BEGIN:VEVENT\r
            UID:review@trackee.test\r
            DTSTART:20300107T090000Z\r
            SUMMARY:Review\r
            SUMMARY=lost fold\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try t.launch(["run"])
        defer { run.stop() }
        let count = { (needle: String) in run.stderrSoFar.components(separatedBy: needle).count - 1 }
        #expect(await daemon.eventually(60) { count("loaded 1 rule") == 1 })
        // A rule file changes: everything is read again, the warning is not logged again.
        try (t.path("config/trackee/rules.yaml")).appendingLine("# touched")
        #expect(await daemon.eventually(60) { count("loaded 1 rule") == 2 })
        // The calendar file changes: its warning is logged once more.
        try (text + "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(await daemon.eventually(60) { count("deadlines re-armed") == 1 })
        run.signal(SIGTERM)
        let r = try await run.finish()
        #expect(r.status == 0)
        let warning = #"trackee run: warning: calendar "work": \#(path):6: SUMMARY: expected ":" before the value; skipped the property"#
        #expect(r.stderr.split(separator: "\n").filter { $0.contains("warning:") } == [Substring(warning), Substring(warning)])
        #expect(!r.stderr.contains("error:"))
    }
}

private extension String {
    /// Appends `line` to the file at this path.
    func appendingLine(_ line: String) throws {
        let old = try String(contentsOfFile: self, encoding: .utf8)
        try (old + "\n" + line + "\n").write(toFile: self, atomically: true, encoding: .utf8)
    }
}
