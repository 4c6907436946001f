import Testing
import TrackeeTestSupport
import TrackeeCore

@testable import TrackeeCalendar

/// A one-event calendar in Prague with this DTSTART and RRULE.
private func series(_ start: String, _ rule: String) throws -> EventCalendar {
    let text = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//trackee//tests//EN\r
        BEGIN:VEVENT\r
        UID:series\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;TZID=Europe/Prague:\(start)\r
        DURATION:PT30M\r
        RRULE:\(rule)\r
        SUMMARY:Series\r
        END:VEVENT\r
        END:VCALENDAR\r

        """
    return try EventCalendar.parse(Array(text.utf8), file: "series.ics", name: "test", zone: prague)
}

private func startsIn2026And2028(_ calendar: EventCalendar) -> [String] {
    starts(calendar.occurrences("2026-01-01T00:00:00+01:00", "2029-01-01T00:00:00+01:00"))
}

/// The three kinds of rule libical expanded wrong, now computed by
/// `RuleExpansion` (the values agree with recurring-ical-events 3.8.2).
@Suite("RRULE: rules libical got wrong")
struct RuleExpansionTests {
    @Test func weeklyBySetPosPicksOneDayOfEachWeek() throws {
        // 2026-11-02 is a Monday: the first of Monday and Wednesday is Monday, once a week.
        let found = startsIn2026And2028(try series("20261102T090000", "FREQ=WEEKLY;BYDAY=MO,WE;BYSETPOS=1;COUNT=4"))
        #expect(found == [
            "2026-11-02T09:00:00+01:00", "2026-11-09T09:00:00+01:00", "2026-11-16T09:00:00+01:00",
            "2026-11-23T09:00:00+01:00",
        ])
    }

    @Test func dailyBySetPosPicksOneTimeOfEachDay() throws {
        let found = startsIn2026And2028(try series("20261102T170000", "FREQ=DAILY;BYHOUR=9,12,17;BYSETPOS=-1;COUNT=3"))
        #expect(found == ["2026-11-02T17:00:00+01:00", "2026-11-03T17:00:00+01:00", "2026-11-04T17:00:00+01:00"])
    }

    @Test func yearlyByMonthDayWithoutByMonthIsEveryMonth() throws {
        // RFC 5545 3.3.10's table: BYMONTHDAY expands a YEARLY rule; without BYMONTH, over every month.
        let found = startsIn2026And2028(try series("20260101T090000", "FREQ=YEARLY;BYMONTHDAY=1;COUNT=12"))
        #expect(found == [
            "2026-01-01T09:00:00+01:00", "2026-02-01T09:00:00+01:00", "2026-03-01T09:00:00+01:00",
            "2026-04-01T09:00:00+02:00", "2026-05-01T09:00:00+02:00", "2026-06-01T09:00:00+02:00",
            "2026-07-01T09:00:00+02:00", "2026-08-01T09:00:00+02:00", "2026-09-01T09:00:00+02:00",
            "2026-10-01T09:00:00+02:00", "2026-11-01T09:00:00+01:00", "2026-12-01T09:00:00+01:00",
        ])
    }

    @Test func anOrdinalWeekdayBesideByMonthDayIsComputedWhereLibicalRefusesIt() throws {
        // libical refuses this rule from a DTSTART in March (trackee used to
        // refuse the whole calendar). DTSTART is an instance as always; the
        // rule's own are the years whose first Friday is the 1st, 2nd or 3rd.
        let rule = "FREQ=YEARLY;BYDAY=1FR;BYMONTHDAY=1,2,3"
        let parsed = try #require(try? Libical.rule(rule).get())
        let start = TimeValue(local: LocalDateTime(year: 2026, month: 3, day: 10, hour: 9), isDate: false, isUTC: false)
        #expect(Libical.Iterator(parsed, start: start) == nil)
        let found = try series("20260310T090000", rule).occurrences("2026-01-01T00:00:00+01:00", "2034-01-01T00:00:00+01:00")
        #expect(starts(found) == [
            "2026-03-10T09:00:00+01:00", "2027-01-01T09:00:00+01:00", "2031-01-03T09:00:00+01:00",
            "2032-01-02T09:00:00+01:00",
        ])
    }

    @Test func yearlyFridayTheThirteenthIsEveryOneOfTheYear() throws {
        // libical gave DTSTART alone.
        let found = startsIn2026And2028(try series("20260313T090000", "FREQ=YEARLY;BYDAY=FR;BYMONTHDAY=13;COUNT=5"))
        #expect(found == [
            "2026-03-13T09:00:00+01:00", "2026-11-13T09:00:00+01:00", "2027-08-13T09:00:00+02:00",
            "2028-10-13T09:00:00+02:00",
        ])
    }

    @Test func theSecondTuesdayWhenItIsTheEighthNinthOrTenth() throws {
        let rule = "FREQ=MONTHLY;BYDAY=2TU;BYMONTHDAY=8,9,10;COUNT=5"
        #expect(startsIn2026And2028(try series("20260310T090000", rule)) == [
            "2026-03-10T09:00:00+01:00", "2026-06-09T09:00:00+02:00", "2026-09-08T09:00:00+02:00",
            "2026-11-10T09:00:00+01:00", "2026-12-08T09:00:00+01:00",
        ])
    }

    @Test func lastFridayWithinTheLastWeekOfMarchAndDecember() throws {
        let rule = "FREQ=YEARLY;BYDAY=-1FR;BYMONTHDAY=-1,-2,-3,-4,-5,-6,-7;BYMONTH=3,12;COUNT=4"
        #expect(startsIn2026And2028(try series("20260327T090000", rule)) == [
            "2026-03-27T09:00:00+01:00", "2026-12-25T09:00:00+01:00", "2027-03-26T09:00:00+01:00",
            "2027-12-31T09:00:00+01:00",
        ])
    }

    @Test func hourlyStepsKeepTheirPhaseThroughBYHOUR() throws {
        // Every fifth hour from 07:45 is at 07:45 again every fifth day; libical gave every day.
        let found = try series("20260106T074500", "FREQ=HOURLY;INTERVAL=5;BYHOUR=7;COUNT=3")
            .occurrences("2026-01-01T00:00:00+01:00", "2026-02-01T00:00:00+01:00")
        #expect(starts(found) == ["2026-01-06T07:45:00+01:00", "2026-01-11T07:45:00+01:00", "2026-01-16T07:45:00+01:00"])
    }

    @Test func hourlyByMonthDayKeepsTheStepsOfThatDay() throws {
        // Every fifth hour from 03:00 on 29 October, on the month's third-last day only.
        let found = try series("20261029T030000", "FREQ=HOURLY;INTERVAL=5;BYMONTHDAY=-3;COUNT=8")
            .occurrences("2026-10-01T00:00:00+02:00", "2027-01-01T00:00:00+01:00")
        #expect(starts(found) == [
            "2026-10-29T03:00:00+01:00", "2026-10-29T08:00:00+01:00", "2026-10-29T13:00:00+01:00",
            "2026-10-29T18:00:00+01:00", "2026-10-29T23:00:00+01:00", "2026-11-28T03:00:00+01:00",
            "2026-11-28T08:00:00+01:00", "2026-11-28T13:00:00+01:00",
        ])
    }

    // Where recurring-ical-events is wrong by RFC 5545 (README, "Calendar
    // conformance"), trackee's answer is pinned here.

    @Test func byDayWithAndWithoutOrdinalsIsTheUnionOfBoth() throws {
        // 3.3.10: each BYDAY entry names days of the set; the package keeps
        // only days matching both kinds, none, so it gives DTSTART alone.
        let found = startsIn2026And2028(try series("20261102T090000", "FREQ=MONTHLY;BYDAY=MO,1TU;COUNT=6"))
        #expect(found == [
            "2026-11-02T09:00:00+01:00", "2026-11-03T09:00:00+01:00", "2026-11-09T09:00:00+01:00",
            "2026-11-16T09:00:00+01:00", "2026-11-23T09:00:00+01:00", "2026-11-30T09:00:00+01:00",
        ])
    }

    @Test func weeklyBySetPosCountsInTheWholeWeekOfDTSTART() throws {
        // 3.3.10: BYSETPOS picks "within the interval", the week from WKST
        // (Monday 2 November); DTSTART is Wednesday 4 November, the second
        // of the week's Monday, Wednesday and Friday. The package counts
        // from DTSTART's day and takes Friday 6 November too.
        let found = startsIn2026And2028(try series("20261104T090000", "FREQ=WEEKLY;BYDAY=MO,WE,FR;BYSETPOS=1,2;COUNT=5"))
        #expect(found == [
            "2026-11-04T09:00:00+01:00", "2026-11-09T09:00:00+01:00", "2026-11-11T09:00:00+01:00",
            "2026-11-16T09:00:00+01:00", "2026-11-18T09:00:00+01:00",
        ])
    }

    /// A rule neither RuleExpansion nor libical can walk skips its event,
    /// with a warning naming the line and the rule; the calendar still loads.
    @Test func aRuleNothingCanExpandSkipsItsEventWithAWarningNamingItsLineAndRule() throws {
        let calendar = try series("20261102T090000", "FREQ=MONTHLY;BYWEEKNO=5")
        #expect(calendar.warnings.map(\.description) == [
            "series.ics:9: RRULE: libical cannot expand \"FREQ=MONTHLY;BYWEEKNO=5\" from DTSTART 20261102T090000; skipped the event",
        ])
        #expect(startsIn2026And2028(calendar) == [])
    }

    /// Jumping to a window's interval gives what walking from DTSTART gives.
    @Test func aWindowGivesTheInstancesOfTheWalkFromDTSTART() throws {
        var g = SeededGenerator(seed: 3_310)
        let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        var instances = 0
        for _ in 0..<600 {
            var parts = ["FREQ=" + g.pick(["DAILY", "WEEKLY", "MONTHLY", "YEARLY"])]
            if g.int(0...1) == 0 { parts.append("INTERVAL=\(g.int(1...4))") }
            if g.int(0...2) == 0 { parts.append("BYMONTH=\(g.int(1...12)),\(g.int(1...12))") }
            if g.int(0...2) == 0 { parts.append("BYMONTHDAY=\(g.pick([1, 5, 15, 28, -1, -3]))") }
            if g.int(0...1) == 0 {
                let ordinal = parts[0].hasSuffix("LY") && g.int(0...1) == 0 ? "\(g.pick([1, 2, -1, 3]))" : ""
                parts.append("BYDAY=\(ordinal)\(g.pick(days)),\(g.pick(days))")
            }
            if g.int(0...3) == 0 { parts.append("BYHOUR=\(g.int(0...11)),\(g.int(12...23))") }
            if g.int(0...3) == 0 { parts.append("BYSETPOS=\(g.pick([1, 2, -1, -2]))") }
            if g.int(0...3) == 0 { parts.append("WKST=\(g.pick(days))") }
            let text = parts.joined(separator: ";")
            let rule = try #require(try? Libical.rule(text).get())
            let start = LocalDateTime(date: LocalDate(year: 2025, month: 1, day: 1).adding(days: g.int(0...700)),
                                      hour: g.int(0...23), minute: g.pick([0, 30]))
            let expansion = try #require(RuleExpansion(rule.parts, start: TimeValue(local: start, isDate: false, isUTC: false)))
            let end = LocalDateTime(year: 2035, month: 1, day: 1)
            let walked = expansion.walls(from: start, through: end, until: nil)
            for _ in 0..<3 {
                let low = LocalDateTime(date: start.date.adding(days: g.int(-40...1500)), hour: g.int(0...23))
                let high = LocalDateTime(secondsSinceEpoch: low.secondsSinceEpoch + Int64(g.int(1...200)) * 86_400)
                let jumped = expansion.walls(from: low, through: high, until: nil)
                #expect(jumped == walked.filter { $0 >= low && $0 <= high }, "\(text) from \(start) over \(low) … \(high)")
                instances += jumped.count
            }
        }
        #expect(instances > 15_000)
    }
}
