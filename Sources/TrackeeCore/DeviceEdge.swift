/// `device:` events: a device was plugged in or removed.
///
/// Keyed by the kernel's device path and the edge's own time, so a
/// replayed line fires nothing twice.
public struct DeviceEdge: TriggerPayload {
    public var change: DeviceChange

    public init(_ change: DeviceChange) { self.change = change }

    public static func indexKey(_ action: DeviceChange.Action) -> String { "device:\(action.rawValue)" }

    public var kindName: String { "device" }
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
}

extension TriggerPayload where Self == DeviceEdge {
    public static func device(_ change: DeviceChange) -> DeviceEdge { DeviceEdge(change) }
}
