import Testing
import TrackeeCore

@testable import TrackeeCalendar

// One instance is one occurrence, however many components, rules or dates
// name it. Of several versions of a component the highest SEQUENCE wins
// (RFC 5546 2.1.5); checked against recurring-ical-events 3.8.2.

@Suite("Duplicates")
struct DuplicateTests {
    @Test func anITIPSeriesWithOldAndNewVersionsGivesTheNewestOfEachInstanceOnce() throws {
        // Master SEQUENCE 1 (09:00) loses to SEQUENCE 2 (10:00); of the two overrides of
        // 03-09, SEQUENCE 3 (11:00) wins over SEQUENCE 2 (11:30).
        let found = try calendar("duplicate-itip-series.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
        #expect(spans(found) == [
            "2026-03-02T10:00:00+01:00/2026-03-02T11:00:00+01:00",
            "2026-03-09T11:00:00+01:00/2026-03-09T12:00:00+01:00",
            "2026-03-16T10:00:00+01:00/2026-03-16T11:00:00+01:00",
            "2026-03-23T10:00:00+01:00/2026-03-23T11:00:00+01:00",
        ])
        #expect(found.map(\.summary) == ["Board meeting", "Board meeting (at 11)", "Board meeting", "Board meeting"])
        #expect(recurrenceIDs(found) == [
            "2026-03-02T10:00:00+01:00", "2026-03-09T10:00:00+01:00", "2026-03-16T10:00:00+01:00", "2026-03-23T10:00:00+01:00",
        ])
    }

    @Test func anEventAndASeriesListedTwiceInOneFileAppearOnce() throws {
        let found = try calendar("duplicate-event-listed-twice.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
        #expect(found.map(\.uid) == ["yoga@trackee.test", "dentist@trackee.test", "yoga@trackee.test"])
        #expect(starts(found) == ["2026-03-02T18:00:00+01:00", "2026-03-04T08:00:00+01:00", "2026-03-09T18:00:00+01:00"])
        #expect(recurrenceIDs(found) == ["2026-03-02T18:00:00+01:00", "-", "2026-03-09T18:00:00+01:00"])
    }

    @Test func theSameRuleTwiceAndAnOverlappingRuleGiveEachInstanceOnce() throws {
        // WEEKLY;BYDAY=MO;COUNT=3 twice, and MONTHLY;BYDAY=1MO,3MO;COUNT=2 (03-02 and 03-16 again).
        let found = try calendar("duplicate-rrule.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-05-01T00:00:00+02:00")
        #expect(starts(found) == ["2026-03-02T14:00:00+01:00", "2026-03-09T14:00:00+01:00", "2026-03-16T14:00:00+01:00"])
    }

    @Test func rDatesEqualToDTStartOrToARuleInstanceAddNothing() throws {
        // RDATEs 03-02 17:00 (DTSTART), 03-09 17:00 and 16:00Z on 03-16 (rule instances) are
        // already in the set; only 03-18 is new.
        let found = try calendar("duplicate-rdate.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-05-01T00:00:00+02:00")
        #expect(spans(found) == [
            "2026-03-02T17:00:00+01:00/2026-03-02T18:00:00+01:00",
            "2026-03-09T17:00:00+01:00/2026-03-09T18:00:00+01:00",
            "2026-03-16T17:00:00+01:00/2026-03-16T18:00:00+01:00",
            "2026-03-18T17:00:00+01:00/2026-03-18T18:00:00+01:00",
        ])
    }
}
