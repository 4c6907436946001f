import Testing

@testable import TrackeeCore

// Boundaries checked with GNU date, e.g. `TZ=Europe/Prague date -d '2026-03-29 00:00' +%s`.

private func at(_ seconds: Int64) -> Instant { Instant(seconds: seconds) }

private let prague = try! Zone(identifier: "Europe/Prague")
private let newYork = try! Zone(identifier: "America/New_York")

@Suite("Timespan")
struct TimespanTests {
    @Test func secondsIsEndMinusStart() {
        #expect(Timespan(start: at(100), end: at(3700)).seconds == 3600)
    }

    @Test func overlapIsClippedToTheSpan() {
        let span = Timespan(start: at(1000), end: at(2000))
        #expect(span.overlap(start: at(1500), end: at(1700)) == 200)
        #expect(span.overlap(start: at(500), end: at(1200)) == 200)
        #expect(span.overlap(start: at(1900), end: at(2600)) == 100)
        #expect(span.overlap(start: at(0), end: at(5000)) == 1000)
    }

    @Test func overlapIsNeverNegative() {
        let span = Timespan(start: at(1000), end: at(2000))
        #expect(span.overlap(start: at(2000), end: at(3000)) == 0)  // half-open: the end is outside
        #expect(span.overlap(start: at(0), end: at(1000)) == 0)
        #expect(span.overlap(start: at(5000), end: at(6000)) == 0)
        #expect(span.overlap(start: at(1800), end: at(1200)) == 0)
    }
}

@Suite("Zone.span")
struct ZoneSpanTests {
    @Test func springForwardDayIs23Hours() {
        // Any instant on 2026-03-29 in Prague: 12:00 CEST.
        let day = prague.span(.day, containing: at(1_774_778_400))
        #expect(day == Timespan(start: at(1_774_738_800), end: at(1_774_821_600)))
        #expect(day.seconds == 82_800)
    }

    @Test func fallBackDayIs25Hours() {
        let day = prague.span(.day, containing: at(1_792_890_000))
        #expect(day == Timespan(start: at(1_792_879_200), end: at(1_792_969_200)))
        #expect(day.seconds == 90_000)
    }

    @Test func dayStartsAtItsOwnMidnightAndExcludesTheNext() {
        #expect(prague.span(.day, containing: at(1_774_738_800)).start == at(1_774_738_800))
        #expect(prague.span(.day, containing: at(1_774_738_799)).end == at(1_774_738_800))
    }

    @Test func mondayWeekContainingTheFallBackIs169Hours() {
        // Monday 2026-10-19 00:00 CEST to Monday 2026-10-26 00:00 CET.
        let week = prague.span(.week, containing: at(1_792_890_000))
        #expect(week == Timespan(start: at(1_792_360_800), end: at(1_792_969_200)))
        #expect(week.seconds == 169 * 3600)
    }

    @Test func sundayWeekStartsOnTheSundayItself() {
        // 2026-10-25 is a Sunday: its week runs to Sunday 2026-11-01 00:00 CET.
        let week = prague.span(.week, containing: at(1_792_890_000), weekStart: .sunday)
        #expect(week == Timespan(start: at(1_792_879_200), end: at(1_793_487_600)))
        #expect(week.seconds == 169 * 3600)
        // Saturday 2026-10-24 14:00 CEST belongs to the week of Sunday 2026-10-18.
        let before = prague.span(.week, containing: at(1_792_879_200 - 36_000), weekStart: .sunday)
        #expect(before == Timespan(start: at(1_792_274_400), end: at(1_792_879_200)))
        #expect(before.seconds == 168 * 3600)
    }

    @Test func newYorkMarchIsOneHourShort() {
        // 2026-03-01 00:00 EST to 2026-04-01 00:00 EDT.
        let month = newYork.span(.month, containing: at(1_772_953_200))
        #expect(month == Timespan(start: at(1_772_341_200), end: at(1_775_016_000)))
        #expect(month.seconds == 31 * 86_400 - 3600)
    }

    @Test func pragueOctoberIsOneHourLong() {
        // 2026-10-01 00:00 CEST to 2026-11-01 00:00 CET.
        let month = prague.span(.month, containing: at(1_792_890_000))
        #expect(month == Timespan(start: at(1_790_805_600), end: at(1_793_487_600)))
        #expect(month.seconds == 31 * 86_400 + 3600)
    }

    @Test func localDateFollowsTheZone() {
        // 2026-11-19T23:30:00Z is already Friday in Prague, still Thursday in New York.
        #expect(prague.localDate(at(1_795_131_000)) == LocalDate(year: 2026, month: 11, day: 20))
        #expect(newYork.localDate(at(1_795_131_000)) == LocalDate(year: 2026, month: 11, day: 19))
    }

    @Test func pragueYearIsCalendarDaysLongWithItsTitle() {
        // 2026-01-01 00:00 CET to 2027-01-01 00:00 CET, from a July noon:
        // the spring and autumn changes cancel out.
        let year = prague.span(.year, containing: at(1_782_900_000))
        #expect(year == Timespan(start: at(1_767_222_000), end: at(1_798_758_000)))
        #expect(year.seconds == 365 * 86_400)
        #expect(prague.title(of: .year, span: year) == "2026")
    }

    @Test func periodNames() {
        #expect(Period.allCases.map(\.rawValue) == ["day", "week", "month", "year"])
    }
}

@Suite("Weekday")
struct WeekdayTests {
    @Test func numberedLikeISO() {
        #expect(Weekday.monday.rawValue == 1)
        #expect(Weekday.sunday.rawValue == 7)
        #expect(Weekday(rawValue: LocalDate(year: 2026, month: 10, day: 25).weekday) == .sunday)
    }

    @Test(arguments: [
        ("mon", Weekday.monday), ("Monday", .monday), ("MON", .monday), ("tue", .tuesday), ("Tues", .tuesday),
        ("wed", .wednesday), ("thu", .thursday), ("thurs", .thursday), ("fri", .friday), ("sat", .saturday),
        ("sun", .sunday), ("SUNDAY", .sunday), ("mond", .monday),
    ])
    func readsNames(_ name: String, _ day: Weekday) {
        #expect(Weekday(name: name) == day)
    }

    @Test(arguments: ["", "m", "mo", "mondays", "monx", "sunday ", "xyz", "1"])
    func rejectsOtherText(_ name: String) {
        #expect(Weekday(name: name) == nil)
    }

    @Test func shortNames() {
        #expect(Weekday.allCases.map(\.shortName) == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
    }
}
