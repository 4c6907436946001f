import Testing
import TrackeeDesk

/// The start line's wording and where the buses are found, without a bus.
struct DeskSummaryTests {
    typealias Attached = DeskSummary.Attached

    @Test func idleStandsAloneAndTheRestAreGroupedBySource() {
        let summary = DeskSummary(attached: [
            Attached(reports: "idle", watch: "logind"), Attached(reports: "lock", watch: "logind"),
            Attached(reports: "power", watch: "UPower"), Attached(reports: "sleep", watch: "logind"),
            Attached(reports: "network", watch: "NetworkManager"), Attached(reports: "devices", watch: "udev"),
        ], absent: [])
        #expect(summary.description
            == "desk: idle from logind, lock and sleep from logind, power from UPower, network from NetworkManager, "
            + "devices from udev")
    }

    @Test func threeFromOneSourceAreListedWithCommas() {
        let summary = DeskSummary(attached: [
            Attached(reports: "lock", watch: "logind"), Attached(reports: "sleep", watch: "logind"),
            Attached(reports: "power", watch: "logind"),
        ], absent: ["UPower (not on the system bus)", "session bus (no address)"])
        #expect(summary.description
            == "desk: lock, sleep and power from logind; absent: UPower (not on the system bus), session bus (no address)")
    }

    @Test func nothingAttachedSaysSo() {
        #expect(DeskSummary(attached: [], absent: ["system bus (no address)"]).description
            == "desk: nothing attached; absent: system bus (no address)")
    }

    @Test func theSessionBusComesFromItsVariableElseTheRuntimeDirectory() {
        #expect(DeskBus.session.address(in: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/x", "XDG_RUNTIME_DIR": "/run/user/7"])
            == "unix:path=/tmp/x")
        #expect(DeskBus.session.address(in: ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": "/run/user/7"])
            == "unix:path=/run/user/7/bus")
        #expect(DeskBus.session.address(in: [:]) == nil)
    }

    @Test func theSystemBusComesFromItsVariableElseItsWellKnownSocket() {
        #expect(DeskBus.system.address(in: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/tmp/y"]) == "unix:path=/tmp/y")
        #expect(DeskBus.system.address(in: [:]) == "unix:path=/run/dbus/system_bus_socket")
    }
}
