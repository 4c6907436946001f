import Testing
import TrackeeCore

@testable import TrackeeCalendar

// RECURRENCE-ID (RFC 5545 3.8.4.4): a component with a RECURRENCE-ID
// replaces the instance whose original start it names. Checked against
// recurring-ical-events 3.8.2.

@Suite("RECURRENCE-ID overrides")
struct OverrideTests {
    @Test func anOverrideReplacesTheInstanceItNamesWithItsOwnTimeAndText() throws {
        let found = try calendar("override-moved.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
        #expect(spans(found) == [
            "2026-03-02T10:00:00+01:00/2026-03-02T11:00:00+01:00",
            "2026-03-10T14:00:00+01:00/2026-03-10T15:30:00+01:00",
            "2026-03-16T10:00:00+01:00/2026-03-16T11:00:00+01:00",
            "2026-03-23T10:00:00+01:00/2026-03-23T11:00:00+01:00",
        ])
        #expect(recurrenceIDs(found) == [
            "2026-03-02T10:00:00+01:00", "2026-03-09T10:00:00+01:00", "2026-03-16T10:00:00+01:00", "2026-03-23T10:00:00+01:00",
        ])
        #expect(found.map(\.summary) == ["Planning", "Planning (moved to Tuesday)", "Planning", "Planning"])
    }

    @Test func anInstanceMovedOutOfTheWindowLeavesNothingInItsOldPlace() throws {
        let oneOnOne = try calendar("override-moved-out-of-window.ics")
        #expect(oneOnOne.occurrences("2026-03-16T00:00:00+01:00", "2026-03-23T00:00:00+01:00").isEmpty)
        let moved = oneOnOne.occurrences("2026-04-06T00:00:00+02:00", "2026-04-13T00:00:00+02:00")
        #expect(spans(moved) == ["2026-04-07T15:00:00+02:00/2026-04-07T15:30:00+02:00"])
        #expect(recurrenceIDs(moved) == ["2026-03-16T13:00:00+01:00"])
        #expect(moved.map(\.summary) == ["1:1 with Jana (after her holiday)"])
    }

    @Test func anInstanceMovedIntoTheWindowIsFoundThereAndNotInItsOldPlace() throws {
        // The override comes before its series in the file and names its instance in UTC
        // (08:00Z is 10:00 CEST on 2026-04-06).
        let demo = try calendar("override-moved-into-window.ics")
        let week = demo.occurrences("2026-03-16T00:00:00+01:00", "2026-03-23T00:00:00+01:00")
        #expect(spans(week) == [
            "2026-03-16T10:00:00+01:00/2026-03-16T11:00:00+01:00",
            "2026-03-20T14:00:00+01:00/2026-03-20T15:00:00+01:00",
        ])
        #expect(recurrenceIDs(week) == ["2026-03-16T10:00:00+01:00", "2026-04-06T10:00:00+02:00"])
        #expect(week.map(\.summary) == ["Sprint demo", "Sprint demo (brought forward)"])
        #expect(demo.occurrences("2026-04-06T00:00:00+02:00", "2026-04-13T00:00:00+02:00").isEmpty)
    }

    @Test func thisAndFutureMovesEveryLaterInstanceByTheSameWallClockShift() throws {
        // RFC 5545 3.2.13: RANGE=THISANDFUTURE applies the change to this and every later
        // instance; 10:00 → 14:00 stays 14:00 after the 2026-03-29 DST change. Each
        // instance keeps its own original start as recurrence id (recurring-ical-events
        // gives them all the override's).
        let found = try calendar("override-this-and-future.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-05-01T00:00:00+02:00")
        #expect(spans(found) == [
            "2026-03-02T10:00:00+01:00/2026-03-02T11:00:00+01:00",
            "2026-03-09T10:00:00+01:00/2026-03-09T11:00:00+01:00",
            "2026-03-16T14:00:00+01:00/2026-03-16T15:00:00+01:00",
            "2026-03-23T14:00:00+01:00/2026-03-23T15:00:00+01:00",
            "2026-03-30T14:00:00+02:00/2026-03-30T15:00:00+02:00",
            "2026-04-06T14:00:00+02:00/2026-04-06T15:00:00+02:00",
        ])
        #expect(recurrenceIDs(found) == [
            "2026-03-02T10:00:00+01:00", "2026-03-09T10:00:00+01:00", "2026-03-16T10:00:00+01:00",
            "2026-03-23T10:00:00+01:00", "2026-03-30T10:00:00+02:00", "2026-04-06T10:00:00+02:00",
        ])
        #expect(found.map(\.summary) == [
            "Team sync", "Team sync", "Team sync (afternoons from now on)", "Team sync (afternoons from now on)",
            "Team sync (afternoons from now on)", "Team sync (afternoons from now on)",
        ])
    }

    @Test func thisAndFutureShiftAppliesInAWindowAfterTheOverride() throws {
        let later = try calendar("override-this-and-future.ics").occurrences("2026-03-30T00:00:00+02:00", "2026-04-05T00:00:00+02:00")
        #expect(spans(later) == ["2026-03-30T14:00:00+02:00/2026-03-30T15:00:00+02:00"])
        #expect(recurrenceIDs(later) == ["2026-03-30T10:00:00+02:00"])
    }
}

@Suite("STATUS:CANCELLED")
struct CancelledTests {
    @Test func aCancelledSeriesGivesEveryInstanceAsCancelled() throws {
        let found = try calendar("cancelled-series.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
        #expect(starts(found) == ["2026-03-02T12:00:00+01:00", "2026-03-03T12:00:00+01:00", "2026-03-04T12:00:00+01:00"])
        #expect(found.map(\.status) == [.cancelled, .cancelled, .cancelled])
    }

    @Test func aCancelledOverrideIsReturnedAsCancelledInItsInstancesPlace() throws {
        let found = try calendar("cancelled-override.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
        #expect(spans(found) == [
            "2026-03-03T18:00:00+01:00/2026-03-03T19:30:00+01:00",
            "2026-03-10T18:00:00+01:00/2026-03-10T19:30:00+01:00",
            "2026-03-17T18:00:00+01:00/2026-03-17T19:30:00+01:00",
        ])
        #expect(found.map(\.status) == [.confirmed, .cancelled, .confirmed])
        #expect(recurrenceIDs(found) == starts(found))
    }
}
