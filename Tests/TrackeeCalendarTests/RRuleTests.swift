import Testing
import TrackeeCore

@testable import TrackeeCalendar

// Expected values are worked out from RFC 5545 3.3.10 and 3.8.5.3 (several
// are the RFC's own examples) and were checked against
// recurring-ical-events 3.8.2 over the same windows; where trackee
// answers differently on purpose, the test says so.

@Suite("RRULE: frequencies")
struct RRuleFrequencyTests {
    @Test func secondlyStepsByItsIntervalInSeconds() throws {
        let found = try calendar("rrule-secondly.ics").occurrences("2026-03-02T00:00:00+01:00", "2026-03-03T00:00:00+01:00")
        #expect(spans(found) == [
            "2026-03-02T09:00:00+01:00/2026-03-02T09:00:00+01:00",
            "2026-03-02T09:00:20+01:00/2026-03-02T09:00:20+01:00",
            "2026-03-02T09:00:40+01:00/2026-03-02T09:00:40+01:00",
            "2026-03-02T09:01:00+01:00/2026-03-02T09:01:00+01:00",
            "2026-03-02T09:01:20+01:00/2026-03-02T09:01:20+01:00",
        ])
        #expect(recurrenceIDs(found) == starts(found))
    }

    @Test func minutelyEveryFifteenMinutesForSixOccurrences() throws {
        // RFC 5545 3.8.5.3: "Every 15 minutes for 6 occurrences".
        let found = try calendar("rrule-minutely.ics").occurrences("2026-03-02T00:00:00+01:00", "2026-03-03T00:00:00+01:00")
        #expect(spans(found) == [
            "2026-03-02T09:00:00+01:00/2026-03-02T09:05:00+01:00",
            "2026-03-02T09:15:00+01:00/2026-03-02T09:20:00+01:00",
            "2026-03-02T09:30:00+01:00/2026-03-02T09:35:00+01:00",
            "2026-03-02T09:45:00+01:00/2026-03-02T09:50:00+01:00",
            "2026-03-02T10:00:00+01:00/2026-03-02T10:05:00+01:00",
            "2026-03-02T10:15:00+01:00/2026-03-02T10:20:00+01:00",
        ])
    }

    @Test func hourlyEveryThreeHoursUntilAUTCTime() throws {
        // UNTIL 16:00Z is 17:00 in Prague: 15:00 is the last instance, 18:00 is past it.
        let found = try calendar("rrule-hourly.ics").occurrences("2026-03-02T00:00:00+01:00", "2026-03-03T00:00:00+01:00")
        #expect(spans(found) == [
            "2026-03-02T09:00:00+01:00/2026-03-02T09:15:00+01:00",
            "2026-03-02T12:00:00+01:00/2026-03-02T12:15:00+01:00",
            "2026-03-02T15:00:00+01:00/2026-03-02T15:15:00+01:00",
        ])
    }

    @Test func dailyEveryTenDaysKeepsItsWallTimeAcrossDST() throws {
        // RFC 5545 3.8.5.3: "Every 10 days, 5 occurrences". Prague springs forward on 2026-03-29.
        let plants = try calendar("rrule-daily.ics")
        let found = plants.occurrences("2026-03-01T00:00:00+01:00", "2026-05-01T00:00:00+02:00")
        #expect(spans(found) == [
            "2026-03-02T09:00:00+01:00/2026-03-02T09:10:00+01:00",
            "2026-03-12T09:00:00+01:00/2026-03-12T09:10:00+01:00",
            "2026-03-22T09:00:00+01:00/2026-03-22T09:10:00+01:00",
            "2026-04-01T09:00:00+02:00/2026-04-01T09:10:00+02:00",
            "2026-04-11T09:00:00+02:00/2026-04-11T09:10:00+02:00",
        ])
        #expect(found.map(\.summary) == Array(repeating: "Water the office plants", count: 5))
    }

    @Test func countEndsTheSeries() throws {
        let found = try calendar("rrule-daily.ics").occurrences("2026-04-11T09:00:01+02:00", "2027-01-01T00:00:00+01:00")
        #expect(spans(found) == ["2026-04-11T09:00:00+02:00/2026-04-11T09:10:00+02:00"])
        #expect(try calendar("rrule-daily.ics").occurrences("2026-04-12T00:00:00+02:00", "2030-01-01T00:00:00+01:00").isEmpty)
    }

    @Test func weeklyEveryOtherWeekOnMondayWednesdayFridayUntilAUTCTime() throws {
        // RFC 5545 3.8.5.3: "Every other week on Monday, Wednesday, and Friday until …".
        let found = try calendar("rrule-weekly.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-05-01T00:00:00+02:00")
        #expect(starts(found) == [
            "2026-03-02T07:00:00+01:00", "2026-03-04T07:00:00+01:00", "2026-03-06T07:00:00+01:00",
            "2026-03-16T07:00:00+01:00", "2026-03-18T07:00:00+01:00", "2026-03-20T07:00:00+01:00",
            "2026-03-30T07:00:00+02:00", "2026-04-01T07:00:00+02:00", "2026-04-03T07:00:00+02:00",
        ])
        #expect(lengths(found) == Array(repeating: 3600, count: 9))
    }

    @Test func monthlyOnTheFifteenthAndThirtiethSkipsFebruaryThirtieth() throws {
        // RFC 5545 3.3.10: an invalid date (February 30) is ignored and not counted.
        let found = try calendar("rrule-monthly.ics").occurrences("2026-01-01T00:00:00+01:00", "2027-01-01T00:00:00+01:00")
        #expect(starts(found) == [
            "2026-01-15T09:00:00+01:00", "2026-01-30T09:00:00+01:00", "2026-02-15T09:00:00+01:00",
            "2026-03-15T09:00:00+01:00", "2026-03-30T09:00:00+02:00",
        ])
    }

    @Test func yearlyOnFebruaryTwentyNinthOccursInLeapYearsOnly() throws {
        let birthday = try calendar("rrule-yearly.ics")
        let found = birthday.occurrences("2024-01-01T00:00:00+01:00", "2033-01-01T00:00:00+01:00")
        #expect(spans(found) == [
            "2024-02-29T00:00:00+01:00/2024-03-01T00:00:00+01:00",
            "2028-02-29T00:00:00+01:00/2028-03-01T00:00:00+01:00",
            "2032-02-29T00:00:00+01:00/2032-03-01T00:00:00+01:00",
        ])
        #expect(recurrenceIDs(found) == ["2024-02-29", "2028-02-29", "2032-02-29"])
        #expect(found.map(\.allDay) == [true, true, true])
        // 2100 is not a leap year.
        #expect(starts(birthday.occurrences("2095-01-01T00:00:00+01:00", "2105-01-01T00:00:00+01:00"))
            == ["2096-02-29T00:00:00+01:00", "2104-02-29T00:00:00+01:00"])
    }
}

@Suite("RRULE: BY parts")
struct RRuleByPartTests {
    @Test func bySecondPicksSecondsInEachMinute() throws {
        let found = try calendar("rrule-bysecond.ics").occurrences("2026-03-02T00:00:00+01:00", "2026-03-03T00:00:00+01:00")
        #expect(starts(found) == [
            "2026-03-02T09:00:00+01:00", "2026-03-02T09:00:30+01:00", "2026-03-02T09:01:00+01:00", "2026-03-02T09:01:30+01:00",
        ])
    }

    @Test func byHourAndByMinuteExpandADailyRule() throws {
        let found = try calendar("rrule-byhour-byminute.ics").occurrences("2026-03-02T00:00:00+01:00", "2026-03-04T00:00:00+01:00")
        #expect(starts(found) == [
            "2026-03-02T09:00:00+01:00", "2026-03-02T09:40:00+01:00", "2026-03-02T12:00:00+01:00",
            "2026-03-02T12:40:00+01:00", "2026-03-02T16:00:00+01:00", "2026-03-02T16:40:00+01:00",
            "2026-03-03T09:00:00+01:00", "2026-03-03T09:40:00+01:00", "2026-03-03T12:00:00+01:00",
            "2026-03-03T12:40:00+01:00", "2026-03-03T16:00:00+01:00", "2026-03-03T16:40:00+01:00",
        ])
        #expect(lengths(found) == Array(repeating: 600, count: 12))
    }

    @Test func byDayPicksWeekdays() throws {
        let found = try calendar("rrule-byday.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-04-01T00:00:00+02:00")
        #expect(spans(found) == [
            "2026-03-03T10:00:00+01:00/2026-03-03T18:00:00+01:00",
            "2026-03-05T10:00:00+01:00/2026-03-05T18:00:00+01:00",
            "2026-03-10T10:00:00+01:00/2026-03-10T18:00:00+01:00",
            "2026-03-12T10:00:00+01:00/2026-03-12T18:00:00+01:00",
            "2026-03-17T10:00:00+01:00/2026-03-17T18:00:00+01:00",
            "2026-03-19T10:00:00+01:00/2026-03-19T18:00:00+01:00",
        ])
    }

    @Test func negativeByDayCountsFromTheEndOfTheMonth() throws {
        // -1FR: the last Friday of each month.
        let retro = try calendar("rrule-byday-negative.ics")
        #expect(starts(retro.occurrences("2026-01-01T00:00:00+01:00", "2026-07-01T00:00:00+02:00")) == [
            "2026-01-30T15:00:00+01:00", "2026-02-27T15:00:00+01:00", "2026-03-27T15:00:00+01:00",
            "2026-04-24T15:00:00+02:00", "2026-05-29T15:00:00+02:00", "2026-06-26T15:00:00+02:00",
        ])
        #expect(starts(retro.occurrences("2031-01-01T00:00:00+01:00", "2031-07-01T00:00:00+02:00")) == [
            "2031-01-31T15:00:00+01:00", "2031-02-28T15:00:00+01:00", "2031-03-28T15:00:00+01:00",
            "2031-04-25T15:00:00+02:00", "2031-05-30T15:00:00+02:00", "2031-06-27T15:00:00+02:00",
        ])
    }

    @Test func negativeByMonthDayIsTheLastDayOfEachMonth() throws {
        let close = try calendar("rrule-bymonthday-negative.ics")
        #expect(starts(close.occurrences("2026-01-01T00:00:00+01:00", "2026-07-01T00:00:00+02:00")) == [
            "2026-01-31T16:00:00+01:00", "2026-02-28T16:00:00+01:00", "2026-03-31T16:00:00+02:00",
            "2026-04-30T16:00:00+02:00", "2026-05-31T16:00:00+02:00", "2026-06-30T16:00:00+02:00",
        ])
    }

    @Test func byYearDayCountsFromBothEndsOfTheYear() throws {
        // Day 100 is April 10, or April 9 in a leap year; day -1 is December 31.
        let found = try calendar("rrule-byyearday.ics").occurrences("2026-01-01T00:00:00+01:00", "2030-01-01T00:00:00+01:00")
        #expect(recurrenceIDs(found) == ["2026-04-10", "2026-12-31", "2027-04-10", "2027-12-31", "2028-04-09", "2028-12-31"])
        #expect(spans(found) == [
            "2026-04-10T00:00:00+02:00/2026-04-11T00:00:00+02:00",
            "2026-12-31T00:00:00+01:00/2027-01-01T00:00:00+01:00",
            "2027-04-10T00:00:00+02:00/2027-04-11T00:00:00+02:00",
            "2027-12-31T00:00:00+01:00/2028-01-01T00:00:00+01:00",
            "2028-04-09T00:00:00+02:00/2028-04-10T00:00:00+02:00",
            "2028-12-31T00:00:00+01:00/2029-01-01T00:00:00+01:00",
        ])
    }

    @Test func byWeekNoIsTheISOWeekOfTheYear() throws {
        // RFC 5545 3.8.5.3: "Monday of week number 20"; week 1 holds the year's first Thursday.
        let planning = try calendar("rrule-byweekno.ics")
        #expect(starts(planning.occurrences("2026-01-01T00:00:00+01:00", "2029-01-01T00:00:00+01:00")) == [
            "2026-05-11T09:00:00+02:00", "2027-05-17T09:00:00+02:00", "2028-05-15T09:00:00+02:00",
        ])
        #expect(starts(planning.occurrences("2031-01-01T00:00:00+01:00", "2034-01-01T00:00:00+01:00")) == [
            "2031-05-12T09:00:00+02:00", "2032-05-10T09:00:00+02:00", "2033-05-16T09:00:00+02:00",
        ])
    }

    @Test func byMonthLimitsAYearlyRuleToItsMonths() throws {
        // RFC 5545 3.8.5.3: "Every Thursday in March, forever".
        let found = try calendar("rrule-bymonth.ics").occurrences("2026-01-01T00:00:00+01:00", "2028-01-01T00:00:00+01:00")
        #expect(starts(found) == [
            "2026-03-05T17:00:00+01:00", "2026-03-12T17:00:00+01:00", "2026-03-19T17:00:00+01:00", "2026-03-26T17:00:00+01:00",
            "2027-03-04T17:00:00+01:00", "2027-03-11T17:00:00+01:00", "2027-03-18T17:00:00+01:00", "2027-03-25T17:00:00+01:00",
        ])
    }

    @Test func bySetPosMinusOneIsTheLastWorkingDayOfTheMonth() throws {
        let due = try calendar("rrule-bysetpos.ics")
        #expect(starts(due.occurrences("2026-01-01T00:00:00+01:00", "2026-07-01T00:00:00+02:00")) == [
            "2026-01-30T16:00:00+01:00", "2026-02-27T16:00:00+01:00", "2026-03-31T16:00:00+02:00",
            "2026-04-30T16:00:00+02:00", "2026-05-29T16:00:00+02:00", "2026-06-30T16:00:00+02:00",
        ])
        #expect(starts(due.occurrences("2031-01-01T00:00:00+01:00", "2031-07-01T00:00:00+02:00")) == [
            "2031-01-31T16:00:00+01:00", "2031-02-28T16:00:00+01:00", "2031-03-31T16:00:00+02:00",
            "2031-04-30T16:00:00+02:00", "2031-05-30T16:00:00+02:00", "2031-06-30T16:00:00+02:00",
        ])
    }

    @Test func bySetPosThreePicksTheThirdOfTuesdayWednesdayThursday() throws {
        // RFC 5545 3.8.5.3, verbatim: "(1997 9:00 AM EDT) September 4;October 7 / (1997 9:00 AM EST) November 6".
        let found = try calendar("rrule-bysetpos-third.ics", zone: newYork)
            .occurrences("1997-09-01T00:00:00-04:00", "1998-01-01T00:00:00-05:00")
        #expect(starts(found, newYork) == ["1997-09-04T09:00:00-04:00", "1997-10-07T09:00:00-04:00", "1997-11-06T09:00:00-05:00"])
    }
}

@Suite("RRULE: UNTIL, WKST and DTSTART")
struct RRuleLimitTests {
    @Test func dateUntilOfAnAllDaySeriesIncludesThatDay() throws {
        let found = try calendar("rrule-until-date.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-05-01T00:00:00+02:00")
        #expect(recurrenceIDs(found) == ["2026-03-06", "2026-03-13", "2026-03-20", "2026-03-27"])
        #expect(spans(found).last == "2026-03-27T00:00:00+01:00/2026-03-28T00:00:00+01:00")
    }

    @Test func utcUntilIsComparedAsAnInstantAcrossDST() throws {
        // UNTIL 07:30Z is 09:30 CEST on 2026-03-31, the last instance; it would be 08:30 in winter time.
        let found = try calendar("rrule-until-utc.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-05-01T00:00:00+02:00")
        #expect(starts(found) == [
            "2026-03-23T09:30:00+01:00", "2026-03-24T09:30:00+01:00", "2026-03-25T09:30:00+01:00",
            "2026-03-26T09:30:00+01:00", "2026-03-27T09:30:00+01:00", "2026-03-28T09:30:00+01:00",
            "2026-03-29T09:30:00+02:00", "2026-03-30T09:30:00+02:00", "2026-03-31T09:30:00+02:00",
        ])
    }

    @Test(arguments: [
        (prague, ["2026-03-23T07:30:00+01:00", "2026-03-24T07:30:00+01:00", "2026-03-25T07:30:00+01:00", "2026-03-26T07:30:00+01:00"]),
        (newYork, ["2026-03-23T07:30:00-04:00", "2026-03-24T07:30:00-04:00", "2026-03-25T07:30:00-04:00", "2026-03-26T07:30:00-04:00"]),
    ])
    func localUntilOfAFloatingSeriesIsAWallTimeInTheLocalZone(zone: Zone, expected: [String]) throws {
        let found = try calendar("rrule-until-local.ics", zone: zone)
            .occurrences(from: instant("2026-03-01T00:00:00Z"), to: instant("2026-05-01T00:00:00Z"))
        #expect(starts(found, zone) == expected)
        #expect(recurrenceIDs(found, zone) == ["2026-03-23T07:30:00", "2026-03-24T07:30:00", "2026-03-25T07:30:00", "2026-03-26T07:30:00"])
    }

    // RFC 5545 3.8.5.3: "An example where the days generated makes a difference because of WKST".
    @Test func wkstMondayGivesTheRFCExampleDates() throws {
        let found = try calendar("rrule-wkst-mo.ics", zone: newYork).occurrences("1997-08-01T00:00:00-04:00", "1997-10-01T00:00:00-04:00")
        #expect(starts(found, newYork) == [
            "1997-08-05T09:00:00-04:00", "1997-08-10T09:00:00-04:00", "1997-08-19T09:00:00-04:00", "1997-08-24T09:00:00-04:00",
        ])
    }

    @Test func wkstSundayChangesTheSameRuleToOtherDates() throws {
        let found = try calendar("rrule-wkst-su.ics", zone: newYork).occurrences("1997-08-01T00:00:00-04:00", "1997-10-01T00:00:00-04:00")
        #expect(starts(found, newYork) == [
            "1997-08-05T09:00:00-04:00", "1997-08-17T09:00:00-04:00", "1997-08-19T09:00:00-04:00", "1997-08-31T09:00:00-04:00",
        ])
    }

    @Test func dtstartOffTheRuleIsAnExtraInstanceThatCountDoesNotInclude() throws {
        // RFC 5545 3.8.5.3 leaves a DTSTART that the rule does not produce undefined. trackee
        // follows recurring-ical-events (Series doc comment): DTSTART (a Monday) is an
        // instance, and COUNT=3 counts the three Tuesdays the rule gives.
        let found = try calendar("rrule-dtstart-off-rule.ics").occurrences("2026-03-01T00:00:00+01:00", "2026-05-01T00:00:00+02:00")
        #expect(starts(found) == [
            "2026-03-02T10:00:00+01:00", "2026-03-03T10:00:00+01:00", "2026-03-10T10:00:00+01:00", "2026-03-17T10:00:00+01:00",
        ])
    }
}

/// Instances of a sub-daily rule are DTSTART plus whole steps (RFC 5545
/// 3.3.10), however far past DTSTART the window is: libical's own jump
/// would restart the steps at the window's day.
@Suite struct SubDailyPhaseTests {
    @Test func aFiftyMinuteRuleKeepsItsStepsDaysAfterDTSTART() throws {
        let cal = try calendar("rrule-minutely-interval-phase.ics")
        #expect(starts(cal.occurrences("2026-03-04T08:00:00+01:00", "2026-03-04T12:00:00+01:00")) == [
            "2026-03-04T07:30:00+01:00", "2026-03-04T08:20:00+01:00", "2026-03-04T09:10:00+01:00",
            "2026-03-04T10:00:00+01:00", "2026-03-04T10:50:00+01:00", "2026-03-04T11:40:00+01:00",
        ])
        // The same instances whichever window finds them.
        #expect(starts(cal.occurrences("2026-03-04T22:00:00+01:00", "2026-03-05T02:00:00+01:00"))
            == starts(cal.occurrences("2026-03-04T00:00:00+01:00", "2026-03-05T02:00:00+01:00")).filter { $0 >= "2026-03-04T21:1" })
        #expect(starts(cal.occurrences("2026-03-05T00:00:00+01:00", "2026-03-05T02:00:00+01:00")) == [
            "2026-03-04T23:20:00+01:00", "2026-03-05T00:10:00+01:00", "2026-03-05T01:00:00+01:00", "2026-03-05T01:50:00+01:00",
        ])
    }
}
