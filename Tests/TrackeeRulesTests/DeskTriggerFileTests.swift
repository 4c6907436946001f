import Testing
import TrackeeCore
@testable import TrackeeRules

/// The desk kinds (`idle`, `session`, `sleep`, `network`, `power`,
/// `device`) as rule files write them, what their events carry, which
/// events each accepts, and the refusals a misspelt one gets.
@Suite struct DeskTriggerFileTests {
    /// 2026-11-26 09:50 in Prague.
    let tenTo = Instant(seconds: 1_795_683_000)

    /// The error lines of a rule whose `when:` is `{TRIGGER}`; its value
    /// starts at column 12 of line 3.
    func errors(_ trigger: String) -> [String] {
        errorLines("rules:\n  - id: a\n    when: {\(trigger)}\n    do: [stop]\n")
    }

    @Test func everyKindReadsInEveryForm() throws {
        let read = try rules("""
            rules:
              - id: away
                when: {idle: {for: 10m}}
                do: [{stop: {at: "{{trigger.idle_since}}"}}]
              - id: back
                when:
                  - idle: ended
                  - idle: {ended: true, after: 1h30m}
                do: [{notify: "Away {{trigger.idle_duration}} since {{trigger.idle_since - 1m}}"}]
              - id: desk
                when:
                  - session: locked
                  - sleep: shutdown
                  - power: ac
                  - network: disconnected
                  - network: {ssid: "ACME-Office"}
                  - network: {connection: "ACME VPN", on: disconnected}
                  - device: {usb: "17EF:30B4"}
                  - device: {serial: "X1", subsystem: usb, name: "ThinkPad Dock", on: removed}
                do: [stop]
            """)
        #expect(read.map { $0.triggers.count } == [1, 2, 8])
        #expect(read[0].triggers[0].isEqual(to: IdleTrigger(.reached(600))))
        #expect(read[0].actions == [.stopAt(template("{{trigger.idle_since}}"))])
        #expect(read[1].triggers[0].isEqual(to: IdleTrigger(.ended(after: nil))))
        #expect(read[1].triggers[1].isEqual(to: IdleTrigger(.ended(after: 5400))))
        let desk = read[2].triggers
        #expect(desk[0].isEqual(to: SessionTrigger(.locked)))
        #expect(desk[1].isEqual(to: SleepTrigger(.shutdown)))
        #expect(desk[2].isEqual(to: PowerTrigger(.ac)))
        #expect(desk[3].isEqual(to: NetworkTrigger(.disconnected)))
        #expect(desk[4].isEqual(to: NetworkTrigger(.connected, ssid: "ACME-Office")))
        #expect(desk[5].isEqual(to: NetworkTrigger(.disconnected, connection: "ACME VPN")))
        #expect(desk[6].isEqual(to: DeviceTrigger(.added, usb: "17ef:30b4")))
        #expect(desk[7].isEqual(to: DeviceTrigger(.removed, serial: "X1", subsystem: "usb", name: "ThinkPad Dock")))
    }

    @Test func idleEdgesCarryTheirSinceAsATimeAndKeyByIt() throws {
        let prague = try Zone(identifier: "Europe/Prague")
        let reached = TriggerEvent(.idleReached(since: tenTo, threshold: 600), time: tenTo + 600)
        #expect(reached.fields(zone: prague) == [
            "state": "idle", "idle_since": "2026-11-26T09:50:00+01:00", "idle_duration": "10m", "threshold": "10m",
        ])
        #expect(reached.occurrence == "idle:1795683000:for:600")
        #expect(reached.payload.indexKey == "idle:for:600")
        #expect(reached.summary == "idle 10m")
        #expect(!reached.isTimed)
        let ended = TriggerEvent(.idleEnded(since: tenTo, duration: 4500), time: tenTo + 4500)
        #expect(ended.fields(zone: prague) == [
            "state": "active", "idle_since": "2026-11-26T09:50:00+01:00", "idle_duration": "1h 15m", "threshold": "",
        ])
        #expect(ended.occurrence == "idle:1795683000:ended")
        #expect(ended.payload.indexKey == "idle:ended")
        #expect(ended.summary == "active after 1h 15m idle")
    }

    @Test func theOtherEdgesKeyByTheirOwnTime() {
        let zone = Zone.utc
        let lock = TriggerEvent(.session(.locked), time: tenTo)
        #expect(lock.fields(zone: zone) == ["state": "locked"])
        #expect((lock.occurrence, lock.payload.indexKey, lock.summary) == ("session:locked:1795683000", "session:locked", "session locked"))
        let sleep = TriggerEvent(.sleep(.suspend), time: tenTo)
        #expect((sleep.occurrence, sleep.payload.indexKey, sleep.summary) == ("sleep:suspend:1795683000", "sleep:suspend", "sleep suspend"))
        let power = TriggerEvent(.power(.battery), time: tenTo)
        #expect((power.occurrence, power.payload.indexKey, power.summary) == ("power:battery:1795683000", "power:battery", "power battery"))
        let wifi = TriggerEvent(.network(NetworkChange(state: .connected, connection: "ACME", ssid: "ACME-Office",
                                                       connectionType: "802-11-wireless", uuid: "u-1")), time: tenTo)
        #expect(wifi.fields(zone: zone) == [
            "state": "connected", "connection": "ACME", "ssid": "ACME-Office", "connection_type": "802-11-wireless",
            "uuid": "u-1",
        ])
        #expect((wifi.occurrence, wifi.payload.indexKey, wifi.summary)
                == ("network:connected:u-1:1795683000", "network:connected", "network ACME-Office connected"))
        let vpn = TriggerEvent(.network(NetworkChange(state: .disconnected, connection: "VPN: ACME")), time: tenTo)
        #expect(vpn.fields(zone: zone) == [
            "state": "disconnected", "connection": "VPN: ACME", "ssid": "", "connection_type": "", "uuid": "",
        ])
        #expect(vpn.occurrence == "network:disconnected:VPN%3A ACME:1795683000")
        #expect(vpn.summary == "network VPN: ACME disconnected")
        let dock = TriggerEvent(.device(DeviceChange(action: .added, devpath: "/devices/usb1/1-2", subsystem: "usb",
                                                     vendor: "17ef", product: "30b4", serial: "X1", name: "Dock")), time: tenTo)
        #expect(dock.fields(zone: zone) == [
            "action": "added", "devpath": "/devices/usb1/1-2", "subsystem": "usb", "usb": "17ef:30b4", "vendor": "17ef",
            "product": "30b4", "serial": "X1", "name": "Dock",
        ])
        #expect((dock.occurrence, dock.payload.indexKey, dock.summary)
                == ("device:added:/devices/usb1/1-2:1795683000", "device:added", "device 17ef:30b4 added"))
    }

    @Test func eachTriggerAcceptsOnlyItsEdgeAndItsMatchers() {
        let zone = Zone.utc
        let ten = TriggerEvent(.idleReached(since: tenTo, threshold: 600), time: tenTo + 600)
        #expect(IdleTrigger(.reached(600)).accepts(ten, zone: zone))
        #expect(!IdleTrigger(.reached(300)).accepts(ten, zone: zone))
        #expect(!IdleTrigger(.ended(after: nil)).accepts(ten, zone: zone))
        let back = TriggerEvent(.idleEnded(since: tenTo, duration: 599), time: tenTo + 599)
        #expect(IdleTrigger(.ended(after: nil)).accepts(back, zone: zone))
        #expect(IdleTrigger(.ended(after: 599)).accepts(back, zone: zone))
        #expect(!IdleTrigger(.ended(after: 600)).accepts(back, zone: zone))
        #expect(SessionTrigger(.locked).accepts(TriggerEvent(.session(.locked), time: tenTo), zone: zone))
        #expect(!SessionTrigger(.locked).accepts(TriggerEvent(.session(.unlocked), time: tenTo), zone: zone))
        #expect(!SleepTrigger(.suspend).accepts(TriggerEvent(.session(.locked), time: tenTo), zone: zone))
        let wifi = TriggerEvent(.network(NetworkChange(state: .connected, connection: "ACME VPN", ssid: "ACME-Office")), time: tenTo)
        #expect(NetworkTrigger(.connected).accepts(wifi, zone: zone))
        #expect(NetworkTrigger(.connected, ssid: "ACME-Office").accepts(wifi, zone: zone))
        #expect(!NetworkTrigger(.connected, ssid: "acme-office").accepts(wifi, zone: zone))
        #expect(NetworkTrigger(.connected, connection: "acme vpn").accepts(wifi, zone: zone))
        #expect(!NetworkTrigger(.disconnected, ssid: "ACME-Office").accepts(wifi, zone: zone))
        let dock = TriggerEvent(.device(DeviceChange(action: .added, devpath: "/d/1", subsystem: "usb", vendor: "17ef",
                                                     product: "30b4", serial: "X1", name: "ThinkPad Dock")), time: tenTo)
        #expect(DeviceTrigger(.added, usb: "17ef:30b4").accepts(dock, zone: zone))
        #expect(DeviceTrigger(.added, usb: "17ef:30b4", serial: "X1", subsystem: "usb", name: "thinkpad dock").accepts(dock, zone: zone))
        #expect(!DeviceTrigger(.added, serial: "x1").accepts(dock, zone: zone))
        #expect(!DeviceTrigger(.added, usb: "17ef:30b5").accepts(dock, zone: zone))
        #expect(!DeviceTrigger(.removed, usb: "17ef:30b4").accepts(dock, zone: zone))
    }

    @Test func checkShowsEachTriggerAsWritten() {
        let views = [
            IdleTrigger(.reached(600)), IdleTrigger(.ended(after: 5400)), IdleTrigger(.ended(after: nil)),
        ].map { $0.checkView(ahead: nil, enabled: true, zone: .utc) } + [
            SessionTrigger(.unlocked).checkView(ahead: nil, enabled: true, zone: .utc),
            NetworkTrigger(.connected, ssid: "ACME-Office").checkView(ahead: nil, enabled: true, zone: .utc),
            DeviceTrigger(.removed, usb: "17ef:30b4", name: "Dock").checkView(ahead: nil, enabled: true, zone: .utc),
        ]
        #expect(views.map(\.text) == [
            "idle for 10m", "idle ended after 1h30m or more", "idle ended", "session unlocked",
            "network connected (ssid ACME-Office)", "device removed (usb 17ef:30b4, name Dock)",
        ])
        #expect(views.map(\.fields) == [
            ["idle": .text("for"), "for": .text("10m")], ["idle": .text("ended"), "after": .text("1h30m")],
            ["idle": .text("ended")], ["session": .text("unlocked")],
            ["network": .text("connected"), "ssid": .text("ACME-Office")],
            ["device": .text("removed"), "usb": .text("17ef:30b4"), "name": .text("Dock")],
        ])
    }

    @Test func misspeltIdleTriggersAreRefusedWithWhereAndWhy() {
        #expect(errors("idle: endd") == [
            "rules.yaml:3:18: rule \"a\": when.idle: unknown idle edge \"endd\"; did you mean \"ended\"?"
        ])
        #expect(errors("idle: 10m") == [
            "rules.yaml:3:18: rule \"a\": when.idle: a length of idleness goes under for: write idle: {for: 10m}"
        ])
        #expect(errors("idle: {for: 0m}") == [
            "rules.yaml:3:24: rule \"a\": when.idle.for: idleness must be longer than 0s, found \"0m\""
        ])
        #expect(errors("idle: {for: ten}") == [
            "rules.yaml:3:24: rule \"a\": when.idle.for: expected a duration such as 30s, 10m, 2h or 1h30m, found \"ten\""
        ])
        #expect(errors("idle: {fro: 10m}") == [
            "rules.yaml:3:19: rule \"a\": when.idle.fro: unknown key \"fro\"; did you mean \"for\"?",
            "rules.yaml:3:18: rule \"a\": when.idle: expected {for: DURATION} or {ended: true, after: DURATION}, such as {for: 10m}",
        ])
        #expect(errors("idle: {ended: false}") == [
            "rules.yaml:3:26: rule \"a\": when.idle.ended: ended: takes true; for idleness itself write {for: DURATION}"
        ])
        #expect(errors("idle: {for: 10m, ended: true}") == [
            "rules.yaml:3:36: rule \"a\": when.idle.ended: {for: …} and {ended: true, after: …} are two triggers; make each its own list item"
        ])
        #expect(errors("idle: {for: 10m, after: 5m}") == [
            "rules.yaml:3:36: rule \"a\": when.idle.after: {for: …} and {ended: true, after: …} are two triggers; make each its own list item"
        ])
        #expect(errors("idle: {after: 10m}") == [
            "rules.yaml:3:18: rule \"a\": when.idle: expected {for: DURATION} or {ended: true, after: DURATION}, such as {for: 10m}"
        ])
    }

    @Test func misspeltStatesAndMatchersAreRefusedWithWhereAndWhy() {
        #expect(errors("session: lockd") == [
            "rules.yaml:3:21: rule \"a\": when.session: unknown session state \"lockd\"; did you mean \"locked\"?"
        ])
        #expect(errors("sleep: suspended") == [
            "rules.yaml:3:19: rule \"a\": when.sleep: unknown sleep state \"suspended\"; did you mean \"suspend\"?"
        ])
        #expect(errors("power: mains") == [
            "rules.yaml:3:19: rule \"a\": when.power: unknown power state \"mains\"; use \"battery\", \"ac\""
        ])
        #expect(errors("network: {}") == [
            "rules.yaml:3:21: rule \"a\": when.network: name the network with ssid: or connection:, or write network: connected for any"
        ])
        #expect(errors("network: {on: disconnected}") == [
            "rules.yaml:3:21: rule \"a\": when.network: name the network with ssid: or connection:, or write network: connected for any"
        ])
        #expect(errors("network: {sid: ACME}") == [
            "rules.yaml:3:22: rule \"a\": when.network.sid: unknown key \"sid\"; did you mean \"ssid\"?",
            "rules.yaml:3:21: rule \"a\": when.network: name the network with ssid: or connection:, or write network: connected for any",
        ])
        #expect(errors("network: {ssid: ACME, on: conected}") == [
            "rules.yaml:3:38: rule \"a\": when.network.on: unknown network state \"conected\"; did you mean \"connected\"?"
        ])
        #expect(errors("device: {usb: 17ef-30b4}") == [
            "rules.yaml:3:26: rule \"a\": when.device.usb: expected a USB id as vendor:product in hex, such as \"17ef:30b4\", found \"17ef-30b4\""
        ])
        #expect(errors("device: {on: added}") == [
            "rules.yaml:3:20: rule \"a\": when.device: name the device with usb:, serial:, subsystem: or name:"
        ])
        #expect(errors("device: added") == [
            "rules.yaml:3:20: rule \"a\": when.device: expected a mapping such as {usb: \"17ef:30b4\"}, found \"added\""
        ])
        #expect(errors("idel: {for: 10m}") == [
            "rules.yaml:3:12: rule \"a\": when.idel: unknown trigger \"idel\"; did you mean \"idle\"?"
        ])
    }

    @Test func templatesMayShiftIdleSinceAndNothingElseOfIdle() {
        #expect(errorLines("""
            rules:
              - id: a
                when: {idle: {for: 10m}}
                do: [{notify: "{{trigger.idle_duration + 1m}}"}]
            """) == [
            "rules.yaml:4:19: rule \"a\": do[0].notify: only a time (trigger.time, trigger.idle_since) can be shifted by a length, not trigger.idle_duration"
        ])
    }
}
