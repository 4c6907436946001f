import Testing
import TrackeeCore

@testable import TrackeeCalendar

// DATE and floating values, TZID resolution, X-WR-TIMEZONE and DST. The
// expected instants are RFC 5545 3.3.4, 3.3.5 and 3.3.10 read with tzdata;
// all were checked against recurring-ical-events 3.8.2.

private let saoPaulo = Zone.tzdata("America/Sao_Paulo")!
private let losAngeles = Zone.tzdata("America/Los_Angeles")!
private let havana = Zone.tzdata("America/Havana")!

@Suite("All-day and floating times")
struct LocalTimeTests {
    @Test(arguments: [
        (prague, "2026-11-23T00:00:00+01:00/2026-11-24T00:00:00+01:00"),
        (newYork, "2026-11-23T00:00:00-05:00/2026-11-24T00:00:00-05:00"),
    ])
    func aDateEventRunsFromTheLocalZonesMidnightToTheNext(zone: Zone, expected: String) throws {
        let found = try calendar("all-day-event.ics", zone: zone)
            .occurrences(from: instant("2026-11-01T00:00:00Z"), to: instant("2026-12-01T00:00:00Z"))
        #expect(spans(found, zone) == [expected])
        #expect(found.map(\.allDay) == [true])
        #expect(recurrenceIDs(found, zone) == ["-"])
    }

    @Test func aDateEventAcrossSpringForwardEndsAtLocalMidnightSeventyOneHoursLater() throws {
        let found = try calendar("all-day-across-dst.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
        #expect(spans(found) == ["2026-03-28T00:00:00+01:00/2026-03-31T00:00:00+02:00"])
        #expect(lengths(found) == [71 * 3600])
    }

    @Test func aDateEventOnADayWhoseMidnightIsSkippedStartsWhenTheDayBegins() throws {
        // Havana springs forward at 00:00 on 2026-03-08: the day begins at 01:00 CDT.
        let found = try calendar("all-day-midnight-gap.ics", zone: havana)
            .occurrences(from: instant("2026-03-01T00:00:00Z"), to: instant("2026-04-01T00:00:00Z"))
        #expect(spans(found, havana) == ["2026-03-08T01:00:00-04:00/2026-03-09T00:00:00-04:00"])
    }

    @Test(arguments: [
        (prague, ["2026-11-23T09:30:00+01:00/2026-11-23T09:45:00+01:00", "2026-11-24T09:30:00+01:00/2026-11-24T09:45:00+01:00"]),
        (newYork, ["2026-11-23T09:30:00-05:00/2026-11-23T09:45:00-05:00", "2026-11-24T09:30:00-05:00/2026-11-24T09:45:00-05:00"]),
    ])
    func floatingTimesAreWallTimesOfTheLocalZone(zone: Zone, expected: [String]) throws {
        let found = try calendar("floating-time.ics", zone: zone)
            .occurrences(from: instant("2026-11-01T00:00:00Z"), to: instant("2026-12-01T00:00:00Z"))
        #expect(spans(found, zone) == expected)
        #expect(recurrenceIDs(found, zone) == ["2026-11-23T09:30:00", "2026-11-24T09:30:00"])
    }
}

@Suite("TZID and X-WR-TIMEZONE")
struct ZoneNameTests {
    @Test func aCustomTZIDUsesTheFilesVTimezone() throws {
        // "Customer HQ" follows US rules (DST from the second Sunday of March, 2026-03-08).
        let found = try calendar("tzid-vtimezone-custom.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
        #expect(spans(found) == [
            "2026-03-02T15:00:00+01:00/2026-03-02T15:30:00+01:00",
            "2026-03-09T14:00:00+01:00/2026-03-09T14:30:00+01:00",
            "2026-03-16T14:00:00+01:00/2026-03-16T14:30:00+01:00",
        ])
        #expect(starts(found, newYork) == ["2026-03-02T09:00:00-05:00", "2026-03-09T09:00:00-04:00", "2026-03-16T09:00:00-04:00"])
    }

    @Test func anIANATZIDUsesTzdataEvenWhenTheFilesVTimezoneIsOutOfDate() throws {
        // The embedded America/Sao_Paulo still has the daylight time Brazil dropped in 2019
        // (it would make this 10:00-02:00); tzdata says -03:00.
        let found = try calendar("tzid-iana-with-stale-vtimezone.ics").occurrences("2026-01-01T00:00:00+01:00", "2026-02-01T00:00:00+01:00")
        #expect(spans(found, saoPaulo) == ["2026-01-15T10:00:00-03:00/2026-01-15T11:00:00-03:00"])
        #expect(starts(found) == ["2026-01-15T14:00:00+01:00"])
    }

    @Test func aWindowsTZIDWithAnOutlookVTimezoneIsCentralEuropeanTime() throws {
        // trackee maps the Windows name through CLDR (Europe/Berlin) before it looks at the
        // VTIMEZONE; recurring-ical-events reads the VTIMEZONE. Both agree on this file.
        let found = try calendar("tzid-windows-with-vtimezone.ics").occurrences("2026-10-01T00:00:00+02:00", "2026-12-01T00:00:00+01:00")
        #expect(spans(found) == [
            "2026-10-19T09:30:00+02:00/2026-10-19T10:00:00+02:00",
            "2026-10-26T09:30:00+01:00/2026-10-26T10:00:00+01:00",
            "2026-11-02T09:30:00+01:00/2026-11-02T10:00:00+01:00",
        ])
    }

    @Test func aWindowsTZIDWithoutVTimezoneIsMappedThroughCLDR() throws {
        // "Pacific Standard Time" is America/Los_Angeles, which falls back a week after Prague.
        let found = try calendar("tzid-windows-without-vtimezone.ics").occurrences("2026-10-01T00:00:00+02:00", "2026-12-01T00:00:00+01:00")
        #expect(spans(found, losAngeles) == [
            "2026-10-30T08:00:00-07:00/2026-10-30T09:00:00-07:00",
            "2026-11-06T08:00:00-08:00/2026-11-06T09:00:00-08:00",
        ])
        #expect(starts(found) == ["2026-10-30T16:00:00+01:00", "2026-11-06T17:00:00+01:00"])
    }

    @Test func aGoogleCalendarInUTCKeepsItsWeeklyWallTimeInTheXWRTimezoneAcrossDST() throws {
        // DTSTART 08:00Z is 09:00 in Prague; after 2026-03-29 the series stays at 09:00 (07:00Z),
        // as Google shows it (and as the x-wr-timezone package reads such files).
        let found = try calendar("x-wr-timezone-google.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-05-01T00:00:00+02:00")
        #expect(spans(found) == [
            "2026-03-16T09:00:00+01:00/2026-03-16T09:30:00+01:00",
            "2026-03-23T09:00:00+01:00/2026-03-23T09:30:00+01:00",
            "2026-03-30T09:00:00+02:00/2026-03-30T09:30:00+02:00",
            "2026-04-06T09:00:00+02:00/2026-04-06T09:30:00+02:00",
        ])
        #expect(found.map(\.uid) == Array(repeating: "1a2b3c4d5e6f7g8h9i0j@google.com", count: 4))
    }
}

@Suite("DST gaps and folds")
struct DSTTests {
    @Test func aWallTimeInTheSpringForwardGapMovesForwardByTheGap() throws {
        // 02:30 does not exist in Prague on 2026-03-29 (02:00 → 03:00): it is 03:30+02:00.
        let found = try calendar("dst-gap.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
        #expect(spans(found) == [
            "2026-03-27T02:30:00+01:00/2026-03-27T02:45:00+01:00",
            "2026-03-28T02:30:00+01:00/2026-03-28T02:45:00+01:00",
            "2026-03-29T03:30:00+02:00/2026-03-29T03:45:00+02:00",
            "2026-03-30T02:30:00+02:00/2026-03-30T02:45:00+02:00",
        ])
        #expect(recurrenceIDs(found) == starts(found))
    }

    @Test func aWallTimeInTheFallBackFoldMeansItsFirstOccurrence() throws {
        // 02:30 happens twice in Prague on 2026-10-25 (03:00 → 02:00): the first is +02:00.
        let found = try calendar("dst-fold.ics").occurrences("2026-10-01T00:00:00+02:00", "2026-11-01T00:00:00+01:00")
        #expect(spans(found) == [
            "2026-10-24T02:30:00+02:00/2026-10-24T02:45:00+02:00",
            "2026-10-25T02:30:00+02:00/2026-10-25T02:45:00+02:00",
            "2026-10-26T02:30:00+01:00/2026-10-26T02:45:00+01:00",
        ])
    }

    @Test func anExDateAndAnOverrideNameTheGapInstanceByItsWrittenWallTime() throws {
        let found = try calendar("dst-gap-exceptions.ics").occurrences("2026-03-27T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
        #expect(found.map(\.uid) == [
            "disk-check@trackee.test", "log-rotation@trackee.test", "log-rotation@trackee.test",
            "disk-check@trackee.test", "log-rotation@trackee.test",
        ])
        #expect(starts(found) == [
            "2026-03-28T02:30:00+01:00", "2026-03-28T02:30:00+01:00", "2026-03-29T05:00:00+02:00",
            "2026-03-30T02:30:00+02:00", "2026-03-30T02:30:00+02:00",
        ])
        #expect(recurrenceIDs(found) == [
            "2026-03-28T02:30:00+01:00", "2026-03-28T02:30:00+01:00", "2026-03-29T03:30:00+02:00",
            "2026-03-30T02:30:00+02:00", "2026-03-30T02:30:00+02:00",
        ])
    }
}
