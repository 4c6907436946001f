/// `device:` events: a device was plugged in or removed.
///
/// Keyed by the kernel's device path and the edge's own time, so a
/// replayed line fires nothing twice.
public struct DeviceEdge: DeskEdge {
    public var change: DeviceChange

    public init(_ change: DeviceChange) { self.change = change }

    public static func indexKey(_ action: DeviceChange.Action) -> String { "device:\(action.rawValue)" }

    public static let kindName = "device"
    public var indexKey: String { Self.indexKey(change.action) }

    public func occurrence(at time: Instant) -> String {
        "device:\(change.action.rawValue):\(keyPart(change.devpath)):\(time.seconds)"
    }

    public func fields(zone: Zone) -> [String: String] {
        [
            "action": change.action.rawValue, "devpath": change.devpath, "subsystem": change.subsystem,
            "usb": change.usbID ?? "", "vendor": change.vendor ?? "", "product": change.product ?? "",
            "serial": change.serial ?? "", "name": change.name ?? "",
        ]
    }

    /// `device 17ef:30b4 added`: the USB id, else the name, else the path.
    public var summary: String {
        "device \(change.usbID ?? change.name ?? change.devpath) \(change.action.rawValue)"
    }

    /// A device by its kernel path.
    public var edge: (subject: String, state: String) { ("device:" + change.devpath, change.action.rawValue) }

    /// `{"type":"device","action":"added","subsystem":"usb","usb":"17ef:30b4","serial":"…",
    /// "name":"…","devpath":"/devices/…"}`; vendor and product may be given apart, and a
    /// USB id says the subsystem.
    public static func read(_ line: EventFields) throws(EventFields.Failure) -> DeviceEdge {
        typealias Failure = EventFields.Failure
        let action: DeviceChange.Action = try line.word("action")
        guard let devpath = try line.text("devpath") else { throw Failure("\"devpath\" is missing or blank") }
        var vendor = try line.text("vendor").map { $0.lowercased() }
        var product = try line.text("product").map { $0.lowercased() }
        if let usb = try line.text("usb") {
            let parts = usb.lowercased().split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.utf8.count == 4 && $0.allSatisfy(\.isHexDigit) }) else {
                throw Failure("\"usb\" must be vendor:product in hex, such as \"17ef:30b4\"")
            }
            if vendor != nil || product != nil { throw Failure("give \"usb\" or \"vendor\" and \"product\", not both") }
            vendor = String(parts[0])
            product = String(parts[1])
        }
        for (key, id) in [("vendor", vendor), ("product", product)] {
            guard let id else { continue }
            guard id.utf8.count == 4, id.allSatisfy(\.isHexDigit) else { throw Failure("\"\(key)\" must be four hex digits") }
        }
        let subsystem: String
        if let given = try line.text("subsystem") {
            subsystem = given
        } else {
            guard vendor != nil || product != nil else { throw Failure("\"subsystem\" is missing or blank") }
            subsystem = "usb"
        }
        return DeviceEdge(DeviceChange(action: action, devpath: devpath, subsystem: subsystem, vendor: vendor,
                                       product: product, serial: try line.text("serial"), name: try line.text("name")))
    }
}

extension TriggerPayload where Self == DeviceEdge {
    public static func device(_ change: DeviceChange) -> DeviceEdge { DeviceEdge(change) }
}

extension DeskEvent {
    public static func device(_ change: DeviceChange) -> DeskEvent { DeskEvent(DeviceEdge(change)) }
}

/// A device added or removed, as udev reports it.
public struct DeviceChange: Sendable, Equatable, Codable {
    public enum Action: String, Sendable, Equatable, CaseIterable, Codable {
        case added, removed
    }

    public var action: Action
    /// The kernel's path of the device, such as `/devices/pci0000:00/…/1-2`.
    public var devpath: String
    /// `usb`, `block`, `input`, `net`, …
    public var subsystem: String
    /// USB vendor and product ids as four lower-case hex digits each.
    public var vendor: String?
    public var product: String?
    public var serial: String?
    /// What the device calls itself (USB `product` string, or the model).
    public var name: String?

    public init(action: Action, devpath: String, subsystem: String, vendor: String? = nil, product: String? = nil,
                serial: String? = nil, name: String? = nil) {
        self.action = action
        self.devpath = devpath
        self.subsystem = subsystem
        self.vendor = vendor
        self.product = product
        self.serial = serial
        self.name = name
    }

    /// `vendor:product`, such as `17ef:30b4`, when both are known.
    public var usbID: String? {
        guard let vendor, let product else { return nil }
        return "\(vendor):\(product)"
    }
}
