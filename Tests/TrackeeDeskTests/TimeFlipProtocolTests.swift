import Testing
import TrackeeCore
@testable import TrackeeDesk

/// The TimeFlip2 protocol's bytes as the flip watch writes and reads them,
/// big-endian (Tests/Servers/TIMEFLIP.md).
@Suite struct TimeFlipProtocolTests {
    typealias TF = TimeFlipProtocol
    /// 1_795_500_000 = 0x6B0527E0.
    static let t0 = Instant(seconds: 1_795_500_000)
    static let t0Bytes: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x6B, 0x05, 0x27, 0xE0]

    static func record(_ number: UInt32, _ side: UInt8, _ start: UInt64, _ duration: UInt32) -> TF.Record {
        TF.Record(number: number, side: side, start: start, duration: duration)
    }

    @Test func theCommandsAreTheDocumentsBytes() {
        #expect(TF.setClock(Self.t0) == [0x08] + Self.t0Bytes)
        #expect(TF.readClock == [0x07])
        #expect(TF.status == [0x10])
        #expect(TF.lastRecord == [0x01, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(TF.records(from: 0x0102_0304) == [0x02, 0x01, 0x02, 0x03, 0x04])
        #expect(TF.records(from: 7) == [0x02, 0x00, 0x00, 0x00, 0x07])
        #expect(TF.facets == "f1196f52-71a4-11e6-bdf4-0800200c9a66")
        #expect(TF.history == "f1196f58-71a4-11e6-bdf4-0800200c9a66")
    }

    @Test func aStreamPacketIsARecordOrTheEndInEitherForm() {
        // Record 7, facet 3, began at t0, lasted 60 s; previous event 6.
        let packet: [UInt8] = [0x00, 0x00, 0x00, 0x07, 0x03] + Self.t0Bytes + [0x00, 0x00, 0x00, 0x3C, 0x00, 0x00, 0x06]
        #expect(TF.streamPacket(packet) == .record(Self.record(7, 3, 1_795_500_000, 60)))
        #expect(TF.streamPacket([UInt8](repeating: 0, count: 20)) == .end)
        #expect(TF.streamPacket([UInt8](repeating: 0, count: 17) + [0x00, 0x01, 0x2C]) == .end)
        #expect(TF.streamPacket([UInt8](repeating: 0, count: 17)) == .end)
        #expect(TF.streamPacket(Array(packet.prefix(16))) == .malformed("16 bytes instead of 20"))
        #expect(TF.streamPacket(packet + [0]) == .malformed("21 bytes instead of 20"))
        #expect(TF.streamPacket([]) == .malformed("0 bytes instead of 20"))
    }

    @Test func theLastRecordIsSeventeenBytesPaddedOrNotAndZerosWhenThereIsNone() {
        let head: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFE, 0x8C] + Self.t0Bytes + [0x00, 0x01, 0x00, 0x00]
        #expect(TF.lastRecord(head) == .some(Self.record(0xFFFF_FFFE, 140, 1_795_500_000, 65536)))
        #expect(TF.lastRecord(head + [0, 0, 0]) == .some(Self.record(0xFFFF_FFFE, 140, 1_795_500_000, 65536)))
        #expect(TF.lastRecord([UInt8](repeating: 0, count: 20)) == .some(nil))
        #expect(TF.lastRecord([UInt8](repeating: 0, count: 17)) == .some(nil))
        #expect(TF.lastRecord(Array(head.prefix(5))) == nil)
        #expect(TF.lastRecord(head + [UInt8](repeating: 0, count: 4)) == nil)
    }

    @Test func theCommandResultsReadAsDocumented() {
        #expect(TF.passwordAccepted([0x01]) == true)
        #expect(TF.passwordAccepted([0x02]) == false)
        #expect(TF.passwordAccepted([0x01] + [UInt8](repeating: 0, count: 19)) == true)
        #expect(TF.passwordAccepted([0x03]) == nil)
        #expect(TF.passwordAccepted([]) == nil)
        #expect(TF.clock([0x07] + Self.t0Bytes) == 1_795_500_000)
        #expect(TF.clock([0x07] + Self.t0Bytes + [UInt8](repeating: 0, count: 11)) == 1_795_500_000)
        #expect(TF.clock([0x08] + Self.t0Bytes) == nil)
        #expect(TF.clock([0x07] + Self.t0Bytes.dropLast()) == nil)
        #expect(TF.paused(status: [0x02, 0x01, 0x00, 0x00]) == true)
        #expect(TF.paused(status: [0x01, 0x02, 0x00, 0x05]) == false)
        #expect(TF.paused(status: [0x03, 0x01, 0x00, 0x00]) == nil)
        #expect(TF.paused(status: [0x02, 0x01, 0x00]) == nil)
    }

    @Test func systemStateAsksForTheTimeAndReportsFaults() {
        let sync = TF.SystemState([0x02, 0x01, 0x00, 0x00])
        #expect(sync?.needsTime == true)
        #expect(sync?.hardwareFault == nil)
        #expect(TF.SystemState([0x00, 0x00, 0x00, 0x00])?.needsTime == false)
        #expect(TF.SystemState([0x01, 0x00, 0x02, 0x03])?.hardwareFault == "its accelerometer and flash memory failed")
        #expect(TF.SystemState([0x00, 0x00, 0x07, 0x07])?.hardwareFault == "its hardware state is 07 07")
        #expect(TF.SystemState([0x02, 0x01, 0x00]) == nil)
        #expect(TF.SystemState([0x02, 0x01, 0x00, 0x00, 0x00]) == nil)
    }

    @Test func facetsTapsAndTheBatteryAreOneByteInRange() {
        #expect(TF.facet([12]) == 12)
        #expect(TF.facet([1]) == 1)
        for bad: [UInt8] in [[0], [13], [255], [], [1, 2]] { #expect(TF.facet(bad) == nil) }
        #expect(TF.tap([5]) == .facet(5))
        #expect(TF.tap([0x83]) == .paused(facet: 3))
        for bad: [UInt8] in [[0], [66], [128], [141], [13], [], [0x83, 0]] { #expect(TF.tap(bad) == nil) }
        #expect(TF.batteryLevel([0]) == 0)
        #expect(TF.batteryLevel([100]) == 100)
        #expect(TF.batteryLevel([101]) == nil)
        #expect(TF.batteryLevel([50, 0]) == nil)
        #expect(TF.side(66) == .unknown)
        #expect(TF.side(140) == .paused(12))
        #expect(TF.side(0) == nil)
    }

    @Test func aCatchUpReportsEachRecordAtItsCorrectedStart() {
        let t = UInt64(Self.t0.seconds)
        let records = [
            Self.record(5, 3, t, 100), Self.record(6, 0x84, t + 100, 50),
            // Record 7 lasted under 5 s: not in the stream.
            Self.record(8, 12, t + 160, 40),
        ]
        let (intervals, warnings) = TF.catchUp(records, from: 5, offset: 3600, after: nil, now: Self.t0 + 200)
        #expect(intervals == [
            TF.Interval(number: 5, change: .facet(3), time: Self.t0 - 3600),
            TF.Interval(number: 6, change: .paused(facet: 4), time: Self.t0 + 100 - 3600),
            TF.Interval(number: 8, change: .facet(12), time: Self.t0 + 160 - 3600),
        ])
        #expect(warnings == [])
    }

    @Test func aCatchUpLeavesOutWhatIsWrongWithAWarningEach() {
        let t = UInt64(Self.t0.seconds)
        let records = [
            Self.record(3, 1, t, 10),  // below the request
            Self.record(5, 1, t, 10),
            Self.record(5, 2, t + 10, 10),  // the same number again
            Self.record(6, 66, t + 20, 10),  // side unknown
            Self.record(7, 13, t + 30, 10),  // not a facet
            Self.record(8, 2, t - 100, 10),  // backwards
            Self.record(9, 3, t + 10_000, 10),  // after now
            // Record 5 lasted 10 s, yet 10 (after a gap) began 5 s after it: kept, as is 11,
            // which began 15 s after 10 began, though 10 lasted 10 s.
            Self.record(10, 4, t + 5, 10),
            Self.record(11, 5, t + 20, 10),
            Self.record(12, 6, UInt64(Int64.max) + 1, 10),
        ]
        let (intervals, warnings) = TF.catchUp(records, from: 4, offset: 0, after: nil, now: Self.t0 + 100)
        #expect(intervals == [
            TF.Interval(number: 5, change: .facet(1), time: Self.t0),
            TF.Interval(number: 10, change: .facet(4), time: Self.t0 + 5),
            TF.Interval(number: 11, change: .facet(5), time: Self.t0 + 20),
        ])
        #expect(warnings == [
            "history record 3 came in a stream asked to start at 4",
            "history record 5 came after record 5: out of order",
            "history record 6 is left out: its side is not known (the cube's accelerometer failed)",
            "history record 7 is left out: side 13 is not a facet",
            "history record 8 is left out: it began at 2026-11-24T05:58:20Z, before record 5 at 2026-11-24T06:00:00Z "
                + "(time running backwards)",
            "history record 9 is left out: it began at 2026-11-24T08:46:40Z, after now",
            "history record 5 lasted 10 s but record 10 began 5 s after it; both kept",
            "history record 10 lasted 10 s but record 11 began 15 s after it; both kept",
            "history record 12 is left out: its time 9223372036854775808 is out of range",
        ])
    }

    @Test func afterAResetOnlyTheIntervalsBegunAfterTheCursorCount() {
        let t = UInt64(Self.t0.seconds)
        let records = [Self.record(1, 1, t, 100), Self.record(2, 2, t + 100, 100), Self.record(3, 3, t + 200, 100)]
        let (intervals, warnings) = TF.catchUp(records, from: 0, offset: 0, after: Self.t0 + 100, now: Self.t0 + 400)
        #expect(intervals == [TF.Interval(number: 3, change: .facet(3), time: Self.t0 + 200)])
        #expect(warnings == [])
    }

    @Test func warningsOfAKindAreThreeAMinuteAndThenACount() {
        var warnings = LimitedWarnings(prefix: "flip:")
        var lines: [String] = []
        for index in 0..<200 { lines += warnings.lines(index % 2 == 0 ? "Facets" : "History", "bad \(index)", now: Self.t0) }
        #expect(lines == ["bad 0", "bad 1", "bad 2", "bad 3", "bad 4", "bad 5"])
        #expect(warnings.flush(now: Self.t0 + 59) == [])
        #expect(warnings.flush(now: Self.t0 + 60) == [
            "flip: left out 97 more warnings about Facets in 60 s", "flip: left out 97 more warnings about History in 60 s",
        ])
        #expect(warnings.flush(now: Self.t0 + 120) == [])
        #expect(warnings.lines("Facets", "bad again", now: Self.t0 + 121) == ["bad again"])
    }

    @Test func bluezObjectsAreReadAndTheCubeFoundByAddress() {
        func props(_ entries: [(String, DBusValue)]) -> DBusValue {
            .array(elementSignature: "{sv}", entries.map { .entry(key: .string($0.0), value: .variant($0.1)) })
        }
        func object(_ path: String, _ interfaces: [(String, DBusValue)]) -> DBusValue {
            .entry(key: .objectPath(path), value: .array(
                elementSignature: "{sa{sv}}", interfaces.map { .entry(key: .string($0.0), value: $0.1) }))
        }
        let device = "/org/bluez/hci3/dev_AA"
        let reply = DBusValue.array(elementSignature: "{oa{sa{sv}}}", [
            object("/org/bluez/hci3/dev_BB", [("org.bluez.Device1", props([("Address", .string("BB:00"))]))]),
            object(device, [("org.bluez.Device1", props([
                ("Address", .string("aa:01")), ("Connected", .bool(true)), ("ServicesResolved", .bool(true)),
            ]))]),
            object(device + "/service0020", [("org.bluez.GattService1", props([("UUID", .string(TF.service.uppercased()))]))]),
            object(device + "/service0020/char0030", [("org.bluez.GattCharacteristic1", props([
                ("UUID", .string(TF.facets)), ("Service", .objectPath(device + "/service0020")),
            ]))]),
            object(device + "/service0001/char0002", [("org.bluez.GattCharacteristic1", props([
                ("UUID", .string(TF.history)), ("Service", .objectPath(device + "/service0001")),
            ]))]),
            // Malformed: left out.
            .entry(key: .objectPath("/x"), value: .string("no")),
        ])
        let objects = BlueZ.objects(reply)
        #expect(objects?.count == 5)
        let found = objects.flatMap { BlueZ.device("AA:01", in: $0) }
        #expect(found?.path == device)
        #expect(found?.connected == true)
        #expect(found?.resolved == true)
        #expect(objects.map { BlueZ.characteristics(of: device, services: [TF.service, TF.batteryService], in: $0) } == [TF.facets: device + "/service0020/char0030"])
        #expect(BlueZ.objects(.array(elementSignature: "{sv}", [])) == nil)
        #expect(BlueZ.bytes(.array(elementSignature: "y", [.byte(1), .byte(2)])) == [1, 2])
        #expect(BlueZ.bytes(.array(elementSignature: "q", [.uint16(1)])) == nil)
    }
}
