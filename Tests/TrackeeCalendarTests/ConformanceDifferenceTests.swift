import Testing
import TrackeeCore

@testable import TrackeeCalendar

/// Where trackee reads a calendar unlike recurring-ical-events on purpose
/// (README, "Calendar conformance"): each case is the shape of the package's
/// test calendar, and the test pins trackee's answer.
@Suite struct ConformanceDifferenceTests {
    let berlin = Zone.tzdata("Europe/Berlin")!

    func parse(_ lines: [String]) throws(CalendarError) -> EventCalendar {
        try EventCalendar.parse(Array(lines.joined(separator: "\r\n").utf8), file: "x.ics", name: "x", zone: berlin)
    }

    func starts(_ c: EventCalendar, _ from: String, _ to: String) -> [String] {
        c.occurrences(from: instant(from), to: instant(to)).map { berlin.iso8601($0.start) }
    }

    /// issue_61_time_zone_error.ics: read past, as the package does, with a
    /// warning; the event loads.
    @Test func aContinuationLineWithoutItsSpaceIsSkippedWithAWarningAtItsLine() throws {
        let c = try parse(["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a", "DTSTART;VALUE=DATE:20211215",
                           "ORGANIZER:X-CONFLUENCE-USER-KEY=8a4a;CN=Danie", "l Latham;CUTYPE=INDIVIDUAL:mailto:dlatham@apple.com",
                           "END:VEVENT", "END:VCALENDAR", ""])
        #expect(c.warnings.map(\.description) == [#"x.ics:6: L: expected ":" before the value; skipped the property"#])
        #expect(starts(c, "2021-12-01T00:00:00Z", "2022-01-01T00:00:00Z") == ["2021-12-15T00:00:00+01:00"])
    }

    /// issue_201_test_matrix.ics: the misspelled END is taken as the END of
    /// the component open, as the package reads it.
    @Test func anEndThatClosesNothingOpenIsTakenAsTheEndOfTheInnermostComponent() throws {
        let c = try parse(["BEGIN:VCALENDAR", "BEGIN:VTODO", "DTSTART:20000101T000000Z", "END:VTOOD",
                           "BEGIN:VEVENT", "UID:e", "DTSTART:20000102T000000Z", "END:VEVENT", "END:VCALENDAR", ""])
        #expect(c.warnings.map(\.description) == ["x.ics:4: END:VTOOD does not close BEGIN:VTODO on line 2; taken as its END"])
        #expect(starts(c, "2000-01-01T00:00:00Z", "2000-02-01T00:00:00Z") == ["2000-01-02T01:00:00+01:00"])
    }

    /// issue_201_test_matrix.ics: a floating DTSTART with a UTC DTEND starts
    /// at local wall time (the package reads it as UTC).
    @Test func aFloatingStartWithAUTCEndStartsAtLocalWallTime() throws {
        let c = try parse(["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:f", "DTSTART:20000101T000000",
                           "DTEND:20000103T020000Z", "END:VEVENT", "END:VCALENDAR", ""])
        let all = c.occurrences(from: instant("1999-12-01T00:00:00Z"), to: instant("2000-02-01T00:00:00Z"))
        #expect(all.map { "\(berlin.iso8601($0.start))/\(berlin.iso8601($0.end))" }
            == ["2000-01-01T00:00:00+01:00/2000-01-03T03:00:00+01:00"])
    }

    /// bad_rrule_missing_until_event.ics: the package refuses the calendar;
    /// trackee skips the event whose rule it cannot read and keeps the rest.
    @Test func anEventWithAnUnreadableRuleIsSkippedAndTheRestRead() throws {
        let c = try parse(["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:blabla", "DTSTART;TZID=Europe/London:20190801T140000",
                           "RRULE:FREQ=WEEKLY;UNTL=20191023;BYDAY=TH;WKST=SU", "END:VEVENT",
                           "BEGIN:VEVENT", "UID:other", "DTSTART;TZID=Europe/London:20190802T140000", "END:VEVENT",
                           "END:VCALENDAR", ""])
        #expect(c.warnings.map(\.description)
            == [#"x.ics:5: RRULE: cannot read "FREQ=WEEKLY;UNTL=20191023;BYDAY=TH;WKST=SU"; skipped the event"#])
        #expect(starts(c, "2019-07-01T00:00:00Z", "2019-12-01T00:00:00Z") == ["2019-08-02T15:00:00+02:00"])
    }

    /// issue_201_mixed_datetime_and_date.ics
    @Test func aDateStartWithATimedEndIsAnAllDayEventFromLocalMidnight() throws {
        let c = try parse(["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:m", "DTSTART;VALUE=DATE:20230724",
                           "DTEND:20230817T000000Z", "END:VEVENT", "END:VCALENDAR", ""])
        let all = c.occurrences(from: instant("2023-07-01T00:00:00Z"), to: instant("2023-09-01T00:00:00Z"))
        #expect(all.map { "\(berlin.iso8601($0.start))/\(berlin.iso8601($0.end)) \($0.allDay)" }
            == ["2023-07-24T00:00:00+02:00/2023-07-25T00:00:00+02:00 true"])
    }

    /// issue_28_rrule_with_UTC_endinginZ.ics: Outlook's UNTIL is the last
    /// day's midnight in its own zone (London), given in UTC.
    @Test func aUTCUntilOfAnAllDaySeriesKeepsTheDayWhoseLocalStartItReaches() throws {
        let c = try parse(["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:o", "DTSTART;VALUE=DATE:20200827",
                           "DTEND;VALUE=DATE:20200828", "RRULE:FREQ=WEEKLY;UNTIL=20200916T230000Z;INTERVAL=2;BYDAY=TH;WKST=MO",
                           "END:VEVENT", "END:VCALENDAR", ""])
        #expect(starts(c, "2020-08-01T00:00:00Z", "2020-10-01T00:00:00Z")
            == ["2020-08-27T00:00:00+02:00", "2020-09-10T00:00:00+02:00"])
        let london = Zone.tzdata("Europe/London")!
        let inLondon = try EventCalendar.parse(
            Array(["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:o", "DTSTART;VALUE=DATE:20200903",
                   "RRULE:FREQ=WEEKLY;UNTIL=20200916T230000Z;BYDAY=TH", "END:VEVENT", "END:VCALENDAR", ""].joined(separator: "\r\n").utf8),
            file: "x.ics", name: "x", zone: london)
        #expect(inLondon.occurrences(from: instant("2020-09-01T00:00:00Z"), to: instant("2020-10-01T00:00:00Z"))
            .map { london.iso8601($0.start) } == ["2020-09-03T00:00:00+01:00", "2020-09-10T00:00:00+01:00", "2020-09-17T00:00:00+01:00"])
    }

    /// issue_75_range_parameter.ics
    @Test func aDateUntilOfATimedSeriesIncludesItsWholeDay() throws {
        let c = try parse(["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:r", "DTSTART:20250916T120000Z",
                           "DTEND:20250916T140000Z", "RRULE:FREQ=DAILY;INTERVAL=2;UNTIL=20250920", "END:VEVENT", "END:VCALENDAR", ""])
        #expect(starts(c, "2025-09-15T00:00:00Z", "2025-09-30T00:00:00Z")
            == ["2025-09-16T14:00:00+02:00", "2025-09-18T14:00:00+02:00", "2025-09-20T14:00:00+02:00"])
    }
}
