import Testing

@testable import TrackeeCore

// Expected instants from GNU date, e.g. `TZ=Europe/Prague date -d '2026-11-19 11:03' +%s`.

private let prague = try! Zone(identifier: "Europe/Prague")
private let newYork = try! Zone(identifier: "America/New_York")

/// 2026-11-20T10:30:00Z: 11:30 CET in Prague, 05:30 EST in New York.
private let now = Instant(seconds: 1_795_170_600)

private func parse(_ text: String, zone: Zone = prague, now: Instant = now) throws(TimeParseError) -> Int64 {
    try TimeExpression.parse(text, now: now, zone: zone).seconds
}

@Suite("TimeExpression: absolute times")
struct TimeExpressionAbsoluteTests {
    @Test(arguments: [
        "2026-11-20T11:03:00+01:00", "2026-11-20T11:03+01:00", "2026-11-20T10:03:00Z", "2026-11-20 11:03:00+0100",
        "2026-11-20T11:03:00.123+01:00", "2026-11-20T10:03:00.5Z", "2026-11-20t10:03z", "2026-11-20T05:03:00-05:00",
        "2026-11-20T11:03:00+01", "2026-11-20 11:03:00 +01:00", "  2026-11-20T10:03:00Z\n",
    ])
    func withAnOffsetTheZoneDoesNotMatter(_ text: String) throws {
        #expect(try parse(text, zone: prague) == 1_795_168_980)
        #expect(try parse(text, zone: newYork) == 1_795_168_980)
    }

    @Test func localDateAndTimeUseTheZone() throws {
        #expect(try parse("2026-11-20 11:03") == 1_795_168_980)
        #expect(try parse("2026-11-20T11:03") == 1_795_168_980)
        #expect(try parse("2026-11-20 11:03:15") == 1_795_168_995)
        #expect(try parse("2026-11-20   11:03:15.999") == 1_795_168_995)
        #expect(try parse("2026-11-20 11:03", zone: newYork) == 1_795_190_580)
    }

    @Test func dateAloneIsTheStartOfThatLocalDay() throws {
        #expect(try parse("2026-11-20") == 1_795_129_200)
        #expect(try parse("2026-11-20", zone: newYork) == 1_795_150_800)
        #expect(try parse("2028-02-29") == 1_835_391_600)
    }

    @Test func timeAloneIsToday() throws {
        #expect(try parse("11:03") == 1_795_168_980)
        #expect(try parse("11:03:15") == 1_795_168_995)
        #expect(try parse("9:05") == 1_795_161_900)
        #expect(try parse("09:05") == 1_795_161_900)
        #expect(try parse("11:03", zone: newYork) == 1_795_190_580)
        #expect(try parse("9:05", zone: newYork) == 1_795_183_500)
    }

    @Test func namedDaysWithATime() throws {
        #expect(try parse("today 11:03") == 1_795_168_980)
        #expect(try parse("yesterday 11:03") == 1_795_082_580)
        #expect(try parse("tomorrow 11:03") == 1_795_255_380)
        #expect(try parse("Yesterday  11:03") == 1_795_082_580)
        #expect(try parse("yesterday 11:03", zone: newYork) == 1_795_104_180)
    }

    @Test func namedDaysAloneAreTheirStart() throws {
        #expect(try parse("today") == 1_795_129_200)
        #expect(try parse("yesterday") == 1_795_042_800)
        #expect(try parse("tomorrow") == 1_795_215_600)
        #expect(try parse("TODAY") == 1_795_129_200)
        #expect(try parse("today", zone: newYork) == 1_795_150_800)
        #expect(try parse("yesterday", zone: newYork) == 1_795_064_400)
        #expect(try parse("tomorrow", zone: newYork) == 1_795_237_200)
    }

    @Test func todayIsTheLocalDateOfNowInTheZone() throws {
        // 2026-11-21T03:00:00Z: already Saturday in Prague, still Friday in New York.
        let late = Instant(seconds: 1_795_230_000)
        #expect(try parse("today", zone: prague, now: late) == 1_795_215_600)
        #expect(try parse("today", zone: newYork, now: late) == 1_795_150_800)
    }

    @Test func nowIsNow() throws {
        #expect(try parse("now") == now.seconds)
        #expect(try parse("  NOW ") == now.seconds)
    }
}

@Suite("TimeExpression: relative times")
struct TimeExpressionRelativeTests {
    @Test(arguments: [
        ("-2h", -7200), ("-90m", -5400), ("-1h30m", -5400), ("-45s", -45), ("-2d", -172_800), ("+15m", 900),
        ("- 2h", -7200), ("-1h 30m", -5400), ("+1 hour", 3600),
        ("90m ago", -5400), ("2h ago", -7200), ("1h30m ago", -5400), ("1h 30m ago", -5400),
        ("2 hours ago", -7200), ("90 minutes ago", -5400), ("30 min ago", -1800), ("1 day ago", -86_400),
        ("45 sec ago", -45), ("1 second ago", -1), ("3 secs ago", -3), ("1 hr ago", -3600), ("2 hrs ago", -7200),
        ("5 mins ago", -300), ("1 minute ago", -60), ("2 days ago", -172_800), ("2 HOURS AGO", -7200),
        ("1 hour 30 minutes ago", -5400),
    ] as [(String, Int64)])
    func amountsAreElapsedSeconds(_ text: String, _ delta: Int64) throws {
        #expect(try parse(text) == now.seconds + delta)
    }

    @Test func twoHoursBackAcrossFallBackIsStill7200Seconds() throws {
        // 2026-10-25T02:30:00Z is 03:30 CET; two hours earlier the clock said 02:30 CEST.
        let afterChange = Instant(seconds: 1_792_895_400)
        let earlier = try parse("-2h", now: afterChange)
        #expect(earlier == 1_792_888_200)
        #expect(prague.iso8601(Instant(seconds: earlier)) == "2026-10-25T02:30:00+02:00")
    }
}

@Suite("TimeExpression: DST")
struct TimeExpressionDSTTests {
    /// 2026-10-26T09:00:00Z, 10:00 CET: the day after Prague fell back.
    let dayAfterFallBack = Instant(seconds: 1_793_005_200)

    @Test func yesterdayIsThe25HourDay() throws {
        #expect(try parse("yesterday 11:03", now: dayAfterFallBack) == 1_792_922_580)
        let start = try parse("yesterday", now: dayAfterFallBack)
        #expect(start == 1_792_879_200)
        #expect(dayAfterFallBack.seconds - start == 35 * 3600)
        #expect(try parse("today", now: dayAfterFallBack) == 1_792_969_200)
    }

    @Test func timeInTheFoldIsTheEarlierOne() throws {
        #expect(try parse("2026-10-25 02:30") == 1_792_888_200)
        #expect(try parse("today 02:30", now: Instant(seconds: 1_792_895_400)) == 1_792_888_200)
        #expect(try parse("2026-11-01 01:30", zone: newYork) == 1_793_511_000)
    }

    @Test func timeInTheGapMovesForward() throws {
        #expect(try parse("2026-03-29 02:30") == 1_774_747_800)
        #expect(try parse("2026-03-08 02:30", zone: newYork) == 1_772_955_000)
    }

    @Test func offsetSaysWhichSideOfTheFold() throws {
        #expect(try parse("2026-10-25T02:30+02:00") == 1_792_888_200)
        #expect(try parse("2026-10-25T02:30+01:00") == 1_792_891_800)
    }
}

@Suite("TimeExpression: errors")
struct TimeExpressionErrorTests {
    @Test(arguments: [
        "25:00", "2026-02-30", "abc", "11:60", "", "   ", "tomorow 9", "2026-13-01", "2026-00-10", "2026-11-00",
        "2026-11-20T11:03+19:00", "2026-11-20T11:03+01:60", "2h", "11:03 tomorrow", "yesterday11:03", "2026-11-20T24:00",
        "-", "ago", "5 ago", "-2x", "2h ago ago", "2026-11-20T11:03:00+01:00 extra", "11:3", "111:03", "2026-11-20T11:03:61",
        "2026-11-20T11:03:00.+01:00", "today tomorrow", "+-2h", "now now", "todays", "-9999999999999d", "2026-1-5",
        "1h30", "11:03Z", "２０２６-11-20",
    ])
    func rejected(_ text: String) {
        let error = #expect(throws: TimeParseError.self) { try TimeExpression.parse(text, now: now, zone: prague) }
        #expect(error == TimeParseError(input: text))
    }

    @Test func descriptionNamesTheInputAndTheAcceptedForms() {
        #expect(
            TimeParseError(input: "tomorow 9").description
                == "cannot read \"tomorow 9\" as a time; use 2026-11-20T11:03+01:00, 2026-11-20 11:03, 11:03, yesterday 11:03, -2h or 90m ago")
        #expect(
            TimeParseError(input: "").description
                == "cannot read \"\" as a time; use 2026-11-20T11:03+01:00, 2026-11-20 11:03, 11:03, yesterday 11:03, -2h or 90m ago")
    }

    @Test func thrownErrorDescribesTheOriginalText() {
        let error = #expect(throws: TimeParseError.self) { try TimeExpression.parse("2026-02-30", now: now, zone: prague) }
        #expect(
            error?.description
                == "cannot read \"2026-02-30\" as a time; use 2026-11-20T11:03+01:00, 2026-11-20 11:03, 11:03, yesterday 11:03, -2h or 90m ago")
    }
}
