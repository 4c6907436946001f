import Foundation
import Testing
import TrackeeDesk

/// The network, the power supply and devices through the real `trackee run`.
extension DeskBusSuites.DeskRunTests {
    /// Office, then nothing, then Home, each step at a second of its own:
    /// each edge fires once, and NetworkManager repeating its list of
    /// active connections fires nothing.
    @Test func switchingWiFiNetworksFiresEachEdgeOnce() async throws {
        try await withDesk(rules: """
            rules:
              - id: office
                when: {network: {ssid: ACME-Office, on: connected}}
                do: [{start: {project: Office}}]
              - id: left-office
                when: {network: {ssid: ACME-Office, on: disconnected}}
                do: [stop]
              - id: home
                when: {network: {ssid: Home}}
                do: [{start: {project: Home}}]
            """) { desk, run, start in
            let connected = nextSecond()
            let office = try desk.connect(office: true, as: "1")
            #expect(try await run.eventually { try run.firings().count >= 1 })
            let disconnected = nextSecond()
            try desk.disconnect(office)
            #expect(try await run.eventually { try run.firings().count >= 2 })
            let home = nextSecond()
            let homePath = try desk.connect(office: false, as: "2")
            for _ in 0..<20 {
                try desk.mock(MockedDesk.networkManager, MockedDesk.networkManagerPath, "SetProperty", [
                    .string(MockedDesk.networkManagerPath), .string(MockedDesk.networkManager),
                    .string("ActiveConnections"), .variant(.array(elementSignature: "o", [.objectPath(homePath)])),
                ])
            }
            #expect(try await run.eventually { try run.firings().count >= 3 })
            #expect(try run.firings() == [
                Firing("office", connected), Firing("left-office", disconnected), Firing("home", home),
            ])
            #expect(try run.entries() == [
                Stored(project: "Desk", start: start, end: connected, source: "cli"),
                Stored(project: "Office", start: connected, end: disconnected, source: "rule:office"),
                Stored(project: "Home", start: home, end: nil, source: "rule:home"),
            ])
        }
    }

    /// On battery twice is one edge; back on AC is the next.
    @Test func unpluggingACFiresBatteryOnce() async throws {
        try await withDesk(rules: """
            rules:
              - id: battery
                when: {power: battery}
                do: [{notify: "on battery"}]
              - id: ac
                when: {power: ac}
                do: [{notify: "on AC"}]
            """) { desk, run, start in
            let unplugged = nextSecond()
            try desk.power(onBattery: true)
            try desk.power(onBattery: true)
            #expect(try await run.eventually { try run.firings().count >= 1 })
            let plugged = nextSecond()
            try desk.power(onBattery: true)
            try desk.power(onBattery: false)
            #expect(try await run.eventually { try run.firings().count >= 2 })
            #expect(try run.firings() == [Firing("battery", unplugged), Firing("ac", plugged)])
            #expect(run.logLines(containing: "notify (") == [Self.notified("on battery"), Self.notified("on AC")])
            #expect(try run.firingKeys(of: ["battery", "ac"]) == ["battery@power:battery:\(unplugged)", "ac@power:ac:\(plugged)"])
            #expect(try run.entries() == [Stored(project: "Desk", start: start, end: nil, source: "cli")])
        }
    }

    /// Why the kernel cannot be made to send a uevent here; nil when it can.
    static let noUevents: String? = {
        let reason: String?
        if getuid() != 0 {
            reason = "not root"
        } else if access(loopbackUevent, W_OK) != 0 {
            reason = "\(loopbackUevent) is not writable (a read-only /sys)"
        } else {
            // What trackee run opens; dropped at once, which closes it.
            do {
                _ = try DeviceMonitor.kernel()
                reason = nil
            } catch {
                reason = "\(error)"
            }
        }
        if let reason { print("DeskRunTests: the device test is skipped: \(reason)") }
        return reason
    }()

    static let loopbackUevent = "/sys/devices/virtual/net/lo/uevent"

    /// Has the kernel send an `action` uevent for the loopback interface:
    /// a synthetic one, which changes no device.
    func loopbackUevent(_ action: String) throws {
        try Data("\(action)\n".utf8).write(to: URL(fileURLWithPath: Self.loopbackUevent))
    }

    /// Real uevents from the kernel's netlink socket: `add` (twice, one
    /// edge) and `remove` of `lo`, whose subsystem is `net`. Every other
    /// `trackee run` on the machine hears them too, and fires nothing: no
    /// other test has a device rule.
    @Test(.enabled(if: noUevents == nil, "needs root, a writable /sys and the kernel's uevent socket"))
    func aDeviceAddedAndRemovedThroughTheKernelFiresEachRuleOnce() async throws {
        try await withDesk(rules: """
            rules:
              - id: plugged
                when: {device: {subsystem: net, on: added}}
                do: [{notify: "added {{trigger.devpath}}"}]
              - id: unplugged
                when: {device: {subsystem: net, on: removed}}
                do: [{notify: "removed {{trigger.devpath}}"}]
            """) { desk, run, start in
            let added = nextSecond()
            try loopbackUevent("add")
            try loopbackUevent("add")
            #expect(try await run.eventually { try run.firings().count >= 1 })
            let removed = nextSecond()
            try loopbackUevent("remove")
            #expect(try await run.eventually { try run.firings().count >= 2 })
            #expect(try run.firings() == [Firing("plugged", added), Firing("unplugged", removed)])
            #expect(run.logLines(containing: "notify (") == [
                Self.notified("added /devices/virtual/net/lo"), Self.notified("removed /devices/virtual/net/lo"),
            ])
            #expect(try run.firingKeys(of: ["plugged", "unplugged"]) == [
                "plugged@device:added:/devices/virtual/net/lo:\(added)",
                "unplugged@device:removed:/devices/virtual/net/lo:\(removed)",
            ])
            #expect(try run.entries() == [Stored(project: "Desk", start: start, end: nil, source: "cli")])
        }
    }
}
