import Testing
import TrackeeCore

@testable import TrackeeCalendar

// occurrences(from:to:) returns what overlaps [from, to): an occurrence
// that began before the window and is still going is in it, and a
// zero-length one counts at `from` but not at `to`.

@Suite("Windows")
struct WindowTests {
    @Test func anEventThatBeganBeforeTheWindowAndOverlapsItIsReturned() throws {
        let found = try calendar("window-edges.ics").occurrences("2026-11-23T09:00:00+01:00", "2026-11-23T10:00:00+01:00")
        #expect(found.map(\.uid) == ["conference@trackee.test", "reminder@trackee.test"])
        #expect(spans(found) == [
            "2026-11-22T18:00:00+01:00/2026-11-24T12:00:00+01:00",
            "2026-11-23T09:00:00+01:00/2026-11-23T09:00:00+01:00",
        ])
    }

    @Test func aZeroLengthEventAtTheWindowEndIsNotReturned() throws {
        let found = try calendar("window-edges.ics").occurrences("2026-11-23T08:00:00+01:00", "2026-11-23T09:00:00+01:00")
        #expect(found.map(\.uid) == ["conference@trackee.test"])
    }

    @Test func aSeriesInstanceThatBeganTheEveningBeforeIsReturned() throws {
        let found = try calendar("window-edges.ics").occurrences("2026-11-24T00:00:00+01:00", "2026-11-24T01:00:00+01:00")
        #expect(found.map(\.uid) == ["conference@trackee.test", "night-shift@trackee.test"])
        #expect(spans(found).last == "2026-11-23T22:00:00+01:00/2026-11-24T06:00:00+01:00")
        #expect(recurrenceIDs(found) == ["-", "2026-11-23T22:00:00+01:00"])
    }

    @Test func aLongRDatePeriodThatBeganBeforeTheWindowIsReturned() throws {
        // The ten-day PERIOD from 2026-03-10 09:00 covers 03-15. (recurring-ical-events 3.8.2
        // misses it in this window: it widens the window by the master's one hour only.)
        let found = try calendar("window-long-rdate-period.ics").occurrences("2026-03-15T00:00:00+01:00", "2026-03-16T00:00:00+01:00")
        #expect(spans(found) == ["2026-03-10T09:00:00+01:00/2026-03-20T09:00:00+01:00"])
        #expect(recurrenceIDs(found) == ["2026-03-10T09:00:00+01:00"])
    }

    // Walking a SECONDLY rule from 1970 to 2026 is 3.7 billion steps a
    // window; the limit fails the test long before that could finish.
    @Test(.timeLimit(.minutes(1)))
    func anEndlessSecondlySeriesFrom1970IsExpandedIn2026AtOnce() throws {
        let heartbeat = try calendar("window-secondly-since-1970.ics")
        let found = heartbeat.occurrences("2026-11-23T09:30:00+01:00", "2026-11-23T09:31:00+01:00")
        #expect(starts(found) == [
            "2026-11-23T09:30:00+01:00", "2026-11-23T09:30:15+01:00", "2026-11-23T09:30:30+01:00", "2026-11-23T09:30:45+01:00",
        ])
        #expect(starts(heartbeat.occurrences("2026-11-23T09:30:07+01:00", "2026-11-23T09:31:00+01:00")) == [
            "2026-11-23T09:30:15+01:00", "2026-11-23T09:30:30+01:00", "2026-11-23T09:30:45+01:00",
        ])
    }

    @Test(.timeLimit(.minutes(1)))
    func anEndlessDailySeriesFrom1900IsExpandedIn2026AtOnce() throws {
        let tea = try calendar("window-daily-since-1900.ics")
        let found = tea.occurrences("2026-11-23T00:00:00+01:00", "2026-11-25T00:00:00+01:00")
        #expect(spans(found) == [
            "2026-11-23T16:30:00+01:00/2026-11-23T17:00:00+01:00",
            "2026-11-24T16:30:00+01:00/2026-11-24T17:00:00+01:00",
        ])
        #expect(recurrenceIDs(found) == starts(found))
        #expect(starts(tea.occurrences("2026-03-29T00:00:00+01:00", "2026-03-30T00:00:00+02:00")) == ["2026-03-29T16:30:00+02:00"])
    }
}
