import Testing
import TrackeeCore
@testable import TrackeeAutomation

/// The desk's event lines: each gives the change a D-Bus or udev source
/// gives for the same thing, and a bad one names its line and field.
@Suite struct DeskLineTests {
    /// The lines' reading time: 2026-11-20 10:00 in Prague.
    let now = Instant(seconds: 1_795_165_200)

    @Test func idleLinesGiveWhenIdlenessBegan() throws {
        #expect(try EventLine.parse(#"{"type":"idle","idle_for":60}"#, line: 1) == .desk(.idle(since: now - 60), time: nil))
        #expect(try EventLine.parse(#"{"type":"idle","idle_for":600,"time":"2026-11-23T12:00:00+01:00"}"#, line: 1)
            == .desk(.idle(since: Instant(seconds: 1_795_431_000)), time: Instant(seconds: 1_795_431_600)))
        #expect(try EventLine.parse(#"{"type":"idle","since":"2026-11-23 11:50"}"#, line: 1)
            == .desk(.idle(since: Instant(seconds: 1_795_431_000)), time: nil))
        #expect(try EventLine.parse(#"{"type":"idle","state":"idle","since":1795431000}"#, line: 1)
            == .desk(.idle(since: Instant(seconds: 1_795_431_000)), time: nil))
        #expect(try EventLine.parse(#"{"type":"idle","state":"active"}"#, line: 1) == .desk(.active(since: nil), time: nil))
        #expect(try EventLine.parse(#"{"type":"idle","state":"active","since":1795431000}"#, line: 1)
            == .desk(.active(since: Instant(seconds: 1_795_431_000)), time: nil))
    }

    @Test func theOtherKindsLines() throws {
        #expect(try EventLine.parse(#"{"type":"session","state":"locked"}"#, line: 1) == .desk(.session(.locked), time: nil))
        #expect(try EventLine.parse(#"{"type":"sleep","state":"shutdown","time":1795431600}"#, line: 1)
            == .desk(.sleep(.shutdown), time: Instant(seconds: 1_795_431_600)))
        #expect(try EventLine.parse(#"{"type":"power","state":"ac"}"#, line: 1) == .desk(.power(.ac), time: nil))
        #expect(try EventLine.parse(
            #"{"type":"network","state":"connected","connection":"ACME","ssid":"ACME-Office","connection_type":"802-11-wireless","uuid":"u-1"}"#,
            line: 1)
            == .desk(.network(NetworkChange(state: .connected, connection: "ACME", ssid: "ACME-Office",
                                            connectionType: "802-11-wireless", uuid: "u-1")), time: nil))
        #expect(try EventLine.parse(#"{"type":"network","state":"disconnected","connection":"VPN"}"#, line: 1)
            == .desk(.network(NetworkChange(state: .disconnected, connection: "VPN")), time: nil))
        #expect(try EventLine.parse(
            #"{"type":"device","action":"added","subsystem":"usb","usb":"17EF:30b4","serial":"X1","name":"Dock","devpath":"/devices/1-2"}"#,
            line: 1)
            == .desk(.device(DeviceChange(action: .added, devpath: "/devices/1-2", subsystem: "usb", vendor: "17ef",
                                          product: "30b4", serial: "X1", name: "Dock")), time: nil))
        #expect(try EventLine.parse(#"{"type":"device","action":"removed","vendor":"17ef","product":"30B4","devpath":"/d"}"#, line: 1)
            == .desk(.device(DeviceChange(action: .removed, devpath: "/d", subsystem: "usb", vendor: "17ef", product: "30b4")),
                     time: nil))
        #expect(try EventLine.parse(#"{"type":"device","action":"added","subsystem":"block","devpath":"/d/sdb"}"#, line: 1)
            == .desk(.device(DeviceChange(action: .added, devpath: "/d/sdb", subsystem: "block")), time: nil))
    }

    @Test(arguments: [
        (#"{"type":"idle"}"#, #"an idle line needs "since" (a time) or "idle_for" (whole seconds, 0 or more)"#),
        (#"{"type":"idle","idle_for":-5}"#, #"an idle line needs "since" (a time) or "idle_for" (whole seconds, 0 or more)"#),
        (#"{"type":"idle","idle_for":"60"}"#, #"an idle line needs "since" (a time) or "idle_for" (whole seconds, 0 or more)"#),
        (#"{"type":"idle","since":"soonish"}"#, #""since": cannot read "soonish" as a time; use 2026-11-20T11:03+01:00, 2026-11-20 11:03, 11:03, yesterday 11:03, -2h or 90m ago"#),
        (#"{"type":"idle","since":1,"idle_for":2}"#, #"give "since" or "idle_for", not both"#),
        (#"{"type":"idle","state":"away"}"#, #""state" must be "idle" or "active""#),
        (#"{"type":"idle","state":"active","idle_for":3}"#, #""idle_for" goes with an idle line, not an active one"#),
        (#"{"type":"session"}"#, #""state" is missing; it must be "locked" or "unlocked""#),
        (#"{"type":"session","state":"Locked"}"#, #""state" must be "locked" or "unlocked""#),
        (#"{"type":"sleep","state":"hibernate"}"#, #""state" must be "suspend", "resume" or "shutdown""#),
        (#"{"type":"power","state":1}"#, #""state" must be "battery" or "ac""#),
        (#"{"type":"network","state":"connected"}"#, #""connection" is missing or blank"#),
        (#"{"type":"network","state":"up","connection":"X"}"#, #""state" must be "connected" or "disconnected""#),
        (#"{"type":"network","state":"connected","connection":"X","ssid":4}"#, #""ssid" must be a text that is not blank"#),
        (#"{"type":"device","action":"added","usb":"17ef:30b4"}"#, #""devpath" is missing or blank"#),
        (#"{"type":"device","action":"plugged","devpath":"/d"}"#, #""action" must be "added" or "removed""#),
        (#"{"type":"device","action":"added","devpath":"/d","usb":"17ef30b4"}"#, #""usb" must be vendor:product in hex, such as "17ef:30b4""#),
        (#"{"type":"device","action":"added","devpath":"/d","vendor":"17e"}"#, #""vendor" must be four hex digits"#),
        (#"{"type":"device","action":"added","devpath":"/d","usb":"17ef:30b4","vendor":"17ef"}"#, #"give "usb" or "vendor" and "product", not both"#),
        (#"{"type":"device","action":"added","devpath":"/d"}"#, #""subsystem" is missing or blank"#),
    ])
    func badLinesNameTheLineAndTheField(line: String, message: String) {
        #expect(throws: EventLine.Failure(line: 4, message: message)) { try EventLine.parse(line, line: 4) }
    }
}
