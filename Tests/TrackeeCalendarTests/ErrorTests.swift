import Foundation
import Testing
import TrackeeCore

@testable import TrackeeCalendar

// A calendar that cannot be read is an error naming the file and the line
// (0 for the file as a whole); nothing partial is returned.

@Suite("Errors")
struct ErrorTests {
    private func load(_ name: String) throws(CalendarError) -> EventCalendar {
        try EventCalendar.load(name: "test", path: calendarPath(name), zone: prague)
    }

    @Test func aContinuationLineWithoutItsLeadingSpaceIsAnErrorAtThatLine() {
        #expect(throws: CalendarError(
            file: calendarPath("invalid/bad-folding.ics"), line: 9,
            message: "MARKETING: expected \":\" before the value (is a folded line missing its leading space?)"
        )) { try load("invalid/bad-folding.ics") }
    }

    @Test func aDateThatDoesNotExistIsAnError() {
        #expect(throws: CalendarError(
            file: calendarPath("invalid/bad-date.ics"), line: 7,
            message: "DTSTART: \"20261345T100000\" is not a date (20261123) or date-time (20261123T093000)"
        )) { try load("invalid/bad-date.ics") }
    }

    @Test func anRRuleThatDoesNotParseIsAnError() {
        #expect(throws: CalendarError(
            file: calendarPath("invalid/bad-rrule.ics"), line: 8,
            message: "RRULE: cannot read \"FREQ=FORTNIGHTLY;BYDAY=MO\""
        )) { try load("invalid/bad-rrule.ics") }
    }

    @Test func anUnknownTZIDWithoutVTimezoneIsAnError() {
        // recurring-ical-events reads such a time as floating; trackee refuses to guess.
        #expect(throws: CalendarError(
            file: calendarPath("invalid/unknown-tzid.ics"), line: 7,
            message: "unknown TZID \"Head Office Time\": not a tzdata or Windows zone name, and the file has no VTIMEZONE for it"
        )) { try load("invalid/unknown-tzid.ics") }
    }

    @Test func aFileCutOffInsideAnEventIsAnErrorAtItsLastLine() {
        #expect(throws: CalendarError(
            file: calendarPath("invalid/truncated.ics"), line: 8,
            message: "the file ends inside VEVENT begun on line 4; is it cut off?"
        )) { try load("invalid/truncated.ics") }
    }

    @Test func bytesThatAreNotUTF8AreAnErrorAtTheirLine() {
        // Latin-1 "ü" (0xFC) in the SUMMARY on line 8, a CRLF file.
        #expect(throws: CalendarError(
            file: calendarPath("invalid/not-utf8.ics"), line: 8,
            message: "the text is not UTF-8 (byte 252 at offset 192)"
        )) { try load("invalid/not-utf8.ics") }
    }

    @Test func anEventWithoutDTStartIsAnErrorAtItsBegin() {
        #expect(throws: CalendarError(
            file: calendarPath("invalid/no-dtstart.ics"), line: 10, message: "VEVENT has no DTSTART"
        )) { try load("invalid/no-dtstart.ics") }
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
