import Foundation
import Testing
import TrackeeCore

@testable import TrackeeCalendar

// A calendar that cannot be read at all is an error naming the file and
// the line (0 for the file as a whole); nothing partial is returned. What
// can be read past (the files under Calendars/invalid/ but the cut-off one)
// loads, with a warning naming the file and line.

@Suite("Errors")
struct ErrorTests {
    private func load(_ name: String) throws(CalendarError) -> EventCalendar {
        try EventCalendar.load(name: "test", path: calendarPath(name), zone: prague)
    }

    private func warnings(_ c: EventCalendar) -> [String] { c.warnings.map(\.description) }

    @Test func aContinuationLineWithoutItsLeadingSpaceIsSkippedWithAWarningAtThatLine() throws {
        let c = try load("invalid/bad-folding.ics")
        #expect(warnings(c) == [calendarPath("invalid/bad-folding.ics") + #":9: MARKETING: expected ":" before the value; skipped the property"#])
        let found = c.occurrences("2026-11-23T00:00:00+01:00", "2026-11-24T00:00:00+01:00")
        #expect(found.map(\.summary) == ["Quarterly review with the product team and the people from"])
        #expect(starts(found) == ["2026-11-23T09:30:00+01:00"])
    }

    @Test func aDateThatDoesNotExistSkipsItsEvent() throws {
        let c = try load("invalid/bad-date.ics")
        #expect(warnings(c) == [calendarPath("invalid/bad-date.ics")
            + #":7: DTSTART: "20261345T100000" is not a date (20261123) or date-time (20261123T093000); skipped the event"#])
        #expect(c.eventCount == 0)
    }

    @Test func anRRuleThatDoesNotParseSkipsItsEvent() throws {
        let c = try load("invalid/bad-rrule.ics")
        #expect(warnings(c) == [calendarPath("invalid/bad-rrule.ics") + #":8: RRULE: cannot read "FREQ=FORTNIGHTLY;BYDAY=MO"; skipped the event"#])
        #expect(c.eventCount == 0)
    }

    @Test func anUnknownTZIDWithoutVTimezoneIsReadAsFloatingTimeWithOneWarning() throws {
        // As recurring-ical-events reads it; the warning is given once, at its first use.
        let c = try load("invalid/unknown-tzid.ics")
        #expect(warnings(c) == [calendarPath("invalid/unknown-tzid.ics")
            + #":7: DTSTART: unknown TZID "Head Office Time" (not a tzdata, Windows or Outlook name, and no usable VTIMEZONE in the file); read as floating time in the local zone"#])
        #expect(spans(c.occurrences("2026-11-23T00:00:00+01:00", "2026-11-24T00:00:00+01:00"))
            == ["2026-11-23T09:30:00+01:00/2026-11-23T10:00:00+01:00"])
    }

    @Test func aFileCutOffInsideAnEventIsAnErrorAtItsLastLine() {
        #expect(throws: CalendarError(
            file: calendarPath("invalid/truncated.ics"), line: 8,
            message: "the file ends inside VEVENT begun on line 4; is it cut off?"
        )) { try load("invalid/truncated.ics") }
    }

    @Test func bytesThatAreNotUTF8AreReadAsReplacementCharactersWithAWarningAtTheirLine() throws {
        // Latin-1 "ü" (0xFC) in the SUMMARY on line 8, a CRLF file.
        let c = try load("invalid/not-utf8.ics")
        #expect(warnings(c) == [calendarPath("invalid/not-utf8.ics") + ":8: the text is not UTF-8 (byte 252 at offset 192); read such bytes as U+FFFD"])
        #expect(c.occurrences("2026-11-23T00:00:00+01:00", "2026-11-24T00:00:00+01:00").map(\.summary) == ["Besprechung in Z\u{FFFD}rich"])
    }

    @Test func anEventWithoutDTStartIsSkippedAndTheOtherLoads() throws {
        let c = try load("invalid/no-dtstart.ics")
        #expect(warnings(c) == [calendarPath("invalid/no-dtstart.ics") + ":10: VEVENT has no DTSTART; skipped the event"])
        #expect(c.occurrences("2026-11-23T00:00:00+01:00", "2026-11-25T00:00:00+01:00").map(\.uid) == ["has-start@trackee.test"])
    }

    @Test func aMissingFileIsAnErrorAtLineZero() {
        #expect(throws: CalendarError(
            file: calendarPath("no-such-calendar.ics"), line: 0, message: "no such calendar file or folder"
        )) { try load("no-such-calendar.ics") }
        #expect(throws: CalendarError(
            file: calendarPath("vdir-no-such-folder/"), line: 0, message: "no such calendar file or folder"
        )) { try load("vdir-no-such-folder/") }
    }

    @Test func theErrorReadsAsFileLineAndMessage() {
        let error = CalendarError(file: "work/standup.ics", line: 9, message: "VEVENT has no DTSTART")
        #expect(error.description == "work/standup.ics:9: VEVENT has no DTSTART")
        #expect(CalendarError(file: "work", line: 0, message: "no such calendar file or folder").description
            == "work: no such calendar file or folder")
    }
}

@Suite("Files and vdir folders")
struct LoadTests {
    private let november = ("2026-11-01T00:00:00+01:00", "2026-12-01T00:00:00+01:00")

    @Test func anEmptyFileLoadsWithNoOccurrences() throws {
        let empty = try calendar("empty.ics")
        #expect(empty.eventCount == 0)
        #expect(empty.occurrences(november.0, november.1) == [])
    }

    @Test func anEmptyVdirFolderLoadsWithNoOccurrences() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackee-empty-vdir-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = try EventCalendar.load(name: "empty", path: folder.path, zone: prague)
        #expect(empty.eventCount == 0)
        #expect(empty.occurrences(november.0, november.1) == [])
    }

    @Test func aVdirFolderReadsItsICSFilesAndSkipsHiddenAndOtherFiles() throws {
        // Also in the folder: .hidden-draft.ics, lunch.ics.bak, color, displayname.
        let work = try calendar("vdir-mixed")
        let found = work.occurrences(november.0, november.1)
        #expect(work.eventCount == 2)
        #expect(found.map(\.uid) == ["vdir-standup@trackee.test", "vdir-review@trackee.test"])
        #expect(spans(found) == [
            "2026-11-23T09:30:00+01:00/2026-11-23T09:45:00+01:00",
            "2026-11-23T14:00:00+01:00/2026-11-23T15:00:00+01:00",
        ])
        #expect(found.map(\.calendar) == ["test", "test"])
    }
}
