import Testing
import TrackeeCore
import TrackeeDesk

/// The desk kinds' registry: each entry names its kind through its report,
/// reads its event line, and says where its changes come from.
@Suite struct DeskKindTests {
    let now = Instant(seconds: 1_795_431_600)

    @Test func theRegistryListsEachKindOnceInTheStartLinesOrder() {
        #expect(DeskKind.all.map(\.name) == ["idle", "session", "sleep", "network", "power", "device", "flip"])
        #expect(DeskKind.named("network")?.name == "network")
        #expect(DeskKind.named("timeflip") == nil)
        #expect(DeskKind.named("flip")?.name == "flip")
        #expect(DeskKind.named("focus") == nil)
    }

    @Test func eachKindsReportReadsItsEventLine() throws {
        func read(_ kind: String, _ values: [String: EventFields.Value]) throws -> DeskEvent {
            let report = try #require(DeskKind.named(kind)).report
            return DeskEvent(try report.read(EventFields(values, now: now, zone: .utc)))
        }
        #expect(try read("idle", ["idle_for": .integer(60)]) == .idle(since: now - 60))
        #expect(try read("idle", ["state": .text("active")]) == .active(since: nil))
        #expect(try read("session", ["state": .text("locked")]) == .session(.locked))
        #expect(try read("sleep", ["state": .text("resume")]) == .sleep(.resume))
        #expect(try read("power", ["state": .text("battery")]) == .power(.battery))
        #expect(try read("network", ["state": .text("connected"), "connection": .text("ACME")])
            == .network(NetworkChange(state: .connected, connection: "ACME")))
        #expect(try read("device", ["action": .text("added"), "usb": .text("17EF:30B4"), "devpath": .text("/d/1-2")])
            == .device(DeviceChange(action: .added, devpath: "/d/1-2", subsystem: "usb", vendor: "17ef", product: "30b4")))
        #expect(throws: EventFields.Failure(#""state" must be "locked" or "unlocked""#)) {
            try read("session", ["state": .integer(1)])
        }
        #expect(throws: EventFields.Failure(#""state" is missing; it must be "battery" or "ac""#)) {
            try read("power", [:])
        }
    }

    @Test func aChangeNamesItsKindAndComparesByValue() {
        #expect(DeskEvent.session(.locked).kindName == "session")
        #expect(DeskEvent.idle(since: now).kindName == "idle")
        #expect(DeskEvent.session(.locked) != .session(.unlocked))
        #expect(DeskEvent.power(.ac) != .sleep(.resume))
    }

    @Test func theWatchesComeFromTheRegistry() {
        let environment = ["XDG_SESSION_ID": "3"]
        #expect(DeskWatchPlan.standardIdle(environment: environment, intervalMilliseconds: 5000).map(\.serviceName)
            == ["org.gnome.Mutter.IdleMonitor", "org.freedesktop.ScreenSaver", "org.freedesktop.login1"])
        let plans = DeskWatchPlan.standard(environment: environment)
        #expect(plans.map(\.reports) == ["lock", "sleep", "network", "power"])
        #expect(plans.map(\.bus) == [.system, .system, .system, .system])
        #expect(plans.map(\.serviceName)
            == ["org.freedesktop.login1", "org.freedesktop.login1", "org.freedesktop.NetworkManager", "org.freedesktop.UPower"])
        let sources = DeskKind.standardThreadWatches(log: { _, _ in })
        #expect(sources.map(\.name) == ["udev"])
        #expect(sources.map(\.reports) == ["devices"])
    }
}
