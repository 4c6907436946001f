import TrackeeCore

/// `device: {usb: "17ef:30b4"}`, with `serial:`, `subsystem:` and `name:`
/// beside or instead of it, and `on: added` (the default) or `on: removed`:
/// a device that matches every value given was plugged in or removed.
///
/// The USB id is `vendor:product` in hex, kept in lower case; a serial and
/// a subsystem compare as written, a name without regard to case.
public struct DeviceTrigger: DeskTrigger, Equatable {
    public var action: DeviceChange.Action
    /// `vendor:product`, lower case.
    public var usb: String?
    public var serial: String?
    public var subsystem: String?
    public var name: String?

    public init(_ action: DeviceChange.Action = .added, usb: String? = nil, serial: String? = nil,
                subsystem: String? = nil, name: String? = nil) {
        self.action = action
        self.usb = usb
        self.serial = serial
        self.subsystem = subsystem
        self.name = name
    }

    public var kindName: String { "device" }
    public var index: TriggerIndex { .key(DeviceEdge.indexKey(action)) }

    public func accepts(_ event: TriggerEvent, zone: Zone) -> Bool {
        guard let change = (event.payload as? DeviceEdge)?.change, change.action == action else { return false }
        if let usb, change.usbID?.lowercased() != usb { return false }
        if let serial, change.serial != serial { return false }
        if let subsystem, change.subsystem != subsystem { return false }
        if let name, change.name?.lowercased() != name.lowercased() { return false }
        return true
    }

    /// `{"device": "added", "usb": "17ef:30b4"}`; `device added (usb 17ef:30b4)`.
    public func checkView(ahead: [TriggerEvent]?, enabled: Bool, zone: Zone) -> TriggerCheckView {
        var fields: [String: ViewValue] = ["device": .text(action.rawValue)]
        var matchers: [String] = []
        for (key, value) in [("usb", usb), ("serial", serial), ("subsystem", subsystem), ("name", name)] {
            guard let value else { continue }
            fields[key] = .text(value)
            matchers.append("\(key) \(value)")
        }
        return TriggerCheckView(fields: fields, text: "device \(action.rawValue) (\(matchers.joined(separator: ", ")))")
    }
}

extension RuleTrigger where Self == DeviceTrigger {
    public static func device(_ action: DeviceChange.Action = .added, usb: String? = nil, serial: String? = nil,
                              subsystem: String? = nil, name: String? = nil) -> DeviceTrigger {
        DeviceTrigger(action, usb: usb, serial: serial, subsystem: subsystem, name: name)
    }
}

extension TriggerKind {
    static let device = TriggerKind(
        key: "device", options: [],
        fields: ["action", "devpath", "subsystem", "usb", "vendor", "product", "serial", "name"]
    ) { fields, reader in
        guard let value = fields["device"] else { return nil }
        guard case .mapping = value.node else {
            reader.fail("expected a mapping such as {usb: \"17ef:30b4\"}, found \(value.found)", at: value)
            return nil
        }
        guard let keys = reader.fields(value, known: ["usb", "serial", "subsystem", "name", "on"]) else { return nil }
        var trigger = DeviceTrigger()
        var ok = true
        if let on = keys["on"] {
            if let action: DeviceChange.Action = reader.word(on, "device action") { trigger.action = action } else { ok = false }
        }
        if let usb = keys["usb"] {
            if let id = reader.parsed(usb, parseUSBID) { trigger.usb = id } else { ok = false }
        }
        for (key, path) in [("serial", \DeviceTrigger.serial), ("subsystem", \.subsystem), ("name", \.name)] {
            guard let text = keys[key] else { continue }
            if let name = reader.name(text, key) { trigger[keyPath: path] = name } else { ok = false }
        }
        if ["usb", "serial", "subsystem", "name"].allSatisfy({ keys[$0] == nil }) {
            reader.fail("name the device with usb:, serial:, subsystem: or name:", at: value)
            return nil
        }
        return ok ? trigger : nil
    }
}

/// `17EF:30b4` → `17ef:30b4`: four hex digits, a colon, four hex digits.
func parseUSBID(_ text: String) throws(InvalidValue) -> String {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, parts.allSatisfy({ $0.utf8.count == 4 && $0.allSatisfy(\.isHexDigit) }) else {
        throw InvalidValue("expected a USB id as vendor:product in hex, such as \"17ef:30b4\", found \"\(text)\"")
    }
    return text.lowercased()
}
