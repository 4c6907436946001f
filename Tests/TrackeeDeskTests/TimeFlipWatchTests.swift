import Foundation
import Synchronization
import Testing
import TrackeeCore
@testable import TrackeeDesk

/// Tests/Servers/fake_timeflip_bluez.py on a private bus: a TimeFlip2 cube
/// behind a mock bluetoothd, driven through `org.trackee.FakeCube1`.
final class FakeCube {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Servers/fake_timeflip_bluez.py")
    static let facets = TimeFlipProtocol.facets
    static let commandResult = TimeFlipProtocol.commandResult
    static let command = TimeFlipProtocol.command
    static let doubleTap = TimeFlipProtocol.doubleTap
    static let systemState = TimeFlipProtocol.systemState
    static let password = TimeFlipProtocol.password
    static let history = TimeFlipProtocol.history
    static let batteryLevel = TimeFlipProtocol.batteryLevel

    let bus: PrivateBus
    let control: DBusConnection
    private let input = Pipe()
    let device: String
    let devicePath: String

    /// Starts the bus and the fake with `options` (`--clock` is `clock`),
    /// and waits for its `ready`.
    init(_ options: [String] = [], clock: Instant = morning, adapter: String = "hci0",
         device: String = "0C:61:CF:C7:77:71") throws {
        self.device = device
        devicePath = "/org/bluez/\(adapter)/dev_" + device.replacingOccurrences(of: ":", with: "_")
        bus = try PrivateBus()
        do {
            let fake = Process()
            fake.executableURL = URL(fileURLWithPath: PrivateBus.python)
            fake.arguments = [Self.script.path, "--bus", bus.address, "--clock", String(clock.seconds),
                              "--adapter", adapter, "--device", device, "--exit-on-stdin-eof"] + options
            fake.environment = ["PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"]
            let output = Pipe()
            fake.standardInput = input
            fake.standardOutput = output
            fake.standardError = FileHandle.nullDevice
            try fake.run()
            bus.mocks.append(fake)
            var printed = Data()
            while !printed.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                printed.append(chunk)
            }
            guard String(decoding: printed, as: UTF8.self) == "ready\n" else {
                throw PrivateBus.Failure(description: "the fake cube said \(String(decoding: printed, as: UTF8.self))")
            }
            control = try DBusConnection(address: bus.address)
        } catch {
            bus.stop()
            throw error
        }
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        bus.stop()
    }

    @discardableResult
    func call(_ member: String, _ arguments: [DBusValue] = []) throws -> [DBusValue] {
        try control.call(destination: "org.trackee.FakeCube", path: "/org/trackee/cube",
                         interface: "org.trackee.FakeCube1", member: member, arguments: arguments)
    }

    static func bytes(_ values: [UInt8]) -> DBusValue { .array(elementSignature: "y", values.map(DBusValue.byte)) }

    @discardableResult
    func flip(_ facet: UInt8, at time: Instant) throws -> [DBusValue] {
        try call("Flip", [.byte(facet), .uint64(UInt64(time.seconds))])
    }

    func doubleTap(at time: Instant) throws { try call("DoubleTap", [.uint64(UInt64(time.seconds))]) }

    /// What clients wrote to a characteristic, in order.
    func written(_ uuid: String) throws -> [[UInt8]] {
        let reply = try call("Written", [.string(uuid)])
        guard reply.count == 1, case .array(_, let values) = reply[0] else { return [] }
        return values.compactMap(BlueZ.bytes)
    }

    /// Every bluetoothd call the watch made: method, target, bytes written (hex).
    func calls() throws -> [String] {
        let reply = try call("Log")
        guard reply.count == 1, case .array(_, let rows) = reply[0] else { return [] }
        return rows.map { row in
            guard case .structure(let fields) = row, fields.count == 3, case .string(let method) = fields[0],
                  case .string(let target) = fields[1], let bytes = BlueZ.bytes(fields[2]) else { return "\(row)" }
            let name = [Self.facets: "Facets", Self.commandResult: "Command result", Self.command: "Command",
                        Self.doubleTap: "Double tap", Self.systemState: "System state", Self.password: "Password",
                        Self.history: "History", Self.batteryLevel: "Battery level"][target] ?? target
            return bytes.isEmpty ? "\(method) \(name)" : "\(method) \(name) \(TimeFlipProtocol.hex(bytes))"
        }
    }

    func failNext(_ method: String, _ target: String, _ error: String, _ message: String, count: UInt32 = 1) throws {
        try call("FailNext", [.string(method), .string(target), .string(error), .string(message), .uint32(count)])
    }

    @discardableResult
    func notify(_ uuid: String, _ value: [UInt8]) throws -> Bool {
        try call("Notify", [.string(uuid), Self.bytes(value)]) == [.bool(true)]
    }

    func state(_ key: String) throws -> DBusValue? {
        let reply = try call("State")
        return reply.first?.propertyMap?[key]
    }

    /// Waits until `org.bluez` has an owner again.
    func waitForBlueZ() throws {
        for _ in 0..<500 {
            let owned = try control.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "NameHasOwner", arguments: [.string("org.bluez")])
            if owned == [.bool(true)] { return }
            usleep(10_000)
        }
        throw PrivateBus.Failure(description: "org.bluez did not come back")
    }
}

/// What the watch's closures read, set by a test as the daemon's settings
/// and store would be.
final class FlipSettings: Sendable {
    let password = Mutex<[UInt8]?>(Array("000000".utf8))
    let cursor = Mutex<DeskCursor?>(nil)
    let logs = LogRecorder()
    static let passwordFile = "/home/me/.config/trackee/cube-password"

    func watch(_ device: String = "0C:61:CF:C7:77:71") -> TimeFlipWatch {
        TimeFlipWatch(device: device, passwordFile: Self.passwordFile, password: { self.password.withLock { $0 } },
                      memory: DeskMemory(cursor: { _ in self.cursor.withLock { $0 } }, keep: { _ in }), log: logs.log)
    }

    /// The store's cursor at the cube's interval `number`, begun `at`.
    static func cursor(_ number: UInt32, at time: Instant, series: UInt32 = 0) -> DeskCursor {
        DeskCursor(subject: "flip:0C:61:CF:C7:77:71", number: number, at: time, series: series)
    }

    var warnings: [String] { logs.all.filter { $0.hasPrefix("warning: ") } }
}

extension DeskBusSuites {
    /// `TimeFlipWatch` against the fake cube, fed signals as the bus
    /// monitor would; the cube's clock and `now` start at `morning`.
    @Suite(.serialized)
    struct TimeFlipWatchTests {
        static let cube = "0C:61:CF:C7:77:71"
        let t = morning

        func withCube(_ options: [String] = [], clock: Instant = morning, adapter: String = "hci0",
                      _ body: (FakeCube, DBusConnection, FlipSettings) throws -> Void) throws {
            let fake = try FakeCube(options, clock: clock, adapter: adapter)
            defer { fake.stop() }
            let connection = try DBusConnection(address: fake.bus.address)
            try body(fake, connection, FlipSettings())
        }

        func flip(_ change: FlipEdge.Change, _ event: UInt32?, at time: Instant, series: UInt32 = 0) -> Reported {
            Reported(.flip(device: Self.cube, change, event: event, flippedAt: time, series: series), at: time)
        }

        func battery(_ percent: Int, _ previous: Int?, at time: Instant) -> Reported {
            Reported(.flip(device: Self.cube, .battery(percent: percent, previous: previous)), at: time)
        }

        /// The calls of a connection's set-up, after Connect: the password
        /// first, then the subscriptions, the clock, the state, the facet,
        /// the pause and the last record.
        static let setUpCalls = [
            "WriteValue Password 30 30 30 30 30 30", "ReadValue Command result",
            "StartNotify Facets", "StartNotify Double tap", "StartNotify System state", "StartNotify History",
            "WriteValue Command 07", "ReadValue Command result", "ReadValue System state", "ReadValue Facets",
            "WriteValue Command 10", "ReadValue Command result", "WriteValue History 01 FF FF FF FF", "ReadValue History",
        ]

        @Test func theCubeIsFoundByItsAddressAndThePasswordIsWrittenFirst() throws {
            try withCube(adapter: "hci7") { fake, connection, settings throws in
                // Lower case in the settings; no path is guessed from it.
                var watch = settings.watch("0c:61:cf:c7:77:71")
                #expect(try watch.attach(connection, now: t).map(Reported.init) == [battery(90, nil, at: t)])
                #expect(try feedSignals(&watch, connection, now: t) == [])
                #expect(try fake.calls() == ["Connect \(fake.devicePath)"] + Self.setUpCalls)
                #expect(try fake.written(FakeCube.password) == [Array("000000".utf8)])
                #expect(settings.logs.all == [
                    "info: flip: connected to the cube \(Self.cube), facet 1 up",
                    "info: flip: first connection to the cube \(Self.cube): interval 1 and those before it are taken "
                        + "as seen, and flips are reported from now on",
                ])
            }
        }

        @Test func aWrongPasswordIsOneWarningAndIsNotWrittenAgainUntilItChanges() throws {
            try withCube(["--password", "123456"]) { fake, connection, settings in
                var watch = settings.watch()
                #expect(try watch.attach(connection, now: t).map(Reported.init) == [])
                try fake.flip(3, at: t + 10)
                try fake.call("SetBattery", [.byte(50)])
                #expect(try feedSignals(&watch, connection, now: t + 10) == [])
                #expect(try watch.attach(connection, now: t + 20).map(Reported.init) == [])
                try fake.call("SetBattery", [.byte(45)])
                #expect(try feedSignals(&watch, connection, now: t + 20) == [])
                #expect(try fake.written(FakeCube.password) == [Array("000000".utf8)])
                #expect(settings.warnings == [
                    "warning: flip: the cube \(Self.cube) refused the password in \(FlipSettings.passwordFile); "
                        + "it is not tried again until that file changes",
                ])
                // The file is fixed: the next signal writes it.
                settings.password.withLock { $0 = Array("123456".utf8) }
                try fake.call("SetBattery", [.byte(40)])
                #expect(try feedSignals(&watch, connection, now: t + 30) == [battery(40, nil, at: t + 30)])
                #expect(try fake.written(FakeCube.password) == [Array("000000".utf8), Array("123456".utf8)])
                try fake.flip(5, at: t + 40)
                #expect(try feedSignals(&watch, connection, now: t + 40) == [flip(.facet(5), 3, at: t + 40)])
                #expect(settings.warnings.count == 1)
            }
        }

        @Test func aFlipIsReportedWithTheNumberOfTheIntervalItBegins() throws {
            try withCube { fake, connection, settings in
                var watch = settings.watch()
                _ = try watch.attach(connection, now: t)
                #expect(try feedSignals(&watch, connection, now: t) == [])
                try fake.flip(3, at: t + 60)
                #expect(try feedSignals(&watch, connection, now: t + 60) == [flip(.facet(3), 2, at: t + 60)])
                // The same facet notified again (as after a read) is no flip.
                #expect(try fake.notify(FakeCube.facets, [3]))
                try fake.flip(5, at: t + 90)
                #expect(try feedSignals(&watch, connection, now: t + 90) == [flip(.facet(5), 3, at: t + 90)])
                #expect(try fake.written(FakeCube.history).suffix(2) == [[1, 0xFF, 0xFF, 0xFF, 0xFF], [1, 0xFF, 0xFF, 0xFF, 0xFF]])
            }
        }

        @Test func doubleTapsPauseAndResume() throws {
            try withCube { fake, connection, settings in
                var watch = settings.watch()
                _ = try watch.attach(connection, now: t)
                _ = try feedSignals(&watch, connection, now: t)
                try fake.doubleTap(at: t + 30)
                try fake.doubleTap(at: t + 50)
                try fake.doubleTap(at: t + 70)
                // A flip while paused stays paused, on the new facet.
                try fake.flip(4, at: t + 80)
                #expect(try feedSignals(&watch, connection, now: t + 80) == [
                    flip(.paused(facet: 1), 2, at: t + 80), flip(.facet(1), 3, at: t + 80),
                    flip(.paused(facet: 1), 4, at: t + 80), flip(.paused(facet: 4), 5, at: t + 80),
                ])
            }
        }

        @Test func flipsMadeOutOfRangeAreCaughtUpAtTheCubesTimesOnce() throws {
            try withCube { fake, connection, settings in
                var watch = settings.watch()
                _ = try watch.attach(connection, now: t)
                _ = try feedSignals(&watch, connection, now: t)
                try fake.flip(2, at: t + 60)
                #expect(try feedSignals(&watch, connection, now: t + 60) == [flip(.facet(2), 2, at: t + 60)])
                try fake.call("OutOfRange")
                #expect(try feedSignals(&watch, connection, now: t + 100) == [])
                try fake.flip(3, at: t + 200)
                try fake.flip(4, at: t + 300)
                try fake.doubleTap(at: t + 400)
                // bluetoothd connects it again by itself. (The cube's clock
                // stands at its last flip, and so does now.)
                try fake.call("BackInRange", [.bool(true)])
                #expect(try feedSignals(&watch, connection, now: t + 400) == [
                    flip(.facet(3), 3, at: t + 200), flip(.facet(4), 4, at: t + 300), flip(.paused(facet: 4), 5, at: t + 400),
                ])
                #expect(try fake.written(FakeCube.history).last == [2, 0, 0, 0, 3])
                // The cube ends the link; the watch connects again at once.
                try fake.call("DropConnection")
                #expect(try feedSignals(&watch, connection, now: t + 400) == [])
                #expect(try fake.written(FakeCube.history).last == [2, 0, 0, 0, 6])
                #expect(try fake.written(FakeCube.password).count == 3)
                #expect(settings.warnings == [
                    "warning: flip: could not connect to the cube \(Self.cube) (the D-Bus call org.bluez.Device1.Connect on "
                        + "org.bluez \(fake.devicePath) failed: le-connection-abort-by-local (org.bluez.Error.Failed)); "
                        + "trying again later",
                ])
                // trackee run starts again: the store's cursor is the last flip.
                settings.cursor.withLock { $0 = FlipSettings.cursor(5, at: t + 400) }
                try fake.flip(6, at: t + 700)
                var again = settings.watch()
                let second = try DBusConnection(address: fake.bus.address)
                #expect(try again.attach(second, now: t + 700).map(Reported.init) == [battery(90, nil, at: t + 700)])
                #expect(try feedSignals(&again, second, now: t + 700) == [flip(.paused(facet: 6), 6, at: t + 700)])
            }
        }

        @Test func aResetCubeReportsTheIntervalsBegunAfterTheCursor() throws {
            try withCube { fake, connection, settings in
                try fake.flip(2, at: t + 100)
                try fake.flip(3, at: t + 200)
                try fake.flip(4, at: t + 300)
                settings.cursor.withLock { $0 = FlipSettings.cursor(40, at: t + 150) }
                var watch = settings.watch()
                #expect(try watch.attach(connection, now: t + 300).map(Reported.init) == [battery(90, nil, at: t + 300)])
                // Numbered in the next series: the cube's 3 and 4 are not the 3 and 4 before.
                #expect(try feedSignals(&watch, connection, now: t + 300) == [
                    flip(.facet(3), 3, at: t + 200, series: 1), flip(.facet(4), 4, at: t + 300, series: 1),
                ])
                #expect(try fake.written(FakeCube.history).last == [2, 0, 0, 0, 0])
                try fake.flip(5, at: t + 310)
                #expect(try feedSignals(&watch, connection, now: t + 310) == [flip(.facet(5), 5, at: t + 310, series: 1)])
                #expect(settings.logs.all.contains(
                    "info: flip: the cube \(Self.cube)'s history ends at interval 4, before interval 40 seen last: it was "
                        + "reset or replaced; the intervals that began after 2026-11-23T08:02:30Z are reported"))
            }
        }

        @Test func aClockAnHourAheadIsCorrectedAndTheTimeIsSetWhenAsked() throws {
            let ahead = morning + 3600
            try withCube(["--time-sync-required"], clock: ahead) { fake, connection, settings in
                try fake.flip(2, at: ahead + 100)
                try fake.flip(3, at: ahead + 200)
                settings.cursor.withLock { $0 = FlipSettings.cursor(0, at: t - 1000) }
                var watch = settings.watch()
                _ = try watch.attach(connection, now: t + 200)
                #expect(try feedSignals(&watch, connection, now: t + 200) == [
                    flip(.facet(1), 1, at: t), flip(.facet(2), 2, at: t + 100), flip(.facet(3), 3, at: t + 200),
                ])
                let setClock = TimeFlipProtocol.setClock(t + 200)
                #expect(try fake.written(FakeCube.command) == [[0x07], setClock, [0x10]])
                #expect(try fake.state("clock") == .uint64(UInt64((t + 200).seconds)))
                #expect(try fake.state("system_state") == FakeCube.bytes([0, 0, 0, 0]))
                #expect(settings.logs.all.filter { $0.contains("clock") } == [
                    "info: flip: the cube \(Self.cube)'s clock is 3600 s ahead; its history times are corrected by that",
                    "info: flip: set the clock of the cube \(Self.cube), which asked for it",
                ])
                try fake.call("RequireTimeSync")
                #expect(try feedSignals(&watch, connection, now: t + 250) == [])
                #expect(try fake.written(FakeCube.command).last == TimeFlipProtocol.setClock(t + 250))
            }
        }

        @Test func eachBatteryChangeIsReportedOnceWithTheOneBefore() throws {
            try withCube { fake, connection, settings in
                var watch = settings.watch()
                #expect(try watch.attach(connection, now: t).map(Reported.init) == [battery(90, nil, at: t)])
                _ = try feedSignals(&watch, connection, now: t)
                for percent: UInt8 in [80, 80, 20] { try fake.call("SetBattery", [.byte(percent)]) }
                #expect(try feedSignals(&watch, connection, now: t + 5) == [
                    battery(80, 90, at: t + 5), battery(20, 80, at: t + 5),
                ])
            }
        }

        @Test func withoutBattery1TheBatteryLevelCharacteristicIsRead() throws {
            try withCube(["--no-battery1"]) { fake, connection, settings in
                var watch = settings.watch()
                #expect(try watch.attach(connection, now: t).map(Reported.init) == [battery(90, nil, at: t)])
                _ = try feedSignals(&watch, connection, now: t)
                try fake.call("SetBattery", [.byte(70)])
                try fake.call("SetBattery", [.byte(70)])
                #expect(try feedSignals(&watch, connection, now: t + 5) == [battery(70, 90, at: t + 5)])
            }
        }

        /// 200 malformed notifications, malformed answers to the reads of a
        /// connection and a malformed history stream: nothing is reported,
        /// three warnings of each kind are logged a minute, and a flip
        /// afterwards is reported.
        @Test func twoHundredMalformedValuesReportNothing() throws {
            try withCube { fake, connection, settings in
                settings.cursor.withLock { $0 = FlipSettings.cursor(0, at: t - 1000) }
                // The password's answer is right; read as the clock or the status it is nonsense.
                try fake.call("OverrideRead", [.string(FakeCube.commandResult), FakeCube.bytes([0x01])])
                try fake.call("OverrideRead", [.string(FakeCube.facets), FakeCube.bytes([0x00])])
                let t64 = UInt64(t.seconds)
                func packet(_ number: UInt32, _ side: UInt8, _ start: UInt64, _ duration: UInt32 = 10) -> DBusValue {
                    FakeCube.bytes(TimeFlipProtocol.bigEndian(UInt64(number), bytes: 4) + [side]
                        + TimeFlipProtocol.bigEndian(start, bytes: 8) + TimeFlipProtocol.bigEndian(UInt64(duration), bytes: 4)
                        + [0, 0, 0])
                }
                try fake.call("SetHistoryStream", [.array(elementSignature: "ay", [
                    FakeCube.bytes([1, 2, 3]), packet(1, 0, t64), packet(2, 200, t64), packet(3, 66, t64),
                    packet(5, 1, t64 + 10_000),
                ])])
                var watch = settings.watch()
                #expect(try watch.attach(connection, now: t).map(Reported.init) == [battery(90, nil, at: t)])
                try fake.call("ClearOverrides")
                #expect(try feedSignals(&watch, connection, now: t) == [])
                let bad: [(String, [UInt8])] = [
                    (FakeCube.facets, [0]), (FakeCube.facets, [13]), (FakeCube.facets, [255]), (FakeCube.facets, []),
                    (FakeCube.facets, [1, 2]),
                    (FakeCube.doubleTap, [0]), (FakeCube.doubleTap, [66]), (FakeCube.doubleTap, [128]),
                    (FakeCube.doubleTap, [141]), (FakeCube.doubleTap, [3, 3]),
                    (FakeCube.systemState, [2, 1]), (FakeCube.systemState, []), (FakeCube.systemState, [2, 1, 0]),
                    (FakeCube.systemState, [0, 0, 0, 0, 0]), (FakeCube.systemState, [2, 1, 0, 0, 0, 0, 0]),
                    // During the catch-up: four of the wrong length, and a
                    // record numbered 0x07070707 (far in the future), ten times.
                    (FakeCube.history, [1]), (FakeCube.history, [UInt8](repeating: 7, count: 20)),
                    (FakeCube.history, []), (FakeCube.history, [0, 0, 0, 9]), (FakeCube.history, [UInt8](repeating: 1, count: 25)),
                ]
                for index in 0..<200 {
                    let (uuid, value) = bad[index % bad.count]
                    #expect(try fake.notify(uuid, value))
                }
                #expect(try feedSignals(&watch, connection, now: t + 1) == [])
                // The stream's end never came: the catch-up gives up 5 s later, with nothing to report.
                try fake.call("SetBattery", [.byte(90)])
                #expect(try feedSignals(&watch, connection, now: t + 6) == [])
                let cube = "the cube \(Self.cube)"
                #expect(settings.warnings == [
                    "warning: flip: \(cube) answered the clock's reading with 01",
                    "warning: flip: \(cube) says facet 00 is up; no facet 1–12",
                    // bluetoothd repeating the value read.
                    "warning: flip: skipped Facets value 00 from \(cube): not a facet 1–12",
                    "warning: flip: skipped a history packet from \(cube) of 3 bytes instead of 20: 01 02 03",
                    "warning: flip: skipped Facets value 00 from \(cube): not a facet 1–12",
                    "warning: flip: skipped Double tap value 00 from \(cube)",
                    "warning: flip: skipped Double tap value 42 from \(cube)",
                    "warning: flip: skipped Double tap value 80 from \(cube)",
                    "warning: flip: skipped System state value 02 01 from \(cube)",
                    "warning: flip: skipped System state value no bytes from \(cube)",
                    "warning: flip: skipped System state value 02 01 00 from \(cube)",
                    "warning: flip: skipped a history packet from \(cube) of 1 byte instead of 20: 01",
                    "warning: flip: skipped a history packet from \(cube) of 0 bytes instead of 20: no bytes",
                ])
                // A malformed last record: the flip is numbered by those seen.
                try fake.call("OverrideRead", [.string(FakeCube.history), FakeCube.bytes([1, 2, 3])])
                try fake.flip(5, at: t + 61)
                #expect(try feedSignals(&watch, connection, now: t + 61) == [flip(.facet(5), 2, at: t + 61)])
                #expect(Array(settings.warnings.dropFirst(13)) == [
                    "warning: flip: left out 47 more warnings about Double tap in 60 s",
                    "warning: flip: left out 49 more warnings about Facets in 60 s",
                    "warning: flip: left out 44 more warnings about History in 60 s",
                    "warning: flip: left out 47 more warnings about System state in 60 s",
                    "warning: flip: \(cube)'s last record is malformed (01 02 03); the flip is numbered by those seen",
                ])
            }
        }

        @Test func bluezErrorsFailTheAttachWhichSucceedsWhenTried() throws {
            try withCube { fake, connection, settings in
                var watch = settings.watch()
                try fake.failNext("Connect", fake.devicePath, "org.bluez.Error.NotReady", "Resource Not Ready")
                #expect(throws: (any Error).self) { try watch.attach(connection, now: t) }
                try fake.failNext("Connect", fake.devicePath, "org.bluez.Error.InProgress", "In Progress")
                #expect(throws: (any Error).self) { try watch.attach(connection, now: t) }
                try fake.failNext("ReadValue", FakeCube.commandResult, "org.bluez.Error.Failed", "Not connected")
                #expect(throws: (any Error).self) { try watch.attach(connection, now: t) }
                try fake.failNext("StartNotify", FakeCube.history, "org.bluez.Error.NotPermitted", "Notify not permitted")
                #expect(throws: (any Error).self) { try watch.attach(connection, now: t) }
                #expect(try watch.attach(connection, now: t).map(Reported.init) == [battery(90, nil, at: t)])
                _ = try feedSignals(&watch, connection, now: t)
                #expect(try fake.written(FakeCube.password).count == 3)
                try fake.flip(2, at: t + 10)
                #expect(try feedSignals(&watch, connection, now: t + 10) == [flip(.facet(2), 2, at: t + 10)])
                #expect(settings.warnings == [
                    "warning: flip: could not connect to the cube \(Self.cube) (the D-Bus call org.bluez.Device1.Connect on "
                        + "org.bluez \(fake.devicePath) failed: Resource Not Ready (org.bluez.Error.NotReady)); trying again later",
                    "warning: flip: could not connect to the cube \(Self.cube) (the D-Bus call org.bluez.Device1.Connect on "
                        + "org.bluez \(fake.devicePath) failed: In Progress (org.bluez.Error.InProgress)); trying again later",
                ])
            }
        }

        /// Connect() outlasting the watch's 4 s: the bus answers NoReply, the
        /// attach fails, and the connection bluetoothd made meanwhile is
        /// used by the next one.
        @Test func aConnectWithoutAnswerFailsTheAttachAndTheNextUsesTheConnection() throws {
            try withCube(["--connect-delay-ms", "4500"]) { fake, connection, settings in
                var watch = settings.watch()
                #expect {
                    try watch.attach(connection, now: t)
                } throws: { error in
                    "\(error)".hasPrefix("the cube \(Self.cube) is not connected: ") && "\(error)".hasSuffix("(org.freedesktop.DBus.Error.NoReply)")
                }
                for _ in 0..<200 where try fake.state("connected") != .bool(true) { usleep(10_000) }
                #expect(try watch.attach(connection, now: t).map(Reported.init) == [battery(90, nil, at: t)])
                #expect(try fake.calls().filter { $0.hasPrefix("Connect") }.count == 1)
                #expect(settings.warnings.count == 1)
            }
        }

        @Test func aFailedSetUpAfterAReconnectionIsTriedAgainAfterAWaitThatDoubles() throws {
            try withCube { fake, connection, settings in
                var watch = settings.watch()
                _ = try watch.attach(connection, now: t)
                _ = try feedSignals(&watch, connection, now: t)
                #expect(watch.wakeAt == nil)
                try fake.failNext("WriteValue", FakeCube.password, "org.bluez.Error.Failed", "Not connected", count: 2)
                try fake.call("DropConnection")
                #expect(try feedSignals(&watch, connection, now: t + 10) == [])
                #expect(settings.warnings.count == 1)
                #expect(settings.warnings.first?.hasSuffix("(org.bluez.Error.Failed); trying again in 2 s") == true)
                #expect(watch.wakeAt == t + 12)
                // A signal before then tries nothing.
                try fake.call("SetBattery", [.byte(60)])
                #expect(try feedSignals(&watch, connection, now: t + 11) == [])
                #expect(try fake.written(FakeCube.password).count == 2)
                // Woken without a signal: it fails again, and waits twice as long.
                #expect(watch.wake(connection, now: t + 12).map(Reported.init) == [])
                #expect(watch.wakeAt == t + 16)
                #expect(settings.warnings.last?.hasSuffix("(org.bluez.Error.Failed); trying again in 4 s") == true)
                #expect(watch.wake(connection, now: t + 16).map(Reported.init) == [battery(60, 90, at: t + 16)])
                #expect(watch.wakeAt == t + 21)
                #expect(try feedSignals(&watch, connection, now: t + 16) == [])
                #expect(watch.wakeAt == nil)
                #expect(try fake.written(FakeCube.password).count == 4)
                try fake.flip(2, at: t + 50)
                #expect(try feedSignals(&watch, connection, now: t + 50) == [flip(.facet(2), 2, at: t + 50)])
            }
        }

        @Test func aCubeOutOfRangeIsConnectedAgainByTheWatchWhenBlueZDoesNot() throws {
            try withCube { fake, connection, settings in
                var watch = settings.watch()
                _ = try watch.attach(connection, now: t)
                _ = try feedSignals(&watch, connection, now: t)
                try fake.call("OutOfRange")
                #expect(try feedSignals(&watch, connection, now: t + 10) == [])
                #expect(watch.wakeAt == t + 12)
                #expect(watch.wake(connection, now: t + 12).map(Reported.init) == [])
                #expect(watch.wakeAt == t + 16)
                // Back in range, but bluetoothd does not connect it by itself.
                try fake.call("BackInRange", [.bool(false)])
                try fake.flip(3, at: t + 14)
                #expect(watch.wake(connection, now: t + 16).map(Reported.init) == [])
                let caught = try feedSignals(&watch, connection, now: t + 16)
                #expect(caught == [flip(.facet(3), 2, at: t + 14)])
                #expect(watch.wakeAt == nil)
                let calls = try fake.calls()
                #expect(calls.filter { $0.hasPrefix("Connect") }.count == 4)
            }
        }

        /// A run killed during its catch-up leaves the cube streaming: the
        /// next run's catch-up may get the tail of that stream, end and all,
        /// before its own. What the tail left out is read one record at a
        /// time, so nothing is lost and nothing counts twice.
        @Test func theTailOfAnEarlierStreamEndsTheCatchUpAndWhatItLeftOutIsReadOneByOne() throws {
            try withCube { fake, connection, settings in
                for (offset, facet) in [(100, 2), (200, 3), (300, 4), (400, 5)] {
                    try fake.flip(UInt8(facet), at: t + Int64(offset))
                }
                settings.cursor.withLock { $0 = FlipSettings.cursor(1, at: t) }
                func packet(_ number: UInt32, _ side: UInt8, _ start: Instant, previous: UInt8) -> DBusValue {
                    FakeCube.bytes(TimeFlipProtocol.bigEndian(UInt64(number), bytes: 4) + [side]
                        + TimeFlipProtocol.bigEndian(UInt64(start.seconds), bytes: 8) + [0, 0, 0, 100, 0, 0, previous])
                }
                // The earlier stream's last two records and its end, where
                // this catch-up's stream (records 2 to 4) should be.
                try fake.call("SetHistoryStream", [.array(elementSignature: "ay", [
                    packet(3, 3, t + 200, previous: 2), packet(4, 4, t + 300, previous: 3),
                    FakeCube.bytes([UInt8](repeating: 0, count: 17) + [0, 0, 4]),
                ])])
                var watch = settings.watch()
                _ = try watch.attach(connection, now: t + 400)
                #expect(try feedSignals(&watch, connection, now: t + 400) == [
                    flip(.facet(2), 2, at: t + 100), flip(.facet(3), 3, at: t + 200), flip(.facet(4), 4, at: t + 300),
                    flip(.facet(5), 5, at: t + 400),
                ])
                #expect(try fake.written(FakeCube.history).suffix(2) == [[2, 0, 0, 0, 2], [1, 0, 0, 0, 2]])
            }
        }

        @Test func aFlipDuringTheCatchUpIsReportedAfterIt() throws {
            try withCube { fake, connection, settings in
                try fake.flip(2, at: t + 100)
                settings.cursor.withLock { $0 = FlipSettings.cursor(0, at: t - 1000) }
                // Record 1, and no end: the catch-up stays open.
                try fake.call("SetHistoryStream", [.array(elementSignature: "ay", [
                    FakeCube.bytes([0, 0, 0, 1, 1] + TimeFlipProtocol.bigEndian(UInt64(t.seconds), bytes: 8)
                        + [0, 0, 0, 100, 0, 0, 0]),
                ])])
                var watch = settings.watch()
                _ = try watch.attach(connection, now: t + 100)
                #expect(try feedSignals(&watch, connection, now: t + 100) == [])
                try fake.flip(3, at: t + 101)
                #expect(try feedSignals(&watch, connection, now: t + 101) == [])
                try fake.call("SetBattery", [.byte(90)])
                #expect(try feedSignals(&watch, connection, now: t + 106) == [
                    flip(.facet(1), 1, at: t), flip(.facet(2), 2, at: t + 100), flip(.facet(3), 3, at: t + 101),
                ])
                #expect(settings.warnings == [
                    "warning: flip: the cube \(Self.cube) sent no end of its history in 5 s",
                ])
            }
        }

        @Test func withoutBluetoothdsCacheTheObjectsAreFoundAgainAtEachConnection() throws {
            try withCube(["--gatt-cache", "no", "--hide-claimed-services"]) { fake, connection, settings in
                var watch = settings.watch()
                _ = try watch.attach(connection, now: t)
                _ = try feedSignals(&watch, connection, now: t)
                try fake.call("OutOfRange")
                #expect(try feedSignals(&watch, connection, now: t) == [])
                #expect(try fake.state("gatt_exported") == .bool(false))
                try fake.flip(2, at: t + 10)
                try fake.call("BackInRange", [.bool(true)])
                #expect(try feedSignals(&watch, connection, now: t + 10) == [flip(.facet(2), 2, at: t + 10)])
                try fake.flip(3, at: t + 20)
                #expect(try feedSignals(&watch, connection, now: t + 20) == [flip(.facet(3), 3, at: t + 20)])
                #expect(try fake.written(FakeCube.password).count == 2)
            }
        }

        /// Another program sends the watch's connection signals of its own,
        /// as if from BlueZ: a flip on the cube's Facets path, the cube
        /// added at another path. They are not BlueZ's, and change nothing.
        @Test func signalsFromAnotherProgramPosingAsBlueZAreIgnored() throws {
            try withCube { fake, connection, settings in
                var watch = settings.watch()
                _ = try watch.attach(connection, now: t)
                _ = try feedSignals(&watch, connection, now: t)
                let facets = fake.devicePath + "/service000b/char000f"
                let script = """
                    import sys, dbus, dbus.bus, dbus.lowlevel
                    bus = dbus.bus.BusConnection(sys.argv[1])
                    def send(path, interface, member, signature, *arguments):
                        message = dbus.lowlevel.SignalMessage(path, interface, member)
                        message.set_destination(sys.argv[2])
                        message.append(*arguments, signature=signature)
                        bus.send_message(message)
                    for facet in (5, 6, 7):
                        send(sys.argv[3], "org.freedesktop.DBus.Properties", "PropertiesChanged", "sa{sv}as",
                             "org.bluez.GattCharacteristic1",
                             {"Value": dbus.Array([dbus.Byte(facet)], signature="y")}, dbus.Array([], signature="s"))
                    send("/", "org.freedesktop.DBus.ObjectManager", "InterfacesAdded", "oa{sa{sv}}", "/org/bluez/hci9/dev_X",
                         {"org.bluez.Device1": {"Address": "0C:61:CF:C7:77:71", "Connected": True}})
                    bus.flush()
                    """
                let sender = Process()
                sender.executableURL = URL(fileURLWithPath: PrivateBus.python)
                sender.arguments = ["-c", script, fake.bus.address, connection.uniqueName, facets]
                sender.environment = ["PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"]
                try sender.run()
                sender.waitUntilExit()
                #expect(sender.terminationStatus == 0)
                var heard: [DBusSignal] = []
                while let signal = try connection.nextSignal(timeoutMilliseconds: 300) {
                    heard.append(signal)
                    #expect(watch.take(signal, connection: connection, now: t + 5).isEmpty)
                }
                // The attack did reach the watch: four signals, none from BlueZ.
                #expect(heard.map(\.member) == ["PropertiesChanged", "PropertiesChanged", "PropertiesChanged", "InterfacesAdded"])
                try fake.flip(2, at: t + 10)
                #expect(try feedSignals(&watch, connection, now: t + 10) == [flip(.facet(2), 2, at: t + 10)])
                #expect(try fake.calls().filter { $0.hasPrefix("Connect") }.count == 1)
            }
        }

        /// Through the desk monitor: bluetoothd restarts, the watch attaches
        /// again, connects, and catches up with the flip made meanwhile.
        @Test func afterBlueZRestartsTheMonitorAttachesAgainAndCatchesUp() async throws {
            let fake = try FakeCube()
            defer { fake.stop() }
            let settings = FlipSettings()
            let now = t + 60
            let plan = DeskWatchPlan(reports: "flips", bus: .system, serviceName: "org.bluez") { settings.watch() }
            let monitor = DeskMonitor(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.bus.address], idle: [], watches: [plan],
                                      clock: { now }, log: settings.logs.log)
            defer { monitor.stop() }
            let changes = ChangeRecorder(monitor.changes)
            #expect(monitor.start().description == "desk: flips from BlueZ")
            try fake.flip(2, at: t + 50)
            #expect(await changes.seen(2) == [
                Seen(.flip(device: Self.cube, .battery(percent: 90, previous: nil)), at: now),
                Seen(.flip(device: Self.cube, .facet(2), event: 2, flippedAt: now), at: now),
            ])
            try fake.call("StopBlueZ")
            try fake.flip(3, at: t + 60)
            try fake.call("StartBlueZ")
            #expect(await settings.logs.wait { $0 == "info: desk: BlueZ appeared on the system bus: flips from BlueZ" })
            #expect(await changes.seen(3).last == Seen(.flip(device: Self.cube, .facet(3), event: 3, flippedAt: t + 60), at: t + 60))
            #expect(try fake.written(FakeCube.history).last == [2, 0, 0, 0, 3])
        }
    }
}
