import Testing
import TrackeeCore

@testable import TrackeeCalendar

// How long an instance lasts (RFC 5545 3.8.5.3 and 3.3.6): DTEND gives an
// exact duration that every instance keeps; DURATION is nominal in days and
// weeks (they follow the wall clock) and exact in hours, minutes and
// seconds; with neither, a DATE event lasts a day and a DATE-TIME one no
// time. recurring-ical-events 3.8.2 adds every length as wall time, so it
// differs on the two night-time instances below; trackee follows the RFC.

@Suite("Length")
struct LengthTests {
    @Test func dtEndGivesEveryInstanceTheSameExactLengthAcrossDST() throws {
        let found = try calendar("length-dtend.ics").occurrences("2026-03-27T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
        let focus = found.filter { $0.uid == "focus-hour@trackee.test" }
        #expect(spans(focus) == [
            "2026-03-27T09:00:00+01:00/2026-03-27T10:00:00+01:00",
            "2026-03-28T09:00:00+01:00/2026-03-28T10:00:00+01:00",
            "2026-03-29T09:00:00+02:00/2026-03-29T10:00:00+02:00",
            "2026-03-30T09:00:00+02:00/2026-03-30T10:00:00+02:00",
        ])
        #expect(lengths(focus) == [3600, 3600, 3600, 3600])
    }

    @Test func dtEndLengthStaysExactWhenAnInstanceSpansTheClockChange() throws {
        // 01:00–04:00 is 3 h; on 2026-03-29 the 3 h end at 05:00 CEST (the package says 04:00+02:00, 2 h).
        let shifts = try calendar("length-dtend.ics").occurrences("2026-03-27T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
            .filter { $0.uid == "night-shift@trackee.test" }
        #expect(spans(shifts) == [
            "2026-03-28T01:00:00+01:00/2026-03-28T04:00:00+01:00",
            "2026-03-29T01:00:00+01:00/2026-03-29T05:00:00+02:00",
        ])
        #expect(lengths(shifts) == [10_800, 10_800])
    }

    @Test func aDurationInDaysEndsAtTheSameWallTimeSoTheSpringForwardDayIs23Hours() throws {
        let passes = try calendar("length-duration.ics").occurrences("2026-03-27T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
            .filter { $0.uid == "day-pass@trackee.test" }
        #expect(spans(passes) == [
            "2026-03-27T12:00:00+01:00/2026-03-28T12:00:00+01:00",
            "2026-03-28T12:00:00+01:00/2026-03-29T12:00:00+02:00",
            "2026-03-29T12:00:00+02:00/2026-03-30T12:00:00+02:00",
        ])
        #expect(lengths(passes) == [86_400, 82_800, 86_400])
    }

    @Test func aDurationInHoursIsExact() throws {
        // PT3H from 01:00 on 2026-03-29 ends at 05:00 CEST (the package says 04:00+02:00).
        let jobs = try calendar("length-duration.ics").occurrences("2026-03-27T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
            .filter { $0.uid == "night-job@trackee.test" }
        #expect(spans(jobs) == [
            "2026-03-28T01:00:00+01:00/2026-03-28T04:00:00+01:00",
            "2026-03-29T01:00:00+01:00/2026-03-29T05:00:00+02:00",
        ])
    }

    @Test func withoutDtEndOrDurationADateLastsADayAndADateTimeNoTime() throws {
        let found = try calendar("length-none.ics").occurrences("2026-11-01T00:00:00+01:00", "2026-12-01T00:00:00+01:00")
        #expect(found.map(\.uid) == ["payday@trackee.test", "call-mum@trackee.test"])
        #expect(spans(found) == [
            "2026-11-25T00:00:00+01:00/2026-11-26T00:00:00+01:00",
            "2026-11-25T19:00:00+01:00/2026-11-25T19:00:00+01:00",
        ])
        #expect(found.map(\.allDay) == [true, false])
    }
}
