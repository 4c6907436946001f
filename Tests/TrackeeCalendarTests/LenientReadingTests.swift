import Testing
import TrackeeCore

@testable import TrackeeCalendar

/// What other programs write oddly is read past: the line, the event or
/// the TZID at fault is skipped or read as floating time, with one warning
/// naming file, line, property and what was done, and the rest of the
/// calendar loads. One test per kind of oddity, on a made-up calendar.
@Suite struct LenientReadingTests {
    /// `lines` joined with CRLF as the file `work.ics`, read in Prague.
    func read(_ lines: [String]) throws(CalendarError) -> EventCalendar {
        try EventCalendar.parse(Array((lines.joined(separator: "\r\n") + "\r\n").utf8), file: "work.ics", name: "work",
                                zone: prague)
    }

    func warnings(_ c: EventCalendar) -> [String] { c.warnings.map(\.description) }

    /// `START/END SUMMARY` of each occurrence in November 2026.
    func november(_ c: EventCalendar, _ zone: Zone = prague) -> [String] {
        c.occurrences("2026-11-01T00:00:00+01:00", "2026-12-01T00:00:00+01:00").map {
            "\(iso($0.start, zone))/\(iso($0.end, zone)) \($0.summary)"
        }
    }

    static let head = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//trackee tests//EN"]

    // MARK: Property lines without a proper colon

    @Test func aFoldedLineThatLostItsSpaceIsSkippedAndTheEventLoads() throws {
        let c = try read(Self.head + [
            "BEGIN:VEVENT", "UID:review@example.com", "DTSTART;TZID=Europe/Prague:20261123T093000",
            "DTEND;TZID=Europe/Prague:20261123T103000", "SUMMARY:Quarterly review",
            "SUMMARY=with the product team", "X-APPLE-RADIUS=49.9", "END:VEVENT", "END:VCALENDAR",
        ])
        #expect(warnings(c) == [
            #"work.ics:9: SUMMARY: expected ":" before the value; skipped the property"#,
            #"work.ics:10: X-APPLE-RADIUS: expected ":" before the value; skipped the property"#,
        ])
        #expect(november(c) == ["2026-11-23T09:30:00+01:00/2026-11-23T10:30:00+01:00 Quarterly review"])
    }

    @Test func aParameterWithNoValueAtTheEndOfTheLineSkipsTheProperty() throws {
        let c = try read(Self.head + [
            "BEGIN:VEVENT", "UID:lunch@example.com", "ORGANIZER;CN=Some One",
            "DTSTART;TZID=Europe/Prague:20261124T120000", "DURATION:PT1H", "SUMMARY:Lunch", "END:VEVENT", "END:VCALENDAR",
        ])
        #expect(warnings(c) == [#"work.ics:6: ORGANIZER: expected ":" before the value; skipped the property"#])
        #expect(november(c) == ["2026-11-24T12:00:00+01:00/2026-11-24T13:00:00+01:00 Lunch"])
    }

    @Test func spacesAroundNamesAndEqualsSignsAreTakenOutAndTheLineIsRead() throws {
        let c = try read(Self.head + [
            "REFRESH - INTERVAL; VALUE = DURATION:PT48H",
            "BEGIN:VEVENT", "UID:pickup@example.com", "DTSTART ; TZID = Europe/London :20261125T090000",
            "DURATION:PT30M", "SUMMARY:Waste pickup", "END:VEVENT", "END:VCALENDAR",
        ])
        #expect(warnings(c) == [
            "work.ics:4: REFRESH-INTERVAL: spaces around the name or a parameter; read without them",
            "work.ics:7: DTSTART: spaces around the name or a parameter; read without them",
        ])
        // 09:00 in London is 10:00 in Prague: the TZID was read.
        #expect(november(c) == ["2026-11-25T10:00:00+01:00/2026-11-25T10:30:00+01:00 Waste pickup"])
    }

    @Test func spacesInsideANameAreALostFoldNotASpacedName() throws {
        let c = try read(Self.head + [
            "BEGIN:VEVENT", "UID:org@example.com", "DTSTART;VALUE=DATE:20261126",
            "ORGANIZER;CN=Danie", "l Latham;CUTYPE=INDIVIDUAL:mailto:dl@example.com", "SUMMARY:Offsite", "END:VEVENT",
            "END:VCALENDAR",
        ])
        #expect(warnings(c) == [
            #"work.ics:7: ORGANIZER: expected ":" before the value; skipped the property"#,
            #"work.ics:8: L: expected ":" before the value; skipped the property"#,
        ])
        #expect(november(c) == ["2026-11-26T00:00:00+01:00/2026-11-27T00:00:00+01:00 Offsite"])
    }

    @Test func aContinuationLineOnTheFirstLineIsSkipped() throws {
        let c = try read([" X-STRAY:1"] + Self.head + [
            "BEGIN:VEVENT", "UID:a@example.com", "DTSTART:20261123T080000Z", "SUMMARY:A",
            "END:VEVENT", "END:VCALENDAR",
        ])
        #expect(warnings(c) == [
            "work.ics:1: a folded continuation line with no line before it; skipped the line",
        ])
        #expect(november(c) == ["2026-11-23T09:00:00+01:00/2026-11-23T09:00:00+01:00 A"])
    }

    // MARK: Components

    @Test func eventsWithNoVCalendarAroundThemAreReadAsOneCalendar() throws {
        let c = try read([
            "BEGIN:VEVENT", "UID:a@example.com", "DTSTART:20261123T080000Z", "SUMMARY:A", "END:VEVENT",
            "BEGIN:VEVENT", "UID:b@example.com", "DTSTART:20261124T080000Z", "SUMMARY:B", "END:VEVENT",
        ])
        #expect(warnings(c) == [
            "work.ics:1: BEGIN:VEVENT outside BEGIN:VCALENDAR … END:VCALENDAR; read as if inside one",
        ])
        #expect(november(c) == [
            "2026-11-23T09:00:00+01:00/2026-11-23T09:00:00+01:00 A", "2026-11-24T09:00:00+01:00/2026-11-24T09:00:00+01:00 B",
        ])
    }

    @Test func aComponentICalendarDoesNotDefineAroundTheCalendarIsLookedInto() throws {
        let c = try read(["BEGIN:X-FOO"] + Self.head + [
            "BEGIN:VEVENT", "UID:a@example.com", "DTSTART:20261123T080000Z", "SUMMARY:A", "END:VEVENT",
            "END:VCALENDAR", "END:X-FOO",
        ])
        #expect(warnings(c) == [
            "work.ics:1: BEGIN:X-FOO is not an iCalendar component; read the calendars and events inside it",
        ])
        #expect(november(c) == ["2026-11-23T09:00:00+01:00/2026-11-23T09:00:00+01:00 A"])
    }

    @Test func aNonStandardComponentInsideTheCalendarIsAllowedAndItsEventsRead() throws {
        // RFC 5545 allows x-comp and iana-comp inside VCALENDAR: no warning.
        let c = try read(Self.head + [
            "BEGIN:MYCOMP", "UID:1234", "BEGIN:VEVENT", "UID:inside@example.com", "DTSTART:20261123T080000Z",
            "SUMMARY:Inside", "END:VEVENT", "END:MYCOMP",
            "BEGIN:VEVENT", "UID:b@example.com", "DTSTART:20261124T080000Z", "SUMMARY:B", "END:VEVENT", "END:VCALENDAR",
        ])
        #expect(warnings(c) == [])
        #expect(november(c) == [
            "2026-11-23T09:00:00+01:00/2026-11-23T09:00:00+01:00 Inside",
            "2026-11-24T09:00:00+01:00/2026-11-24T09:00:00+01:00 B",
        ])
    }

    @Test func aMisspelledEndVCalendarIsTakenAsItsEnd() throws {
        let c = try read(Self.head + [
            "BEGIN:VEVENT", "UID:a@example.com", "DTSTART:20261123T080000Z", "SUMMARY:A", "END:VEVENT", "END:VCALENDARD",
        ])
        #expect(warnings(c) == ["work.ics:9: END:VCALENDARD does not close BEGIN:VCALENDAR on line 1; taken as its END"])
        #expect(november(c) == ["2026-11-23T09:00:00+01:00/2026-11-23T09:00:00+01:00 A"])
    }

    @Test func aMissingEndVCalendarAtTheEndOfTheFileIsReadAsIfItWereThere() throws {
        let c = try read(Self.head + ["BEGIN:VEVENT", "UID:a@example.com", "DTSTART:20261123T080000Z", "SUMMARY:A", "END:VEVENT"])
        #expect(warnings(c) == [
            "work.ics:8: the file ends without END:VCALENDAR for BEGIN:VCALENDAR on line 1; read as if it were there",
        ])
        #expect(november(c) == ["2026-11-23T09:00:00+01:00/2026-11-23T09:00:00+01:00 A"])
    }

    @Test func anEventWithoutItsEndIsEndedWhereTheNextBegins() throws {
        let c = try read(Self.head + [
            "BEGIN:VEVENT", "UID:a@example.com", "DTSTART:20261123T080000Z", "SUMMARY:A",
            "BEGIN:VEVENT", "UID:b@example.com", "DTSTART:20261124T080000Z", "SUMMARY:B", "END:VEVENT", "END:VCALENDAR",
        ])
        #expect(warnings(c) == [
            "work.ics:8: BEGIN:VEVENT inside the VEVENT begun on line 4, which has no END:VEVENT; ended that one here",
        ])
        #expect(november(c).map { $0.split(separator: " ").last! } == ["A", "B"])
    }

    @Test func anEndThatSkipsAnInnerEndClosesBoth() throws {
        let c = try read(Self.head + [
            "BEGIN:VEVENT", "UID:a@example.com", "DTSTART:20261123T080000Z", "SUMMARY:A", "BEGIN:VALARM",
            "TRIGGER:-PT5M", "END:VEVENT", "END:VCALENDAR",
        ])
        #expect(warnings(c) == ["work.ics:10: END:VEVENT comes before the END of VALARM (line 8); ended it here"])
        #expect(november(c) == ["2026-11-23T09:00:00+01:00/2026-11-23T09:00:00+01:00 A"])
    }

    @Test func aFileCutOffInsideAnEventStaysAnError() {
        #expect(throws: CalendarError(file: "work.ics", line: 6, message: "the file ends inside VEVENT begun on line 4; is it cut off?")) {
            try read(Self.head + ["BEGIN:VEVENT", "UID:a@example.com", "DTSTART:2026112"])
        }
    }

    // MARK: Broken events

    @Test func anEventWhoseTimesCannotBeReadIsSkippedAndTheOthersLoad() throws {
        let c = try read(Self.head + [
            "BEGIN:VEVENT", "UID:date@example.com", "DTSTART:2026-11-23T09:00:00", "SUMMARY:Dashed", "END:VEVENT",
            "BEGIN:VEVENT", "UID:rule@example.com", "DTSTART:20261123T080000Z", "RRULE:FREQ=FORTNIGHTLY",
            "SUMMARY:Ruled", "END:VEVENT",
            "BEGIN:VEVENT", "UID:fine@example.com", "DTSTART:20261123T100000Z", "SUMMARY:Fine", "END:VEVENT",
            "BEGIN:VEVENT", "UID:end@example.com", "DTSTART:20261123T110000Z", "DTEND:soon", "SUMMARY:Ends", "END:VEVENT",
            "END:VCALENDAR",
        ])
        #expect(warnings(c) == [
            #"work.ics:6: DTSTART: "2026-11-23T09:00:00" is not a date (20261123) or date-time (20261123T093000); skipped the event"#,
            #"work.ics:12: RRULE: cannot read "FREQ=FORTNIGHTLY"; skipped the event"#,
            #"work.ics:23: DTEND: "soon" is not a date (20261123) or date-time (20261123T093000); skipped the event"#,
        ])
        #expect(november(c) == ["2026-11-23T11:00:00+01:00/2026-11-23T11:00:00+01:00 Fine"])
    }

    // MARK: TZIDs that real clients write

    @Test func aTZIDWithALeadingSlashOrAVendorPrefixIsTheTzdataNameAtItsEnd() throws {
        let tzids = ["/Europe/Stockholm", "/freeassociation.sourceforge.net/Tzfile/Europe/Vienna",
                     "/citadel.org/20190914_1/Europe/Berlin", "posix/Europe/Vaduz", "/America/New_York"]
        let events = tzids.enumerated().flatMap { i, tzid in
            ["BEGIN:VEVENT", "UID:\(i)@example.com", "DTSTART;TZID=\(tzid):2026112\(3 + i)T090000", "SUMMARY:\(tzid)", "END:VEVENT"]
        }
        let c = try read(Self.head + events + ["END:VCALENDAR"])
        #expect(warnings(c) == [])
        #expect(november(c) == [
            "2026-11-23T09:00:00+01:00/2026-11-23T09:00:00+01:00 /Europe/Stockholm",
            "2026-11-24T09:00:00+01:00/2026-11-24T09:00:00+01:00 /freeassociation.sourceforge.net/Tzfile/Europe/Vienna",
            "2026-11-25T09:00:00+01:00/2026-11-25T09:00:00+01:00 /citadel.org/20190914_1/Europe/Berlin",
            "2026-11-26T09:00:00+01:00/2026-11-26T09:00:00+01:00 posix/Europe/Vaduz",
            "2026-11-27T15:00:00+01:00/2026-11-27T15:00:00+01:00 /America/New_York",
        ])
    }

    @Test func anOutlookDisplayNameIsTheZoneOfItsFirstCityWithThatOffset() throws {
        let c = try read(Self.head + [
            "BEGIN:VEVENT", "UID:a@example.com",
            #"DTSTART;TZID="(UTC-05:00) Bogota, Lima, Quito, Rio Branco":20261123T090000"#, "SUMMARY:Bogota",
            "END:VEVENT",
            "BEGIN:VEVENT", "UID:b@example.com",
            #"DTSTART;TZID="(UTC+10:00) Canberra, Melbourne, Sydney":20261124T090000"#, "SUMMARY:Sydney", "END:VEVENT",
            "BEGIN:VEVENT", "UID:c@example.com", "DTSTART;TZID=Pacific Standard Time:20261125T090000",
            "SUMMARY:Windows name", "END:VEVENT",
            "END:VCALENDAR",
        ])
        #expect(warnings(c) == [])
        // Bogotá is UTC-5 all year; Sydney keeps summer time (UTC+11) in November.
        #expect(november(c) == [
            "2026-11-23T15:00:00+01:00/2026-11-23T15:00:00+01:00 Bogota",
            "2026-11-23T23:00:00+01:00/2026-11-23T23:00:00+01:00 Sydney",
            "2026-11-25T18:00:00+01:00/2026-11-25T18:00:00+01:00 Windows name",
        ])
    }

    @Test func aCustomTZIDWithNoVTimezoneIsFloatingOnXWRTimezoneOrTheLocalZone() throws {
        let event = ["BEGIN:VEVENT", "UID:a@example.com", "DTSTART;TZID=Head Office:20261123T090000",
                     "DTEND;TZID=Head Office:20261123T100000", "SUMMARY:All hands", "END:VEVENT",
                     "BEGIN:VEVENT", "UID:b@example.com", "DTSTART;TZID=Head Office:20261124T090000", "SUMMARY:Again",
                     "END:VEVENT"]
        let local = try read(Self.head + event + ["END:VCALENDAR"])
        #expect(warnings(local) == [
            #"work.ics:6: DTSTART: unknown TZID "Head Office" (not a tzdata, Windows or Outlook name, and no usable VTIMEZONE in the file); read as floating time in the local zone"#,
        ])
        #expect(november(local) == [
            "2026-11-23T09:00:00+01:00/2026-11-23T10:00:00+01:00 All hands",
            "2026-11-24T09:00:00+01:00/2026-11-24T09:00:00+01:00 Again",
        ])
        let google = try read(Self.head + ["X-WR-TIMEZONE:America/New_York"] + event + ["END:VCALENDAR"])
        #expect(warnings(google) == [
            #"work.ics:7: DTSTART: unknown TZID "Head Office" (not a tzdata, Windows or Outlook name, and no usable VTIMEZONE in the file); read as floating time on X-WR-TIMEZONE America/New_York's clock"#,
        ])
        #expect(november(google) == [
            "2026-11-23T15:00:00+01:00/2026-11-23T16:00:00+01:00 All hands",
            "2026-11-24T15:00:00+01:00/2026-11-24T15:00:00+01:00 Again",
        ])
    }

    // MARK: VTIMEZONEs written loosely

    @Test func aVTimezoneWithADateStartRDateObservancesAndATwinObservanceIsRead() throws {
        let c = try read(Self.head + [
            "BEGIN:VTIMEZONE", "TZID:Island Time",
            // A DATE start: its midnight.
            "BEGIN:STANDARD", "DTSTART;VALUE=DATE:20200101", "TZOFFSETFROM:+1100", "TZOFFSETTO:+1100", "END:STANDARD",
            // Summer time by RDATE alone: a period's start, and a DATE's midnight.
            "BEGIN:DAYLIGHT", "DTSTART:20261101T020000", "RDATE;VALUE=PERIOD:20271031T020000/PT1H", "TZOFFSETFROM:+1100",
            "TZOFFSETTO:+1200", "END:DAYLIGHT",
            "BEGIN:STANDARD", "DTSTART:20270301T030000", "RDATE;VALUE=DATE:20280301", "TZOFFSETFROM:+1200",
            "TZOFFSETTO:+1100", "END:STANDARD",
            // The same start and offset as the first, as Exchange writes a zone without DST.
            "BEGIN:DAYLIGHT", "DTSTART;VALUE=DATE:20200101", "TZOFFSETFROM:+1100", "TZOFFSETTO:+1100", "END:DAYLIGHT",
            "END:VTIMEZONE",
            "BEGIN:VEVENT", "UID:a@example.com", "DTSTART;TZID=Island Time:20261020T090000", "SUMMARY:Winter",
            "RDATE;TZID=Island Time:20261123T090000,20270320T090000,20271120T090000,20280305T090000", "END:VEVENT",
            "END:VCALENDAR",
        ])
        #expect(warnings(c) == [])
        #expect(c.occurrences("2026-10-01T00:00:00+02:00", "2028-04-01T00:00:00+02:00").map { iso($0.start, .utc) } == [
            "2026-10-19T22:00:00Z", "2026-11-22T21:00:00Z", "2027-03-19T22:00:00Z", "2027-11-19T21:00:00Z",
            "2028-03-04T22:00:00Z",
        ])
    }

    @Test func aVTimezoneThatCannotBeReadIsNotUsedAndItsTZIDFallsBack() throws {
        let c = try read(Self.head + [
            "BEGIN:VTIMEZONE", "TZID:Lab Time", "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+01",
            "TZOFFSETTO:+0100", "END:STANDARD", "END:VTIMEZONE",
            "BEGIN:VEVENT", "UID:a@example.com", "DTSTART;TZID=Lab Time:20261123T090000", "SUMMARY:Lab", "END:VEVENT",
            "END:VCALENDAR",
        ])
        #expect(warnings(c) == [
            #"work.ics:8: TZOFFSETFROM: expected an offset such as +0100, found "+01"; VTIMEZONE "Lab Time" not used"#,
            #"work.ics:14: DTSTART: unknown TZID "Lab Time" (not a tzdata, Windows or Outlook name, and no usable VTIMEZONE in the file); read as floating time in the local zone"#,
        ])
        #expect(november(c) == ["2026-11-23T09:00:00+01:00/2026-11-23T09:00:00+01:00 Lab"])
    }

    // MARK: Warnings

    @Test func manyWarningsAreShownTenThenCounted() throws {
        let strays = (1...12).map { "X-STRAY-\($0)=lost" }
        let c = try read(Self.head + strays + [
            "BEGIN:VEVENT", "UID:a@example.com", "DTSTART:20261123T080000Z", "SUMMARY:A", "END:VEVENT", "END:VCALENDAR",
        ])
        #expect(c.warnings.count == 12)
        let shown = CalendarWarning.shown(c.warnings)
        #expect(shown.count == 11)
        #expect(shown.first == #"work.ics:4: X-STRAY-1: expected ":" before the value; skipped the property"#)
        #expect(shown[9] == #"work.ics:13: X-STRAY-10: expected ":" before the value; skipped the property"#)
        #expect(shown.last == "… and 2 more calendar warnings")
        #expect(november(c) == ["2026-11-23T09:00:00+01:00/2026-11-23T09:00:00+01:00 A"])
    }
}
