import TrackeeCore

/// Turns kernel uevents into the changes the `device` trigger fires on:
/// one per device plugged in or pulled out.
///
/// Only `add` and `remove` are edges; `change`, `move`, `bind`, `unbind`,
/// `online` and `offline` report a device that stays. A USB device also
/// sends one uevent per interface and endpoint, so for subsystem `usb`
/// only the `usb_device` counts. Its serial and name are in sysfs, which
/// is gone by the time the removal arrives: what the add saw is kept by
/// device path and reported again at removal, so a rule matching a serial
/// sees both edges. The same action twice for one path (a repeated
/// `udevadm trigger --action=add`) is one edge; a device found only at its
/// removal (plugged in before the daemon started) is still an edge, with
/// what its uevent gives.
public struct DeviceEdges: Sendable {
    public var sysfs: SysfsAttributes
    private var seen: [String: Seen] = [:]

    private enum Seen: Sendable {
        case added(DeviceChange)
        case removed
    }

    /// Past this many paths, those of removed devices are forgotten: a
    /// hub that re-enumerates for days must not grow the daemon.
    static let rememberedPaths = 4096

    public init(sysfs: SysfsAttributes = SysfsAttributes()) {
        self.sysfs = sysfs
    }

    /// The change `uevent` makes, or nil when it is not an edge.
    public mutating func take(_ uevent: Uevent) -> DeviceChange? {
        let action: DeviceChange.Action
        switch uevent.action {
        case "add": action = .added
        case "remove": action = .removed
        default: return nil
        }
        guard let subsystem = uevent.subsystem, !subsystem.isEmpty else { return nil }
        let isUSB = subsystem == "usb"
        if isUSB, uevent["DEVTYPE"] != "usb_device" { return nil }

        let change: DeviceChange
        switch (action, seen[uevent.devpath]) {
        case (.added, .added?), (.removed, .removed?):
            return nil
        case (.removed, .added(let earlier)?):
            change = DeviceChange(
                action: .removed, devpath: earlier.devpath, subsystem: earlier.subsystem, vendor: earlier.vendor,
                product: earlier.product, serial: earlier.serial, name: earlier.name)
        case (.removed, _):
            // sysfs is gone, or already holds whatever was plugged in next.
            change = isUSB ? usbDevice(uevent, action: .removed, readingSysfs: false) : other(uevent, action: .removed)
        case (.added, _):
            change = isUSB ? usbDevice(uevent, action: .added, readingSysfs: true) : other(uevent, action: .added)
        }
        remember(change)
        return change
    }

    private mutating func remember(_ change: DeviceChange) {
        seen[change.devpath] = change.action == .added ? .added(change) : .removed
        if seen.count > Self.rememberedPaths {
            seen = seen.filter { if case .added = $0.value { true } else { false } }
        }
    }

    private func usbDevice(_ uevent: Uevent, action: DeviceChange.Action, readingSysfs: Bool) -> DeviceChange {
        // PRODUCT is `vendor/product/release` in hex without leading zeros.
        let product = uevent["PRODUCT"]?.split(separator: "/", omittingEmptySubsequences: false)
        var ids = product.flatMap { $0.count == 3 ? (Self.usbID($0[0]), Self.usbID($0[1])) : nil }
        var serial: String?
        var name: String?
        if readingSysfs {
            if ids?.0 == nil || ids?.1 == nil {
                ids = (sysfs.read("idVendor", of: uevent.devpath).flatMap { Self.usbID($0[...]) },
                       sysfs.read("idProduct", of: uevent.devpath).flatMap { Self.usbID($0[...]) })
            }
            serial = sysfs.read("serial", of: uevent.devpath)
            name = sysfs.read("product", of: uevent.devpath)
        }
        return DeviceChange(
            action: action, devpath: uevent.devpath, subsystem: "usb", vendor: ids?.0, product: ids?.1,
            serial: serial, name: name)
    }

    private func other(_ uevent: Uevent, action: DeviceChange.Action) -> DeviceChange {
        // Input devices quote their NAME: `NAME="ThinkPad Dock Keyboard"`.
        var name = uevent["NAME"].map { Substring($0) }
        if let quoted = name, quoted.count >= 2, quoted.first == "\"", quoted.last == "\"" {
            name = quoted.dropFirst().dropLast()
        }
        return DeviceChange(
            action: action, devpath: uevent.devpath, subsystem: uevent.subsystem ?? "",
            name: name.flatMap { $0.isEmpty ? nil : String($0) })
    }

    /// One to four hex digits as four lower-case ones: `17EF` and `17ef`
    /// are `17ef`, `a` is `000a`.
    static func usbID(_ text: Substring) -> String? {
        guard (1...4).contains(text.count), text.allSatisfy(\.isHexDigit), let value = UInt16(text, radix: 16)
        else { return nil }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
