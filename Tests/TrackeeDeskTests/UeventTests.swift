import Testing
import TrackeeCore
import TrackeeDesk

/// `Uevent` reading one datagram: whole kernel uevents exactly, anything
/// else nil.
struct UeventTests {
    static let dock = "/devices/pci0000:00/0000:00:14.0/usb3/3-1"
    static let dockAdd = UeventWire.datagram("add", dock, subsystem: "usb", [
        ("MAJOR", "189"), ("MINOR", "258"), ("DEVNAME", "bus/usb/003/003"), ("DEVTYPE", "usb_device"),
        ("PRODUCT", "17ef/30b4/3100"), ("TYPE", "9/0/3"), ("BUSNUM", "003"), ("DEVNUM", "003"),
    ], sequence: 4821)

    @Test func readsEveryFieldOfAKernelDatagram() {
        #expect(Uevent(datagram: Self.dockAdd) == Uevent(action: "add", devpath: Self.dock, properties: [
            "ACTION": "add", "DEVPATH": Self.dock, "SUBSYSTEM": "usb", "MAJOR": "189", "MINOR": "258",
            "DEVNAME": "bus/usb/003/003", "DEVTYPE": "usb_device", "PRODUCT": "17ef/30b4/3100", "TYPE": "9/0/3",
            "BUSNUM": "003", "DEVNUM": "003", "SEQNUM": "4821",
        ]))
    }

    @Test func aValueMayHoldEqualsSignsAndQuotes() {
        let bytes = UeventWire.datagram("add", "/devices/virtual/input/input30", subsystem: "input", [
            ("NAME", "\"Dock = Keyboard\""), ("UNIQ", "\"\""),
        ], sequence: 1)
        #expect(Uevent(datagram: bytes)?["NAME"] == "\"Dock = Keyboard\"")
        #expect(Uevent(datagram: bytes)?["UNIQ"] == "\"\"")
    }

    /// One way a datagram is not a kernel uevent, named in the test's
    /// output by what is wrong rather than by its bytes.
    struct Refused: CustomTestStringConvertible, Sendable {
        var why: String
        var bytes: [UInt8]
        var testDescription: String { why }
    }

    static let refused: [Refused] = {
        let text = { (fields: [String]) -> [UInt8] in fields.flatMap { (field: String) -> [UInt8] in Array(field.utf8) + [0] } }
        let valid = ["add@/devices/x", "ACTION=add", "DEVPATH=/devices/x", "SUBSYSTEM=block", "SEQNUM=7"]
        var udevd: [UInt8] = Array("libudev".utf8) + [0, 0xfe, 0xed, 0xca, 0xfe, 0, 0, 0, 40]
        udevd += text(Array(valid.dropFirst()))
        let cases: [(String, [UInt8])] = [
            ("empty", []),
            ("no @ in the header", text(["add/devices/x"] + valid.dropFirst())),
            ("no ACTION", text(valid.filter { !$0.hasPrefix("ACTION=") })),
            ("ACTION not the header's", text(valid.map { $0 == "ACTION=add" ? "ACTION=remove" : $0 })),
            ("DEVPATH not the header's", text(valid.map { $0 == "DEVPATH=/devices/x" ? "DEVPATH=/devices/y" : $0 })),
            ("no SEQNUM: cut at a field's end", text(Array(valid.dropLast()))),
            ("SEQNUM not a number", text(Array(valid.dropLast()) + ["SEQNUM=7a"])),
            ("no final NUL: cut inside a field", Array(text(valid).dropLast())),
            ("not UTF-8", text(Array(valid.dropLast())) + Array("MODEL=".utf8) + [0xff, 0xfe, 0] + text(["SEQNUM=7"])),
            ("a field without =", text(Array(valid.dropLast()) + ["JUNK", "SEQNUM=7"])),
            ("an empty field", text(Array(valid.dropLast()) + ["", "SEQNUM=7"])),
            ("a field with no key", text(Array(valid.dropLast()) + ["=x", "SEQNUM=7"])),
            ("a repeated key", text(valid + ["SUBSYSTEM=usb"])),
            ("a relative device path", text(["add@devices/x", "ACTION=add", "DEVPATH=devices/x", "SEQNUM=7"])),
            ("a device path with ..", text(["add@/devices/../../etc", "ACTION=add", "DEVPATH=/devices/../../etc", "SEQNUM=7"])),
            ("udevd's libudev header", udevd),
            ("larger than 8192 bytes", text(Array(valid.dropLast()) + ["BIG=" + String(repeating: "x", count: 8192), "SEQNUM=7"])),
        ]
        return cases.map { Refused(why: $0.0, bytes: $0.1) }
    }()

    @Test(arguments: refused)
    func aDatagramThatIsNotAWholeUeventIsNil(_ refused: Refused) {
        #expect(Uevent(datagram: refused.bytes) == nil)
    }

    @Test func theLargestDatagramIsRead() {
        let head = UeventWire.datagram("add", "/devices/x", subsystem: "block", [], sequence: 7)
        let filler = Uevent.maximumSize - head.count - "BIG=".utf8.count - 1
        let bytes = UeventWire.datagram("add", "/devices/x", subsystem: "block", [("BIG", String(repeating: "x", count: filler))],
                                        sequence: 7)
        #expect(bytes.count == 8192)
        #expect(Uevent(datagram: bytes)?["BIG"]?.count == filler)
    }
}
