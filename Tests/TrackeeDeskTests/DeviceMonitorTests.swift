import Foundation
import Glibc
import Testing
import TrackeeCore
import TrackeeDesk
import TrackeeTestSupport

/// `DeviceMonitor` on its own thread, reading kernel-format datagrams from
/// a socket pair and the attributes of a fake sysfs tree.
struct DeviceMonitorTests {
    static let arrival = Instant(seconds: 1_795_420_800)
    static let port = "/devices/pci0000:00/0000:00:14.0/usb3/3-1"
    static let keyboard = port + "/3-1:1.1/0003:17EF:30B4.0007/input/input21"
    static let dock = DeviceChange(
        action: .added, devpath: port, subsystem: "usb", vendor: "17ef", product: "30b4", serial: "R0A1B2C3",
        name: "ThinkPad USB-C Dock")
    static let dockKeyboard = DeviceChange(
        action: .added, devpath: keyboard, subsystem: "input", name: "Lenovo ThinkPad Dock")

    /// A monitor on a socket pair and a fake sysfs, started, with what it
    /// yields; stopped and cleaned up after `body`.
    func withMonitor(_ body: (UeventPair, FakeSysfs, DeviceMonitor, YieldedChanges) throws -> Void) throws {
        let pair = try UeventPair()
        let sysfs = try FakeSysfs()
        defer { sysfs.remove() }
        let monitor = DeviceMonitor(reading: pair.monitorSide, sysfs: SysfsAttributes(root: sysfs.root)) { Self.arrival }
        let changes = YieldedChanges()
        try monitor.start { changes.append($0) }
        defer { monitor.stop() }
        try body(pair, sysfs, monitor, changes)
    }

    /// What a dock sends when plugged in: the USB device, two interfaces
    /// (a hub and a keyboard), each bound to its driver, and the
    /// keyboard's input device.
    static func plugDock(_ sequence: Int) -> [[UInt8]] {
        let ids = [("PRODUCT", "17ef/30b4/3100")]
        let hub = port + "/3-1:1.0"
        let hid = port + "/3-1:1.1"
        return [
            UeventWire.datagram("add", port, subsystem: "usb", [
                ("MAJOR", "189"), ("MINOR", "258"), ("DEVNAME", "bus/usb/003/003"), ("DEVTYPE", "usb_device"),
            ] + ids + [("TYPE", "9/0/3"), ("BUSNUM", "003"), ("DEVNUM", "003")], sequence: sequence),
            UeventWire.datagram("add", hub, subsystem: "usb", [("DEVTYPE", "usb_interface")] + ids + [
                ("TYPE", "9/0/3"), ("INTERFACE", "9/0/0"), ("MODALIAS", "usb:v17EFp30B4d3100dc09dsc00dp03ic09isc00ip00in00"),
            ], sequence: sequence + 1),
            UeventWire.datagram("bind", hub, subsystem: "usb", [("DEVTYPE", "usb_interface"), ("DRIVER", "hub")] + ids,
                                sequence: sequence + 2),
            UeventWire.datagram("add", hid, subsystem: "usb", [("DEVTYPE", "usb_interface")] + ids + [
                ("TYPE", "0/0/0"), ("INTERFACE", "3/1/1"), ("MODALIAS", "usb:v17EFp30B4d3100dc00dsc00dp00ic03isc01ip01in01"),
            ], sequence: sequence + 3),
            UeventWire.datagram("add", keyboard, subsystem: "input", [
                ("PRODUCT", "3/17ef/30b4/111"), ("NAME", "\"Lenovo ThinkPad Dock\""), ("PHYS", "\"usb-0000:00:14.0-1/input1\""),
                ("UNIQ", "\"\""), ("PROP", "0"), ("EV", "120013"), ("KEY", "1000000000007 ff9f207ac14057ff febeffdfffefffff fffffffffffffffe"),
                ("MSC", "10"), ("LED", "7"), ("MODALIAS", "input:b0003v17EFp30B4e0111-e0,1,4,11,14,k71,72,73,ram4,l0,1,2,sfw"),
            ], sequence: sequence + 4),
            UeventWire.datagram("bind", hid, subsystem: "usb", [("DEVTYPE", "usb_interface"), ("DRIVER", "usbhid")] + ids,
                                sequence: sequence + 5),
            UeventWire.datagram("bind", port, subsystem: "usb", [("DEVTYPE", "usb_device"), ("DRIVER", "usb")] + ids,
                                sequence: sequence + 6),
        ]
    }

    /// What it sends when pulled out: children first, each unbound.
    static func unplugDock(_ sequence: Int) -> [[UInt8]] {
        let ids = [("PRODUCT", "17ef/30b4/3100")]
        return [
            UeventWire.datagram("remove", keyboard, subsystem: "input", [
                ("PRODUCT", "3/17ef/30b4/111"), ("NAME", "\"Lenovo ThinkPad Dock\""),
            ], sequence: sequence),
            UeventWire.datagram("unbind", port + "/3-1:1.1", subsystem: "usb", [("DEVTYPE", "usb_interface")] + ids,
                                sequence: sequence + 1),
            UeventWire.datagram("remove", port + "/3-1:1.1", subsystem: "usb", [("DEVTYPE", "usb_interface")] + ids,
                                sequence: sequence + 2),
            UeventWire.datagram("remove", port + "/3-1:1.0", subsystem: "usb", [("DEVTYPE", "usb_interface")] + ids,
                                sequence: sequence + 3),
            UeventWire.datagram("unbind", port, subsystem: "usb", [("DEVTYPE", "usb_device")] + ids, sequence: sequence + 4),
            UeventWire.datagram("remove", port, subsystem: "usb", [
                ("MAJOR", "189"), ("MINOR", "258"), ("DEVNAME", "bus/usb/003/003"), ("DEVTYPE", "usb_device"),
            ] + ids + [("TYPE", "9/0/3"), ("BUSNUM", "003"), ("DEVNUM", "003")], sequence: sequence + 5),
        ]
    }

    static func removed(_ change: DeviceChange) -> DeviceChange {
        var removed = change
        removed.action = .removed
        return removed
    }

    /// The USB device's attributes as the kernel shows them while it is in.
    static func dockAttributes(_ sysfs: FakeSysfs) throws {
        try sysfs.device(port, ["idVendor": "17ef", "idProduct": "30b4", "serial": "R0A1B2C3",
                                "product": "ThinkPad USB-C Dock", "manufacturer": "Lenovo"])
    }

    @Test func aDockPluggedInAndPulledOutIsFourChangesAndTheRemovalKeepsSerialAndName() throws {
        try withMonitor { pair, sysfs, _, changes in
            try Self.dockAttributes(sysfs)
            for datagram in Self.plugDock(4821) { #expect(pair.send(datagram) == nil) }
            #expect(changes.wait(for: 2).map(\.event) == [.device(Self.dock), .device(Self.dockKeyboard)])
            try sysfs.unplug(Self.port)
            for datagram in Self.unplugDock(4830) { #expect(pair.send(datagram) == nil) }
            let all = changes.wait(for: 4)
            #expect(all.map(\.event) == [
                .device(Self.dock), .device(Self.dockKeyboard),
                .device(Self.removed(Self.dockKeyboard)), .device(Self.removed(Self.dock)),
            ])
            #expect(all.map(\.time) == Array(repeating: Self.arrival, count: 4))
            #expect(all.allSatisfy { $0.inhibitor == nil })
        }
    }

    @Test func aRepeatedUeventIsOneChange() throws {
        try withMonitor { pair, sysfs, _, changes in
            try Self.dockAttributes(sysfs)
            let add = Self.plugDock(1)[0]
            let remove = Self.unplugDock(10).last!
            let disk = "/devices/virtual/block/loop7"
            let sentinel = UeventWire.datagram("add", disk, subsystem: "block", [("DEVTYPE", "disk")], sequence: 99)
            for datagram in [add, add, add, remove, remove, add, sentinel] { #expect(pair.send(datagram) == nil) }
            #expect(changes.wait(for: 4).map(\.event) == [
                .device(Self.dock), .device(Self.removed(Self.dock)), .device(Self.dock),
                .device(DeviceChange(action: .added, devpath: disk, subsystem: "block")),
            ])
        }
    }

    /// 200 datagrams that are not uevents, from a fixed seed: random bytes,
    /// uevents cut short, fields in the wrong order, udevd's header, and
    /// datagrams larger than any uevent.
    static func garbage() -> [[UInt8]] {
        var random = SeededGenerator(seed: 19)
        let valid = plugDock(500)[0]
        let alphabet = Array("@=/\0ACTIONDEVPATHSEQNUMaddremove0123456789".utf8)
        return (0..<200).map { index in
            switch index % 5 {
            case 0:
                return (0..<random.int(0...300)).map { _ in
                    random.int(0...1) == 0 ? UInt8(random.int(0...255)) : random.pick(alphabet)
                }
            case 1:
                return Array(valid.prefix(random.int(0...valid.count - 1)))
            case 2:
                var fields = valid.split(separator: 0).map { Array($0) + [0] }
                fields.append(fields.removeFirst())
                return fields.flatMap { $0 }
            case 3:
                return Array("libudev".utf8) + [0, 0xfe, 0xed, 0xca, 0xfe] + (0..<random.int(0...40)).map { _ in
                    UInt8(random.int(0...255))
                } + valid.drop { $0 != 0 }.dropFirst()
            default:
                return valid.dropLast() + [0] + Array(("PAD=" + String(repeating: "x", count: random.int(8200...20000))).utf8)
                    + [0] + Array("SEQNUM=1\0".utf8)
            }
        }
    }

    @Test func garbageYieldsNothingAndTheMonitorReadsOnAfterIt() throws {
        try withMonitor { pair, sysfs, _, changes in
            try Self.dockAttributes(sysfs)
            let garbage = Self.garbage()
            #expect(garbage.count == 200)
            #expect(garbage.filter { Uevent(datagram: $0) != nil }.count == 0)
            for datagram in garbage { #expect(pair.send(datagram) == nil) }
            #expect(pair.send(Self.plugDock(600)[0]) == nil)
            // Datagrams are read in order: once the valid one's change is
            // in, every piece of garbage before it has been read.
            #expect(changes.wait(for: 1).map(\.event) == [.device(Self.dock)])
        }
    }

    @Test func stopEndsTheThreadAndADatagramSentMeanwhileWaitsForTheNextStart() throws {
        let pair = try UeventPair()
        let monitor = DeviceMonitor(reading: pair.monitorSide, sysfs: SysfsAttributes(root: "/nonexistent")) { Self.arrival }
        let changes = YieldedChanges()
        try monitor.start { changes.append($0) }
        let began = ContinuousClock.now
        monitor.stop()
        #expect(ContinuousClock.now - began < .milliseconds(500))
        let disk = "/devices/virtual/block/loop7"
        #expect(pair.send(UeventWire.datagram("add", disk, subsystem: "block", [], sequence: 1)) == nil)
        // A stopped thread that still read would have taken it and lost it.
        try monitor.start { changes.append($0) }
        #expect(changes.wait(for: 1).map(\.event) == [.device(DeviceChange(action: .added, devpath: disk, subsystem: "block"))])
        monitor.stop()
        monitor.stop()
    }

    @Test func releasingTheMonitorClosesItsSocket() async throws {
        let pair = try UeventPair()
        do {
            let monitor = DeviceMonitor(reading: pair.monitorSide)
            try monitor.start { _ in }
        }
        // A process being started at this moment by another test holds a
        // copy of every descriptor until it execs, so the peer may stay
        // open for an instant longer.
        let datagram = UeventWire.datagram("add", "/devices/x", subsystem: "block", [], sequence: 1)
        #expect(await eventually(within: 5) { pair.send(datagram) == ECONNREFUSED })
    }

    @Test func stoppingFromTheHandlerDoesNotWaitForItself() throws {
        let pair = try UeventPair()
        let monitor = DeviceMonitor(reading: pair.monitorSide, sysfs: SysfsAttributes(root: "/nonexistent")) { Self.arrival }
        let changes = YieldedChanges()
        try monitor.start { [monitor] change in
            changes.append(change)
            monitor.stop()
        }
        for sequence in 1...2 {
            #expect(pair.send(UeventWire.datagram("add", "/devices/d\(sequence)", subsystem: "block", [], sequence: sequence)) == nil)
        }
        #expect(changes.wait(for: 1).map(\.event) == [.device(DeviceChange(action: .added, devpath: "/devices/d1", subsystem: "block"))])
        // The second is never read: the thread ended after the first.
        try monitor.start { changes.append($0) }
        #expect(changes.wait(for: 2).map(\.event).last == .device(DeviceChange(action: .added, devpath: "/devices/d2", subsystem: "block")))
        monitor.stop()
    }

    @Test func aDescriptorThatIsNotASocketEndsTheThreadWithASentence() throws {
        var pipeEnds: [Int32] = [-1, -1]
        #expect(pipe(&pipeEnds) == 0)
        let monitor = DeviceMonitor(reading: pipeEnds[0])
        let ending = YieldedEnding()
        try monitor.start(yield: { _ in }, ended: { ending.set($0) })
        #expect(write(pipeEnds[1], "x", 1) == 1)
        close(pipeEnds[1])
        #expect(ending.wait() == "reading the device events failed: Socket operation on non-socket.")
        monitor.stop()
    }

    @Test func theKernelsUeventSocketOpensAndStopsCleanly() throws {
        let monitor: DeviceMonitor
        do {
            monitor = try DeviceMonitor.kernel()
        } catch {
            print("the kernel's uevent socket is not available here: \(error.sentence)")
            try Test.cancel("\(error.sentence)")
        }
        let ending = YieldedEnding()
        try monitor.start(yield: { _ in }, ended: { ending.set($0) })
        let began = ContinuousClock.now
        monitor.stop()
        #expect(ContinuousClock.now - began < .milliseconds(500))
        #expect(ending.sentence == nil)
    }
}

extension DeviceMonitorTests {
    @Test func aRestartedMonitorStillKnowsTheSerialOfADeviceAddedBefore() throws {
        try withMonitor { pair, sysfs, monitor, changes in
            try Self.dockAttributes(sysfs)
            #expect(pair.send(Self.plugDock(1)[0]) == nil)
            #expect(changes.wait(for: 1).map(\.event) == [.device(Self.dock)])
            monitor.stop()
            try sysfs.unplug(Self.port)
            try monitor.start { changes.append($0) }
            #expect(pair.send(Self.unplugDock(10).last!) == nil)
            #expect(changes.wait(for: 2).map(\.event) == [.device(Self.dock), .device(Self.removed(Self.dock))])
        }
    }
}
