import Testing
import TrackeeCore

@testable import TrackeeCalendar

// RDATE and EXDATE (RFC 5545 3.8.5.1, 3.8.5.2): the recurrence set is
// DTSTART, the RRULE instances and the RDATEs, less the EXDATEs. Checked
// against recurring-ical-events 3.8.2.

@Suite("RDATE")
struct RDateTests {
    @Test func dateRDatesAddAllDayInstances() throws {
        let found = try calendar("rdate-date.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
        #expect(recurrenceIDs(found) == ["2026-03-02", "2026-03-05", "2026-03-09", "2026-03-12", "2026-03-16"])
        #expect(spans(found) == [
            "2026-03-02T00:00:00+01:00/2026-03-03T00:00:00+01:00",
            "2026-03-05T00:00:00+01:00/2026-03-06T00:00:00+01:00",
            "2026-03-09T00:00:00+01:00/2026-03-10T00:00:00+01:00",
            "2026-03-12T00:00:00+01:00/2026-03-13T00:00:00+01:00",
            "2026-03-16T00:00:00+01:00/2026-03-17T00:00:00+01:00",
        ])
        #expect(found.map(\.allDay) == [true, true, true, true, true])
    }

    @Test func dateTimeRDatesInSeveralPropertiesAndZonesMakeASeriesWithoutRRule() throws {
        // RDATE:20260309T090000Z is 10:00 in Prague; every instance keeps DTEND's hour.
        let found = try calendar("rdate-date-time.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
        #expect(spans(found) == [
            "2026-03-02T10:00:00+01:00/2026-03-02T11:00:00+01:00",
            "2026-03-04T10:00:00+01:00/2026-03-04T11:00:00+01:00",
            "2026-03-06T14:00:00+01:00/2026-03-06T15:00:00+01:00",
            "2026-03-09T10:00:00+01:00/2026-03-09T11:00:00+01:00",
        ])
        #expect(recurrenceIDs(found) == starts(found))
    }

    @Test func periodRDatesGiveTheirInstanceTheirOwnLength() throws {
        // 13:00–16:30 Prague, and 12:00Z for PT2H (13:00–15:00 Prague); the RRULE instances last 1 h.
        let found = try calendar("rdate-period.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
        #expect(spans(found) == [
            "2026-03-02T10:00:00+01:00/2026-03-02T11:00:00+01:00",
            "2026-03-04T13:00:00+01:00/2026-03-04T16:30:00+01:00",
            "2026-03-05T13:00:00+01:00/2026-03-05T15:00:00+01:00",
            "2026-03-09T10:00:00+01:00/2026-03-09T11:00:00+01:00",
        ])
    }
}

@Suite("EXDATE")
struct ExDateTests {
    @Test func exDatesAsDateUTCAndZonedValuesInSeveralPropertiesRemoveTheirInstances() throws {
        // Removed: 03-03 (a DATE: the whole day), 03-04 (08:00Z), 03-06 and 03-07 (two values
        // of one property), 03-09 (04:00 New York, which is 09:00 in Prague that day).
        let found = try calendar("exdate-forms.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
        #expect(spans(found) == [
            "2026-03-02T09:00:00+01:00/2026-03-02T09:15:00+01:00",
            "2026-03-05T09:00:00+01:00/2026-03-05T09:15:00+01:00",
            "2026-03-08T09:00:00+01:00/2026-03-08T09:15:00+01:00",
            "2026-03-10T09:00:00+01:00/2026-03-10T09:15:00+01:00",
            "2026-03-11T09:00:00+01:00/2026-03-11T09:15:00+01:00",
        ])
    }

    @Test func excludedInstancesStillCountTowardsCount() throws {
        // COUNT=10 weekdays from Monday 03-30 end on 04-10; the three excluded days are not replaced.
        let found = try calendar("exdate-all-day.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-05-01T00:00:00+02:00")
        #expect(recurrenceIDs(found) == ["2026-03-30", "2026-03-31", "2026-04-01", "2026-04-07", "2026-04-08", "2026-04-09", "2026-04-10"])
        #expect(starts(found) == [
            "2026-03-30T00:00:00+02:00", "2026-03-31T00:00:00+02:00", "2026-04-01T00:00:00+02:00",
            "2026-04-07T00:00:00+02:00", "2026-04-08T00:00:00+02:00", "2026-04-09T00:00:00+02:00",
            "2026-04-10T00:00:00+02:00",
        ])
    }
}
