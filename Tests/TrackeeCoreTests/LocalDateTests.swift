import Testing

import TrackeeCore

// Day numbers and weekdays from GNU date: `date -u -d 2026-11-20 +%s` / 86400, `+%u`.

@Suite("LocalDate")
struct LocalDateTests {
    @Test(arguments: [
        (1970, 1, 1, 0, 4), (2026, 11, 20, 20_777, 5), (1969, 12, 31, -1, 3), (2000, 2, 29, 11_016, 2),
        (1900, 3, 1, -25_508, 4), (1600, 1, 1, -135_140, 6), (2400, 12, 31, 157_419, 7),
    ] as [(Int, Int, Int, Int64, Int)])
    func daysSinceEpochAndWeekday(_ year: Int, _ month: Int, _ day: Int, _ days: Int64, _ weekday: Int) {
        let date = LocalDate(year: year, month: month, day: day)
        #expect(date.daysSinceEpoch == days)
        #expect(LocalDate(daysSinceEpoch: days) == date)
        #expect(date.weekday == weekday)
    }

    @Test func addingDaysCrossesMonthsAndYears() {
        #expect(LocalDate(year: 2026, month: 12, day: 31).adding(days: 1) == LocalDate(year: 2027, month: 1, day: 1))
        #expect(LocalDate(year: 2028, month: 3, day: 1).adding(days: -1) == LocalDate(year: 2028, month: 2, day: 29))
    }

    @Test func addingMonthsClampsTheDay() {
        #expect(LocalDate(year: 2026, month: 1, day: 31).adding(months: 1) == LocalDate(year: 2026, month: 2, day: 28))
        #expect(LocalDate(year: 2028, month: 1, day: 31).adding(months: 1) == LocalDate(year: 2028, month: 2, day: 29))
        #expect(LocalDate(year: 2026, month: 11, day: 20).adding(months: 2) == LocalDate(year: 2027, month: 1, day: 20))
        #expect(LocalDate(year: 2026, month: 1, day: 15).adding(months: -1) == LocalDate(year: 2025, month: 12, day: 15))
        #expect(LocalDate(year: 2026, month: 3, day: 31).adding(months: -13) == LocalDate(year: 2025, month: 2, day: 28))
    }

    @Test func leapYears() {
        #expect(LocalDate.isLeap(2028))
        #expect(LocalDate.isLeap(2000))
        #expect(!LocalDate.isLeap(1900))
        #expect(!LocalDate.isLeap(2026))
        #expect(LocalDate.daysIn(year: 2026, month: 2) == 28)
        #expect(LocalDate.daysIn(year: 2028, month: 2) == 29)
        #expect(LocalDate.daysIn(year: 2026, month: 4) == 30)
        #expect(LocalDate.daysIn(year: 2026, month: 12) == 31)
    }

    @Test func validity() {
        #expect(LocalDate(year: 2028, month: 2, day: 29).isValid)
        #expect(!LocalDate(year: 2026, month: 2, day: 29).isValid)
        #expect(!LocalDate(year: 2026, month: 2, day: 30).isValid)
        #expect(!LocalDate(year: 2026, month: 13, day: 1).isValid)
        #expect(!LocalDate(year: 2026, month: 0, day: 1).isValid)
        #expect(!LocalDate(year: 2026, month: 4, day: 31).isValid)
        #expect(!LocalDate(year: 2026, month: 5, day: 0).isValid)
    }

    @Test func orderAndDescription() {
        #expect(LocalDate(year: 2026, month: 3, day: 9) < LocalDate(year: 2026, month: 10, day: 1))
        #expect(LocalDate(year: 2026, month: 3, day: 9).description == "2026-03-09")
        #expect(LocalDate(year: 987, month: 1, day: 2).description == "0987-01-02")
    }
}

@Suite("LocalDateTime")
struct LocalDateTimeTests {
    @Test func secondsSinceEpochBothWays() {
        let t = LocalDateTime(year: 2026, month: 11, day: 20, hour: 10, minute: 3)
        #expect(t.secondsSinceEpoch == 1_795_168_980)
        #expect(LocalDateTime(secondsSinceEpoch: 1_795_168_980) == t)
        #expect(LocalDateTime(secondsSinceEpoch: -1) == LocalDateTime(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        #expect(LocalDateTime(secondsSinceEpoch: -86_401) == LocalDateTime(year: 1969, month: 12, day: 30, hour: 23, minute: 59, second: 59))
        #expect(LocalDateTime(year: 1600, month: 1, day: 1).secondsSinceEpoch == -11_676_096_000)
    }

    @Test func description() {
        #expect(LocalDateTime(year: 2026, month: 11, day: 20, hour: 9, minute: 3, second: 7).description == "2026-11-20T09:03:07")
    }

    @Test func ordered() {
        #expect(LocalDateTime(year: 2026, month: 11, day: 20, hour: 23) < LocalDateTime(year: 2026, month: 11, day: 21))
    }
}

@Suite("pad and formatOffset")
struct OffsetFormatTests {
    @Test func padding() {
        #expect(pad(5, 2) == "05")
        #expect(pad(2026, 2) == "2026")
        #expect(pad(0, 4) == "0000")
        #expect(pad(-5, 3) == "-005")
    }

    @Test func offsets() {
        #expect(formatOffset(3600) == "+01:00")
        #expect(formatOffset(-18_000) == "-05:00")
        #expect(formatOffset(19_800) == "+05:30")
        #expect(formatOffset(-12_600) == "-03:30")
        #expect(formatOffset(0) == "+00:00")
        #expect(formatOffset(0, zulu: true) == "Z")
        #expect(formatOffset(3600, zulu: true) == "+01:00")
        // Local mean time before zones existed: Prague was +00:57:44.
        #expect(formatOffset(3464) == "+00:57:44")
    }
}
