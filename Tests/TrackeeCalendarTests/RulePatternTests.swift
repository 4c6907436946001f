import Testing
import TrackeeTestSupport
import TrackeeCore

@testable import TrackeeCalendar

/// Daily and weekly rules are expanded by repeating the instances of their
/// first span (`SeriesRule.pattern`) instead of walking to the window.
/// These tests hold that shortcut to the walk (`RuleExpansion`), rule by
/// rule and window by window.
@Suite struct RulePatternTests {

    static let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// A random rule of the shapes that get a pattern, with COUNT or UNTIL
    /// now and then.
    static func randomRule(_ g: inout SeededGenerator, start: LocalDateTime) -> String {
        var parts = [g.int(0...1) == 0 ? "FREQ=DAILY" : "FREQ=WEEKLY"]
        if g.int(0...2) > 0 { parts.append("INTERVAL=\(g.int(1...5))") }
        if g.int(0...2) > 0 {
            var chosen = Set<String>()
            for _ in 0..<g.int(1...4) { chosen.insert(g.pick(days)) }
            parts.append("BYDAY=" + days.filter(chosen.contains).joined(separator: ","))
        }
        if g.int(0...3) == 0 { parts.append("BYHOUR=\(g.int(0...11)),\(g.int(12...23))") }
        if g.int(0...4) == 0 { parts.append("BYMINUTE=0,30") }
        if g.int(0...3) == 0 { parts.append("WKST=\(g.pick(days))") }
        switch g.int(0...5) {
        case 0: parts.append("COUNT=\(g.int(1...200))")
        case 1:
            let until = start.date.adding(days: g.int(10...900))
            parts.append("UNTIL=\(pad(until.year, 4))\(pad(until.month, 2))\(pad(until.day, 2))T235959")
        default: break
        }
        return parts.joined(separator: ";")
    }

    @Test func patternsGiveWhatTheWalkGivesForThousandsOfRulesAndWindows() throws {
        let zone = try Zone(identifier: "Europe/Prague")
        var g = SeededGenerator(seed: 20_261_123)
        var compared = 0
        var instances = 0
        for _ in 0..<1500 {
            let start = LocalDateTime(
                date: LocalDate(year: 2025, month: 1, day: 1).adding(days: g.int(0...700)),
                hour: g.int(0...23), minute: g.pick([0, 15, 30, 45]))
            let text = Self.randomRule(&g, start: start)
            guard case .success(let rule) = Libical.rule(text) else {
                Issue.record("libical cannot read \(text)")
                continue
            }
            let value = TimeValue(local: start, isDate: false, isUTC: false)
            let time = EventTime(value: value, placement: .zone(zone))
            let patterned = try #require(SeriesRule(rule, line: 1, start: value))
            #expect(patterned.pattern != nil, "\(text) should get a pattern")
            var walked = patterned
            walked.pattern = nil
            for _ in 0..<4 {
                let from = zone.instant(for: LocalDateTime(
                    date: start.date.adding(days: g.int(-30...1200)), hour: g.int(0...23)))
                let through = from + Int64(g.int(1...90)) * 86_400
                let fast = RuleWalk(rule: patterned, start: time, zone: zone).walls(from: from, through: through)
                let slow = RuleWalk(rule: walked, start: time, zone: zone).walls(from: from, through: through)
                #expect(fast == slow, "\(text) from \(start) over \(zone.iso8601(from)) … \(zone.iso8601(through))")
                compared += 1
                instances += slow.count
            }
        }
        #expect(compared == 6000)
        // The windows are not all empty: the comparison covers real instances.
        #expect(instances > 50_000)
    }

    @Test func onlyDailyAndWeeklyRulesWithoutPositionalPartsGetAPattern() throws {
        let patterned = ["FREQ=DAILY", "FREQ=DAILY;INTERVAL=3;BYDAY=MO,FR", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;BYHOUR=9,17"]
        let walked = [
            "FREQ=MONTHLY;BYDAY=-1FR", "FREQ=WEEKLY;BYDAY=MO,TU;BYSETPOS=1", "FREQ=DAILY;BYMONTH=1",
            "FREQ=DAILY;BYMONTHDAY=1,15", "FREQ=YEARLY", "FREQ=HOURLY;INTERVAL=5",
        ]
        let start = TimeValue(local: LocalDateTime(year: 2026, month: 11, day: 23, hour: 9), isDate: false, isUTC: false)
        for text in patterned {
            guard case .success(let rule) = Libical.rule(text) else { throw Unreadable(text: text) }
            #expect(SeriesRule(rule, line: 1, start: start)?.pattern != nil, "\(text)")
        }
        for text in walked {
            guard case .success(let rule) = Libical.rule(text) else { throw Unreadable(text: text) }
            #expect(SeriesRule(rule, line: 1, start: start)?.pattern == nil, "\(text)")
        }
        let daily = try #require(try? Libical.rule("FREQ=DAILY;INTERVAL=3;BYDAY=MO,FR").get())
        #expect(daily.periodDays == 21)
        let weekly = try #require(try? Libical.rule("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU").get())
        #expect(weekly.periodDays == 14)
    }

    struct Unreadable: Error {
        var text: String
    }
}

/// Monthly rules on the n-th (or n-th last) weekday of the month are
/// computed month by month instead of walked; held to the walk
/// (`RuleExpansion`) the same way.
@Suite struct MonthlyWeekdayTests {
    static func randomRule(_ g: inout SeededGenerator, start: LocalDateTime) -> String {
        let ordinal = g.pick([-5, -4, -3, -2, -1, 1, 2, 3, 4, 5])
        var parts = ["FREQ=MONTHLY", "BYDAY=\(ordinal)\(g.pick(RulePatternTests.days))"]
        if g.int(0...2) > 0 { parts.append("INTERVAL=\(g.int(1...4))") }
        if g.int(0...4) == 0 {
            let until = start.date.adding(days: g.int(10...900))
            parts.append("UNTIL=\(pad(until.year, 4))\(pad(until.month, 2))\(pad(until.day, 2))T235959")
        }
        return parts.joined(separator: ";")
    }

    @Test func computedMonthsGiveWhatTheWalkGives() throws {
        let zone = try Zone(identifier: "Europe/Prague")
        var g = SeededGenerator(seed: 5_545_2026)
        var compared = 0
        var instances = 0
        for round in 0..<1000 {
            let start = LocalDateTime(
                date: LocalDate(year: 2025, month: 1, day: 1).adding(days: g.int(0...700)),
                hour: round % 5 == 0 ? 0 : g.int(0...23), minute: g.pick([0, 15, 30, 45]))
            let text = Self.randomRule(&g, start: start)
            guard case .success(let rule) = Libical.rule(text) else {
                Issue.record("libical cannot read \(text)")
                continue
            }
            let value = TimeValue(local: start, isDate: round % 5 == 0, isUTC: false)
            let time = EventTime(value: value, placement: .zone(zone))
            let computed = try #require(SeriesRule(rule, line: 1, start: value))
            #expect(computed.monthly != nil, "\(text) should be computed")
            var walked = computed
            walked.monthly = nil
            for _ in 0..<4 {
                let from = zone.instant(for: LocalDateTime(date: start.date.adding(days: g.int(-60...2000)), hour: g.int(0...23)))
                let through = from + Int64(g.int(1...400)) * 86_400
                let fast = RuleWalk(rule: computed, start: time, zone: zone).walls(from: from, through: through)
                let slow = RuleWalk(rule: walked, start: time, zone: zone).walls(from: from, through: through)
                #expect(fast == slow, "\(text) from \(start) over \(zone.iso8601(from)) … \(zone.iso8601(through))")
                compared += 1
                instances += slow.count
            }
        }
        #expect(compared == 4000)
        #expect(instances > 10_000)
    }

    @Test func onlyOneWeekdayByItsPlaceIsComputed() throws {
        let start = TimeValue(local: LocalDateTime(year: 2026, month: 11, day: 23, hour: 9), isDate: false, isUTC: false)
        for text in ["FREQ=MONTHLY;BYDAY=-1FR", "FREQ=MONTHLY;INTERVAL=3;BYDAY=2TU", "FREQ=MONTHLY;BYDAY=5SU;UNTIL=20271231T000000Z"] {
            guard case .success(let rule) = Libical.rule(text) else { Issue.record("libical cannot read \(text)"); continue }
            #expect(SeriesRule(rule, line: 1, start: start)?.monthly != nil, "\(text)")
        }
        for text in [
            "FREQ=MONTHLY;BYDAY=FR", "FREQ=MONTHLY;BYDAY=1MO,-1FR", "FREQ=MONTHLY;BYDAY=-1FR;BYMONTH=3",
            "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "FREQ=MONTHLY;BYMONTHDAY=15", "FREQ=YEARLY;BYDAY=-1FR",
            "FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=9,17",
        ] {
            guard case .success(let rule) = Libical.rule(text) else { Issue.record("libical cannot read \(text)"); continue }
            #expect(SeriesRule(rule, line: 1, start: start)?.monthly == nil, "\(text)")
        }
    }
}
