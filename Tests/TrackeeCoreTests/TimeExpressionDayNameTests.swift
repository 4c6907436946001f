import Testing

@testable import TrackeeCore

// Expected instants from GNU date, e.g. `TZ=Europe/Prague date -d '2026-11-23 09:00' +%s`.

private let prague = try! Zone(identifier: "Europe/Prague")
private let newYork = try! Zone(identifier: "America/New_York")

/// Friday 2026-11-20T10:30:00Z: 11:30 CET in Prague, 05:30 EST in New York.
private let friday = Instant(seconds: 1_795_170_600)

private func parse(_ text: String, zone: Zone = prague, now: Instant = friday) throws(TimeParseError) -> Int64 {
    try TimeExpression.parse(text, now: now, zone: zone).seconds
}

@Suite("TimeExpression: weekday names")
struct TimeExpressionDayNameTests {
    /// Every weekday seen from a Friday, bare, with `next` and with `last`.
    @Test(arguments: [
        // bare: the coming one, or today
        ("monday", 1_795_388_400), ("tuesday", 1_795_474_800), ("wednesday", 1_795_561_200),
        ("thursday", 1_795_647_600), ("friday", 1_795_129_200), ("saturday", 1_795_215_600),
        ("sunday", 1_795_302_000),
        // next: strictly after today
        ("next monday", 1_795_388_400), ("next thursday", 1_795_647_600), ("next friday", 1_795_734_000),
        ("next saturday", 1_795_215_600),
        // last: strictly before today
        ("last monday", 1_794_783_600), ("last thursday", 1_795_042_800), ("last friday", 1_794_524_400),
        ("last saturday", 1_794_610_800), ("last sunday", 1_794_697_200),
    ])
    func weekdayIsTheStartOfThatLocalDay(_ text: String, _ expected: Int64) throws {
        #expect(try parse(text) == expected)
    }

    @Test(arguments: [
        ("mon", 1_795_388_400), ("tue", 1_795_474_800), ("wed", 1_795_561_200), ("thu", 1_795_647_600),
        ("fri", 1_795_129_200), ("sat", 1_795_215_600), ("sun", 1_795_302_000),
        ("Monday", 1_795_388_400), ("MON", 1_795_388_400), ("Next Fri", 1_795_734_000), ("LAST fri", 1_794_524_400),
        ("  next   monday  ", 1_795_388_400),
    ])
    func threeLettersAndAnyCaseMeanTheSameDay(_ text: String, _ expected: Int64) throws {
        #expect(try parse(text) == expected)
    }

    @Test func weekdayWithAWallTime() throws {
        #expect(try parse("monday 09:00") == 1_795_420_800)
        #expect(try parse("mon 9:00") == 1_795_420_800)
        #expect(try parse("friday 11:03") == 1_795_168_980)
        #expect(try parse("sat 9:30") == 1_795_249_800)
        #expect(try parse("next sunday 17:30") == 1_795_365_000)
        #expect(try parse("last fri 17:30") == 1_794_587_400)
        #expect(try parse("monday 09:00", zone: newYork) == 1_795_442_400)
    }

    @Test func weekdayIsCountedInTheZonesLocalDate() throws {
        // 2026-11-20T00:30Z is still Thursday the 19th in New York.
        let thursdayInNewYork = Instant(seconds: 1_795_134_600)
        #expect(try parse("friday", zone: newYork, now: thursdayInNewYork) == 1_795_150_800)
        #expect(try parse("friday", zone: prague, now: thursdayInNewYork) == 1_795_129_200)
        #expect(try parse("last friday", zone: newYork, now: thursdayInNewYork) == 1_794_546_000)
    }

    @Test func namedDaysStillParse() throws {
        #expect(try parse("today") == 1_795_129_200)
        #expect(try parse("yesterday") == 1_795_042_800)
        #expect(try parse("tomorrow 9:30") == 1_795_249_800)
    }
}

@Suite("TimeExpression: every weekday from every day of a week")
struct TimeExpressionDayNameWeekTests {
    static let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// Today is each day from Monday 2026-11-16 to Sunday 2026-11-22 at
    /// 12:00 UTC; the expected day is found by stepping day by day from
    /// today (bare: from today on; next: from tomorrow on; last: from
    /// yesterday back) until the weekday matches.
    @Test(arguments: 0..<7)
    func bareNextAndLastAgreeWithAStepByStepSearch(_ offset: Int) throws {
        let today = LocalDate(year: 2026, month: 11, day: 16).adding(days: offset)
        let now = Instant(seconds: today.daysSinceEpoch * 86_400 + 43_200)
        for (index, name) in Self.names.enumerated() {
            let weekday = index + 1
            func search(from start: Int, step: Int) -> Int64 {
                var day = today.adding(days: start)
                while day.weekday != weekday { day = day.adding(days: step) }
                return day.daysSinceEpoch * 86_400
            }
            for (typed, expected) in [
                (name, search(from: 0, step: 1)), (String(name.prefix(3)), search(from: 0, step: 1)),
                ("next " + name, search(from: 1, step: 1)), ("last " + name, search(from: -1, step: -1)),
            ] {
                #expect(try TimeExpression.parse(typed, now: now, zone: .utc).seconds == expected, "\(typed) on \(today)")
            }
        }
    }
}

@Suite("TimeExpression: weekday names across DST")
struct TimeExpressionDayNameDSTTests {
    /// Thursday 2026-10-22 12:00 CEST; clocks go back on Sunday the 25th.
    let beforeFallBack = Instant(seconds: 1_792_663_200)
    /// Friday 2026-03-27 12:00 CET; clocks go forward on Sunday the 29th.
    let beforeSpringForward = Instant(seconds: 1_774_609_200)

    @Test func sundayOfFallBackStartsAtCESTMidnightAndLasts25Hours() throws {
        #expect(try parse("sunday", now: beforeFallBack) == 1_792_879_200)
        #expect(try parse("monday", now: beforeFallBack) == 1_792_969_200)
        #expect(try parse("monday", now: beforeFallBack) - parse("sunday", now: beforeFallBack) == 90_000)
        #expect(try parse("last sunday", now: beforeFallBack) == 1_792_274_400)
    }

    @Test func sundayOfFallBackInTheFoldIsTheEarlierTime() throws {
        // 02:30 happens twice; the first is 02:30 CEST, 00:30Z.
        #expect(try parse("sunday 02:30", now: beforeFallBack) == 1_792_888_200)
    }

    @Test func sundayOfSpringForwardInTheGapMovesForward() throws {
        #expect(try parse("sunday", now: beforeSpringForward) == 1_774_738_800)
        // 02:30 never happens; it is read as 03:30 CEST, 01:30Z.
        #expect(try parse("sunday 02:30", now: beforeSpringForward) == 1_774_747_800)
        #expect(try parse("next monday", now: beforeSpringForward) == 1_774_821_600)
        #expect(try parse("next monday", now: beforeSpringForward) - parse("sunday", now: beforeSpringForward) == 82_800)
    }
}

@Suite("TimeExpression: weekday names refused")
struct TimeExpressionDayNameErrorTests {
    @Test(arguments: [
        "mond", "tues", "thurs", "mo", "next", "last", "next 9:00", "nextmonday", "lastfriday", "monday9:00",
        "next today", "last tomorrow", "this monday", "monday tuesday", "friday 25:00", "monday next",
        "next next monday", "mondays", "9:00 monday", "monday -2h", "montag",
    ])
    func refused(_ text: String) {
        let error = #expect(throws: TimeParseError.self) { try TimeExpression.parse(text, now: friday, zone: prague) }
        #expect(error == TimeParseError(input: text))
    }
}
