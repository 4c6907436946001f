import Testing
import TrackeeCore
import TrackeeSchedule

// Expected values come from systemd 252, e.g.
// `TZ=UTC systemd-analyze calendar --iterations=3 --base-time='2026-10-24 12:00 UTC' '*-*-* 02:30 Europe/Prague'`.

private func elapses(_ expression: String, after base: String, zone: Zone = .utc, count: Int = 3) throws -> [Instant] {
    try CalendarSpec(expression).elapses(after: utc(base), zone: zone, count: count)
}

@Suite("CalendarSpec: normalized form")
struct CalendarSpecNormalizedTests {
    @Test(arguments: [
        ("minutely", "*-*-* *:*:00"),
        ("hourly", "*-*-* *:00:00"),
        ("daily", "*-*-* 00:00:00"),
        ("weekly", "Mon *-*-* 00:00:00"),
        ("monthly", "*-*-01 00:00:00"),
        ("yearly", "*-01-01 00:00:00"),
        ("Annually", "*-01-01 00:00:00"),
        ("quarterly", "*-01,04,07,10-01 00:00:00"),
        ("semiannually", "*-01,07-01 00:00:00"),
        ("Wed,mon 2:30 utc", "Mon,Wed *-*-* 02:30:00 UTC"),
        ("mon-wed,fri,sat 9:00", "Mon..Wed,Fri,Sat *-*-* 09:00:00"),
        ("Mon..Sun 06:00", "*-*-* 06:00:00"),
        ("*:0/15", "*-*-* *:00/15:00"),
        ("8..18/2:00", "*-*-* 08..18/2:00:00"),
        ("*-1..12/5-1", "*-01..11/5-01 00:00:00"),
        ("*-*-* 3,1,2,1:00", "*-*-* 01,02,03:00:00"),
        ("*:*:0/1,5", "*-*-* *:*:*"),
        ("26-03-29 02:30 Europe/Prague", "2026-03-29 02:30:00 Europe/Prague"),
        ("*-02~03", "*-02~03 00:00:00"),
        ("*-*~*", "*-*-* 00:00:00"),
        ("Mon *-05~07/1", "Mon *-05~07/1 00:00:00"),
        ("@1790000000", "2026-09-21 14:13:20 UTC"),
    ])
    func normalized(_ expression: String, _ expected: String) throws {
        #expect(try CalendarSpec(expression).normalized == expected)
    }

    @Test func equalWhenTheNormalizedFormsAre() throws {
        #expect(try CalendarSpec("Wed,Mon 9:00") == CalendarSpec("mon,wednesday *-*-* 09:00:00"))
        #expect(try CalendarSpec("daily") != CalendarSpec("daily UTC"))
    }
}

@Suite("CalendarSpec: daylight-saving changes")
struct CalendarSpecDSTTests {
    @Test func prague0230IsSkippedWhenClocksGoForward() throws {
        // 2026-03-29 has no 02:30 in Prague.
        #expect(try elapses("*-*-* 02:30 Europe/Prague", after: "2026-03-28 12:00", count: 2)
            == [utc("2026-03-30 00:30"), utc("2026-03-31 00:30")])
    }

    @Test func prague0230ElapsesOnceWhenClocksGoBack() throws {
        // 02:30 happens at 00:30Z (CEST) and at 01:30Z (CET); systemd takes the first.
        #expect(try elapses("*-*-* 02:30 Europe/Prague", after: "2026-10-24 12:00", count: 2)
            == [utc("2026-10-25 00:30"), utc("2026-10-26 01:30")])
        // The same without a suffix, in the caller's zone.
        #expect(try elapses("*-*-* 02:30", after: "2026-10-24 12:00", zone: prague, count: 2)
            == [utc("2026-10-25 00:30"), utc("2026-10-26 01:30")])
    }

    @Test func inTheRepeatedHourTheSecondPassCounts() throws {
        // From 02:00 CET, the second 02:00, systemd takes the 02:30 after it.
        #expect(try elapses("*-*-* 02:30 Europe/Prague", after: "2026-10-25 01:00", count: 1) == [utc("2026-10-25 01:30")])
        // From 01:45 EDT, in New York's first 01:xx, the next 01:30 is a day later.
        #expect(try elapses("*-*-* 01:30 America/New_York", after: "2026-11-01 05:45", count: 1) == [utc("2026-11-02 06:30")])
    }

    @Test func hourlySkipsTheRepeatedHour() throws {
        // 01:00 CEST, 02:00 CEST, then 03:00 CET: the second 02:00 (01:00Z) is left out.
        #expect(try elapses("hourly Europe/Prague", after: "2026-10-24 22:30", count: 4)
            == [utc("2026-10-24 23:00"), utc("2026-10-25 00:00"), utc("2026-10-25 02:00"), utc("2026-10-25 03:00")])
        #expect(try elapses("hourly", after: "2026-11-01 04:30", zone: newYork, count: 3)
            == [utc("2026-11-01 05:00"), utc("2026-11-01 07:00"), utc("2026-11-01 08:00")])
    }

    @Test func hourlyRunsOnWhenClocksGoForward() throws {
        // 01:00 CET, then 03:00 CEST: one hour apart, as every other hour.
        #expect(try elapses("hourly", after: "2026-03-28 23:30", zone: prague, count: 3)
            == [utc("2026-03-29 00:00"), utc("2026-03-29 01:00"), utc("2026-03-29 02:00")])
        #expect(try elapses("hourly America/New_York", after: "2026-03-08 05:30", count: 3)
            == [utc("2026-03-08 06:00"), utc("2026-03-08 07:00"), utc("2026-03-08 08:00")])
    }

    @Test func minutelyJumpsOverTheRepeatedHour() throws {
        #expect(try elapses("minutely Europe/Prague", after: "2026-10-25 00:58:30", count: 3)
            == [utc("2026-10-25 00:59"), utc("2026-10-25 02:00"), utc("2026-10-25 02:01")])
    }

    @Test func newYork0230IsSkippedWhenClocksGoForward() throws {
        #expect(try elapses("*-*-* 02:30 America/New_York", after: "2026-03-08 04:00", count: 2)
            == [utc("2026-03-09 06:30"), utc("2026-03-10 06:30")])
    }

    @Test func theSuffixWinsOverTheCallersZone() throws {
        let spec = try CalendarSpec("Mon 9:00 Asia/Kolkata")
        #expect(spec.next(after: utc("2026-10-25 01:00"), zone: newYork) == utc("2026-10-26 03:30"))
        #expect(spec.next(after: utc("2026-10-25 01:00"), zone: prague) == utc("2026-10-26 03:30"))
    }

    @Test func aCarriedDaylightFlagShiftsTheHourAsInSystemd() throws {
        // Months 1 and 9 from October: systemd reads 2028-01-01 00:00 with the
        // standard-time flag of the May it overshot to, which is 01:00 in
        // Chatham's summer; hence 01:14 (+13:45), not 00:14.
        let chatham = try Zone(identifier: "Pacific/Chatham")
        #expect(try elapses("*-1/8-* *:14", after: "2027-10-07 05:00", zone: chatham, count: 1) == [utc("2027-12-31 11:29")])
    }

    @Test func aSearchThatEndsUpBeforeItsStartMovesOnAnHour() throws {
        // From 01:52 on Lord Howe's spring-forward day minute 64 reads as
        // 02:34 (+11), the reset to 02:00 with that daylight flag reads back
        // as 01:30, and the search ends at 01:40, before it began; systemd
        // then tries again an hour later, at 02:40 (+11).
        let lordHowe = try Zone(identifier: "Australia/Lord_Howe")
        #expect(try elapses("*:4/12", after: "2026-10-03 15:22", zone: lordHowe, count: 2)
            == [utc("2026-10-03 15:40"), utc("2026-10-03 15:52")])
    }

    @Test func givesUpWhereSystemdDoes() throws {
        // systemd-analyze fails here with "Resource deadlock avoided": hour 28
        // of Saturday reads as Sunday 04:00 EDT, midnight with that daylight
        // flag reads back as Saturday 23:00 EST, and round it goes until its
        // 1000-step safety valve. We give up the same way, with nil.
        #expect(try CalendarSpec("16/6:* America/New_York").next(after: utc("2026-03-08 04:00"), zone: .utc) == nil)
        #expect(try CalendarSpec("16/6:* America/New_York").next(after: utc("2026-03-08 05:00"), zone: .utc)
            == utc("2026-03-08 20:00"))
    }
}

@Suite("CalendarSpec: days from the end of the month")
struct CalendarSpecMonthEndTests {
    @Test func thirdLastDayOfFebruary() throws {
        #expect(try elapses("*-02~03", after: "2026-01-01 00:00")
            == [utc("2026-02-26 00:00"), utc("2027-02-26 00:00"), utc("2028-02-27 00:00")])
    }

    @Test func lastMondayOfMay() throws {
        #expect(try elapses("Mon *-05~07/1", after: "2026-01-01 00:00")
            == [utc("2026-05-25 00:00"), utc("2027-05-31 00:00"), utc("2028-05-29 00:00")])
    }

    @Test func lastDayOfEachMonth() throws {
        #expect(try elapses("*-*~01", after: "2026-01-01 00:00", count: 4)
            == [utc("2026-01-31 00:00"), utc("2026-02-28 00:00"), utc("2026-03-31 00:00"), utc("2026-04-30 00:00")])
    }

    @Test func lastThreeDaysInAZone() throws {
        #expect(try elapses("*-*~1..3 Europe/Prague", after: "2026-01-01 00:00", count: 4)
            == [utc("2026-01-28 23:00"), utc("2026-01-29 23:00"), utc("2026-01-30 23:00"), utc("2026-02-25 23:00")])
    }

    @Test func leapDays() throws {
        #expect(try elapses("*-02-29", after: "2026-01-01 00:00", count: 2) == [utc("2028-02-29 00:00"), utc("2032-02-29 00:00")])
    }
}

@Suite("CalendarSpec: expressions that stop elapsing")
struct CalendarSpecNeverTests {
    @Test func aPastDateNeverElapses() throws {
        #expect(try CalendarSpec("2020-01-01").next(after: utc("2021-01-01 00:00"), zone: .utc) == nil)
        #expect(try CalendarSpec("2027-06-15 08:00").elapses(after: utc("2026-01-01 00:00"), zone: prague, count: 5)
            == [utc("2027-06-15 06:00")])
    }

    @Test(arguments: ["*-02-30", "*-04-31", "2100-02-29", "Mon 2026-01-01"])
    func aDateThatDoesNotExistNeverElapses(_ expression: String) throws {
        #expect(try CalendarSpec(expression).next(after: utc("2026-01-01 00:00"), zone: .utc) == nil)
    }

    @Test func nothingElapsesAfter2199() throws {
        #expect(try CalendarSpec("daily").next(after: utc("2199-12-31 00:00"), zone: .utc) == nil)
        #expect(try CalendarSpec("daily").next(after: utc("2199-12-30 12:00"), zone: .utc) == utc("2199-12-31 00:00"))
    }
}

/// A malformed expression, the error it gives, and where that points.
struct Malformed: Sendable, CustomTestStringConvertible {
    var expression: String
    var reason: String
    var offset: Int
    /// False where we knowingly reject what systemd accepts.
    var systemdRejects: Bool

    init(_ expression: String, _ reason: String, at offset: Int, systemdRejects: Bool = true) {
        self.expression = expression
        self.reason = reason
        self.offset = offset
        self.systemdRejects = systemdRejects
    }

    var testDescription: String { "\"\(expression)\"" }
}

// systemd-analyze rejects each of these too (SystemdOracleTests checks that),
// except fractional seconds: systemd reads them, but our instants are whole
// seconds, so we refuse rather than round.
let malformedExpressions: [Malformed] = [
    Malformed("", "no date or time given", at: 0),
    Malformed("Mon..Fry 09:00", "unknown weekday \"Fry\"", at: 5),
    Malformed("Fry 09:00", "unknown weekday \"Fry\"", at: 0),
    Malformed("dialy", "unknown weekday or shorthand \"dialy\"", at: 0),
    Malformed("now", "unknown weekday or shorthand \"now\"", at: 0),
    Malformed("Mond 09:00", "unknown weekday \"Mond\"", at: 0),
    Malformed("Mon1", "unexpected \"1\" after weekday \"Mon\"", at: 3),
    Malformed("Sat..Mon", "weekday range \"Sat..Mon\" runs backwards; ranges cannot wrap past Sunday", at: 0),
    Malformed("Mon.. 09:00", "weekday range \"Mon..\" has no end", at: 0),
    Malformed("Mon..Wed..Fri", "unexpected \"..Fri\" after weekday range \"Mon..Wed\"", at: 8),
    Malformed("Mon.Fri", "write weekday ranges with \"..\", as in \"Mon..Fri\"", at: 3),
    Malformed("*-*-* 24:00", "hour 24 is out of range 0..23", at: 6),
    Malformed("*:60", "minute 60 is out of range 0..59", at: 2),
    Malformed("*:*:60", "second 60 is out of range 0..59", at: 4),
    Malformed("*-13-01", "month 13 is out of range 1..12", at: 2),
    Malformed("*-02-32", "day 32 is out of range 1..31", at: 5),
    Malformed("*-*-00", "day 0 is out of range 1..31", at: 4),
    Malformed("2200-01-01", "year 2200 is out of range 1970..2199", at: 0),
    Malformed("*-*~29", "day ~29 is out of range ~1..~28", at: 4),
    Malformed("*-*~25,27", "day ~27 is out of range ~1..~25 as item 2 of the list", at: 7),
    Malformed("5..2:00", "hour range \"5..2\" must end after it starts", at: 0),
    Malformed("*:*:5..5", "second range \"5..5\" must end after it starts", at: 4),
    Malformed("*:0/0", "repetition \"0/0\" must step by at least 1", at: 4),
    Malformed("*:30/30", "minute repetition \"30/30\" never repeats within 0..59", at: 2),
    Malformed("*-*~1/1", "day repetition \"~1/1\" never repeats within ~1..~28", at: 4),
    Malformed("*:*/15", "\"*\" cannot repeat; give a start value, as in \"0/15\"", at: 2),
    Malformed("*,5:00", "\"*\" cannot be part of a list", at: 0),
    Malformed("12::00", "expected a number after \"12:\"", at: 3),
    Malformed("12:00,", "expected a number after \"12:00,\"", at: 6),
    Malformed("*-*- 12:00", "expected a number after \"*-*-\"", at: 4),
    Malformed("12", "time \"12\" needs minutes, as in \"12:00\"", at: 0),
    Malformed("5 10:00", "date \"5\" needs a month and a day, as in 12-24", at: 0),
    Malformed("1-2:00", "unexpected \":00\" after \"1-2\"", at: 3),
    Malformed("2026-01-01-05", "unexpected \"-05\" after the date \"2026-01-01\"", at: 10),
    Malformed("2020~01-01", "\"~\" may only stand before the day", at: 4),
    Malformed("12:00:00:00", "unexpected \":00\" after the time \"12:00:00\"", at: 8),
    Malformed("12:00x", "unexpected \"x\" after \"12:00\"", at: 5),
    Malformed("12:00 ", "unexpected \" \" after the time \"12:00\"", at: 5),
    Malformed(" 12:00", "\" 12:00\" is not a weekday, date or time", at: 0),
    Malformed("99999999999:00", "number \"99999999999\" is too large", at: 0),
    Malformed("@", "expected a number after \"@\"", at: 1),
    Malformed("*-*-* 02:30 Europe/Pragu", "unknown time zone \"Europe/Pragu\"", at: 12),
    Malformed("daily Mars/Olympus", "unknown time zone \"Mars/Olympus\"", at: 6),
    Malformed("*-*-* 12:00 Z", "unknown time zone \"Z\"", at: 12),
    Malformed("12:00:00.5", "fractional seconds are not supported: \"00.5\"", at: 6, systemdRejects: false),
]

@Suite("CalendarSpec: errors")
struct CalendarSpecErrorTests {
    @Test(arguments: malformedExpressions)
    func malformed(_ malformed: Malformed) {
        #expect(throws: CalendarSpecError(input: malformed.expression, offset: malformed.offset, reason: malformed.reason)) {
            try CalendarSpec(malformed.expression)
        }
    }

    @Test func descriptionNamesTheExpressionAndTheBadPart() {
        let error = CalendarSpecError(input: "Mon..Fry 09:00", offset: 5, reason: "unknown weekday \"Fry\"")
        #expect(error.description == "invalid calendar expression \"Mon..Fry 09:00\": unknown weekday \"Fry\"")
    }

    @Test func offsetCountsCharacters() {
        #expect(throws: CalendarSpecError(input: "é 12:00", offset: 0, reason: "\"é\" is not a weekday, date or time")) {
            try CalendarSpec("é 12:00")
        }
        #expect(throws: CalendarSpecError(input: "Mon,é", offset: 4, reason: "expected a weekday after \"Mon,\"")) {
            try CalendarSpec("Mon,é")
        }
    }
}
