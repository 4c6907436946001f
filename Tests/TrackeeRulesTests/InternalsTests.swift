import Testing
import TrackeeCore

@testable import TrackeeRules

@Suite("Rule file pieces")
struct InternalsTests {
    @Test func everyTriggerKindListsTheFieldsItsEventsGive() {
        let events: [String: TriggerEvent] = [
            "at": TriggerEvent(.schedule(rule: "r", expression: "09:00"), time: Instant(seconds: 0)),
            "focus": TriggerEvent(.focus(mode: "m", state: .on, sequence: 1), time: Instant(seconds: 0)),
            "calendar": TriggerEvent(
                .calendar(rule: "r", edge: .start, offset: 0, occurrence: CalendarOccurrence(
                    calendar: "work", uid: "u", start: Instant(seconds: 0), end: Instant(seconds: 60))),
                time: Instant(seconds: 0)),
            "arrive": TriggerEvent(
                .place(PlaceEvent(place: "office", transition: .arrive, fix: Fix(time: Instant(seconds: 0), latitude: 50, longitude: 14))),
                time: Instant(seconds: 0)),
            "leave": TriggerEvent(
                .place(PlaceEvent(place: "office", transition: .leave, fix: Fix(time: Instant(seconds: 0), latitude: 50, longitude: 14))),
                time: Instant(seconds: 0)),
            "timer": TriggerEvent(
                .timer(.started, entry: Entry(id: 1, project: "Docs", client: nil, description: "", tags: [],
                                              start: Instant(seconds: 0), end: nil, source: "cli")),
                time: Instant(seconds: 0)),
            "idle": TriggerEvent(.idleReached(since: Instant(seconds: 0), threshold: 600), time: Instant(seconds: 600)),
            "session": TriggerEvent(.session(.locked), time: Instant(seconds: 0)),
            "sleep": TriggerEvent(.sleep(.suspend), time: Instant(seconds: 0)),
            "power": TriggerEvent(.power(.battery), time: Instant(seconds: 0)),
            "network": TriggerEvent(.network(NetworkChange(state: .connected, connection: "c")), time: Instant(seconds: 0)),
            "device": TriggerEvent(.device(DeviceChange(action: .added, devpath: "/d", subsystem: "usb")), time: Instant(seconds: 0)),
            "flip": TriggerEvent(.flip(device: "0C:61:CF:C7:77:71", .facet(3), event: 7), time: Instant(seconds: 0)),
        ]
        #expect(Set(TriggerKind.all.map(\.key)) == Set(events.keys))
        for kind in TriggerKind.all {
            #expect(Set(kind.fields) == Set(events[kind.key]!.fields(zone: .utc).keys), "\(kind.key)")
        }
    }

    @Test(
        arguments: [
            ("30s", 30), ("10m", 600), ("2h", 7200), ("1h30m", 5400), ("1d2h3m4s", 93784), ("0s", 0),
        ] as [(String, Int64)])
    func durationsRead(_ text: String, _ seconds: Int64) throws {
        #expect(try parseDuration(text) == .seconds(seconds))
    }

    @Test(arguments: ["", "90", "m", "30m1h", "1h1h", "1.5h", "10 m", "-5m", "99999999999s"])
    func durationsRefused(_ text: String) {
        #expect(throws: InvalidValue.self) { try parseDuration(text) }
    }

    @Test(arguments: [
        "9-17", "09:00", "25:00-01:00", "09:60-10:00", "24:00-01:00", "09:00-24:01", "+9:00-10:00", "09:00-10:00-11:00",
    ])
    func timeWindowsRefused(_ text: String) {
        #expect(throws: InvalidValue.self) { try TimeWindow(parsing: text) }
    }

    @Test func suggestionsAreAtMostTwoEditsAway() {
        #expect(nearest(to: "projet", among: ["project", "client"]) == "project")
        #expect(nearest(to: "clinet", among: ["project", "client"]) == "client")  // a swap is one edit
        #expect(nearest(to: "Tags", among: ["tag", "tags"]) == "tags")
        #expect(nearest(to: "whenever", among: ["when"]) == nil)
        #expect(nearest(to: "x", among: ["at"]) == nil)
    }
}
