import Testing
import TrackeeCore
@testable import TrackeeRules

/// A calendar trigger's offset is counted on the local wall clock.
@Suite struct CalendarTriggerTimeTests {
    let prague = try! Zone(identifier: "Europe/Prague")

    func allDay(_ day: Int, month: Int) -> CalendarOccurrence {
        let start = prague.startOfDay(LocalDate(year: 2027, month: month, day: day))
        let end = prague.startOfDay(LocalDate(year: 2027, month: month, day: day + 1))
        return CalendarOccurrence(calendar: "c", uid: "u", start: start, end: end, allDay: true)
    }

    @Test func nineHoursAfterMidnightIsNineOClockOnTheDaysTheClocksChange() {
        let trigger = CalendarTrigger(calendar: "c", offset: 9 * 3600, allDay: true)
        #expect(prague.iso8601(trigger.time(of: allDay(28, month: 3), zone: prague)) == "2027-03-28T09:00:00+02:00")
        #expect(prague.iso8601(trigger.time(of: allDay(31, month: 10), zone: prague)) == "2027-10-31T09:00:00+01:00")
        #expect(prague.iso8601(trigger.time(of: allDay(29, month: 3), zone: prague)) == "2027-03-29T09:00:00+02:00")
    }

    @Test func anEndEdgeWithANegativeOffsetComesBeforeTheEnd() {
        let trigger = CalendarTrigger(calendar: "c", edge: .end, offset: -10 * 60, allDay: true)
        #expect(prague.iso8601(trigger.time(of: allDay(28, month: 3), zone: prague)) == "2027-03-28T23:50:00+02:00")
        #expect(trigger.offsetText == "-10m")
        #expect(CalendarTrigger(calendar: "c", offset: 5400).offsetText == "+1h30m")
        #expect(CalendarTrigger(calendar: "c").offsetText == "0s")
    }
}
