import Testing
import TrackeeCore
import TrackeeDesk

/// `DeviceEdges` deciding which uevents are device edges, without a socket.
struct DeviceEdgesTests {
    static let disk = "/devices/pci0000:00/0000:00:14.0/usb3/3-2/3-2:1.0/host6/target6:0:0/6:0:0:0/block/sdb"

    func uevent(_ action: String, _ devpath: String, _ subsystem: String, _ variables: [(String, String)] = [])
        -> Uevent {
        Uevent(datagram: UeventWire.datagram(action, devpath, subsystem: subsystem, variables, sequence: 1))!
    }

    @Test func onlyAddAndRemoveAreEdges() {
        var edges = DeviceEdges(sysfs: SysfsAttributes(root: "/nonexistent"))
        let taken = ["add", "change", "bind", "unbind", "move", "online", "offline", "remove"].map {
            edges.take(uevent($0, Self.disk, "block", [("DEVTYPE", "disk"), ("DEVNAME", "sdb")]))?.action
        }
        #expect(taken == [.added, nil, nil, nil, nil, nil, nil, .removed])
    }

    @Test func theSameActionTwiceForOnePathIsOneEdge() {
        var edges = DeviceEdges(sysfs: SysfsAttributes(root: "/nonexistent"))
        let other = "/devices/virtual/block/loop7"
        let taken = [
            ("add", Self.disk), ("add", Self.disk), ("add", other), ("add", Self.disk), ("remove", Self.disk),
            ("remove", Self.disk), ("add", Self.disk), ("remove", other),
        ].map { edges.take(uevent($0.0, $0.1, "block")).map { "\($0.action.rawValue) \($0.devpath)" } }
        #expect(taken == [
            "added \(Self.disk)", nil, "added \(other)", nil, "removed \(Self.disk)", nil, "added \(Self.disk)",
            "removed \(other)",
        ])
    }

    @Test func aUSBInterfaceOrEndpointIsNotAnEdge() {
        var edges = DeviceEdges(sysfs: SysfsAttributes(root: "/nonexistent"))
        let device = "/devices/pci0000:00/0000:00:14.0/usb3/3-1"
        #expect(edges.take(uevent("add", device + "/3-1:1.0", "usb", [("DEVTYPE", "usb_interface"),
                                                                       ("PRODUCT", "17ef/30b4/3100")])) == nil)
        #expect(edges.take(uevent("add", device + "/3-1:1.0/ep_81", "usb", [("DEVTYPE", "usb_endpoint")])) == nil)
        #expect(edges.take(uevent("add", device, "usb", [("PRODUCT", "17ef/30b4/3100")])) == nil)
    }

    @Test func aDeviceFoundOnlyAtItsRemovalIsAnEdgeWithWhatItsUeventGives() {
        var edges = DeviceEdges(sysfs: SysfsAttributes(root: "/nonexistent"))
        let device = "/devices/pci0000:00/0000:00:14.0/usb3/3-4"
        #expect(edges.take(uevent("remove", device, "usb", [("DEVTYPE", "usb_device"), ("PRODUCT", "46d/C52B/1211")]))
            == DeviceChange(action: .removed, devpath: device, subsystem: "usb", vendor: "046d", product: "c52b"))
    }

    @Test func otherSubsystemsTakeTheirNameFromNameWithoutItsQuotes() {
        var edges = DeviceEdges(sysfs: SysfsAttributes(root: "/nonexistent"))
        let input = "/devices/virtual/input/input30"
        let net = "/devices/virtual/net/wg0"
        #expect(edges.take(uevent("add", input, "input", [("PRODUCT", "3/17ef/30b4/111"), ("NAME", "\"Dock Keys\"")]))
            == DeviceChange(action: .added, devpath: input, subsystem: "input", name: "Dock Keys"))
        #expect(edges.take(uevent("add", net, "net", [("INTERFACE", "wg0"), ("IFINDEX", "9")]))
            == DeviceChange(action: .added, devpath: net, subsystem: "net"))
    }

    @Test func aUeventWithoutSubsystemIsNotAnEdge() {
        var edges = DeviceEdges(sysfs: SysfsAttributes(root: "/nonexistent"))
        let bytes = Array("add@/devices/x\0ACTION=add\0DEVPATH=/devices/x\0SEQNUM=3\0".utf8)
        #expect(edges.take(Uevent(datagram: bytes)!) == nil)
    }

    @Test(arguments: [
        ("17ef", "17ef"), ("17EF", "17ef"), ("a", "000a"), ("46d", "046d"), ("0000", "0000"),
        ("12345", nil), ("", nil), ("+a", nil), ("-1", nil), ("xyz", nil),
    ] as [(String, String?)])
    func aUSBIdIsFourLowerCaseHexDigits(_ text: String, _ id: String?) {
        var edges = DeviceEdges(sysfs: SysfsAttributes(root: "/nonexistent"))
        let change = edges.take(uevent("add", "/devices/usb1/1-1", "usb", [("DEVTYPE", "usb_device"),
                                                                         ("PRODUCT", "\(text)/1/100")]))
        #expect(change?.vendor == id)
    }

    @Test func theIdsComeFromSysfsWhenTheUeventHasNone() throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.remove() }
        let device = "/devices/pci0000:00/0000:00:14.0/usb3/3-3"
        try sysfs.device(device, ["idVendor": "1050", "idProduct": "0407", "serial": " YK 12 ", "product": "YubiKey"])
        var edges = DeviceEdges(sysfs: SysfsAttributes(root: sysfs.root))
        #expect(edges.take(uevent("add", device, "usb", [("DEVTYPE", "usb_device")]))
            == DeviceChange(action: .added, devpath: device, subsystem: "usb", vendor: "1050", product: "0407",
                            serial: "YK 12", name: "YubiKey"))
    }
}
