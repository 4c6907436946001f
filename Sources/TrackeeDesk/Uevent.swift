/// One kernel uevent, read from a datagram of the `NETLINK_KOBJECT_UEVENT`
/// socket: `ACTION@DEVPATH\0KEY=VALUE\0…SEQNUM=n\0`.
///
/// Reading is strict, because the bytes come from another program and a
/// wrong device edge starts or stops a timer: anything but a whole kernel
/// datagram is `nil`, never a trap. That covers udevd's own messages (they
/// open with a `libudev\0` binary header), a first line without `@`, a
/// field without `=` or repeated, bytes that are not UTF-8, a header that
/// disagrees with `ACTION` or `DEVPATH`, a device path that climbs out of
/// `/sys` with `..`, and a datagram cut short: the kernel ends every one
/// with `SEQNUM` and a NUL, so a missing sequence number or final NUL
/// means the end was lost.
public struct Uevent: Sendable, Equatable {
    /// The largest datagram read: the kernel's variables fit in 2048 bytes
    /// (`UEVENT_BUFFER_SIZE`), plus the header's action and device path.
    public static let maximumSize = 8192

    /// `add`, `remove`, `change`, `move`, `bind`, `unbind`, `online`, `offline`.
    public var action: String
    /// Below `/sys`, such as `/devices/pci0000:00/0000:00:14.0/usb1/1-2`.
    public var devpath: String
    /// Every `KEY=VALUE` field, `ACTION`, `DEVPATH` and `SEQNUM` included.
    public var properties: [String: String]

    public init(action: String, devpath: String, properties: [String: String]) {
        self.action = action
        self.devpath = devpath
        self.properties = properties
    }

    public subscript(key: String) -> String? { properties[key] }

    public var subsystem: String? { properties["SUBSYSTEM"] }

    /// Reads one datagram; nil when it is not a whole kernel uevent.
    public init?(datagram: some BidirectionalCollection<UInt8>) {
        guard datagram.count <= Self.maximumSize, datagram.last == 0 else { return nil }
        var fields = datagram.split(separator: 0, omittingEmptySubsequences: false)
        // The final NUL leaves one empty piece behind it.
        fields.removeLast()
        guard let first = fields.first,
              let header = String(validating: first, as: UTF8.self),
              let at = header.firstIndex(of: "@")
        else { return nil }
        var properties: [String: String] = [:]
        for field in fields.dropFirst() {
            guard let text = String(validating: field, as: UTF8.self),
                  let equals = text.firstIndex(of: "="), equals != text.startIndex
            else { return nil }
            let key = String(text[..<equals])
            guard properties.updateValue(String(text[text.index(after: equals)...]), forKey: key) == nil else {
                return nil
            }
        }
        let action = String(header[..<at])
        let devpath = String(header[header.index(after: at)...])
        guard properties["ACTION"] == action, properties["DEVPATH"] == devpath,
              Self.isPlainDevicePath(devpath),
              let sequence = properties["SEQNUM"], !sequence.isEmpty, sequence.allSatisfy(\.isASCIIDigit)
        else { return nil }
        self.init(action: action, devpath: devpath, properties: properties)
    }

    /// Absolute, and never `..`: the path is joined to the sysfs root to
    /// read the device's attributes.
    private static func isPlainDevicePath(_ path: String) -> Bool {
        guard path.hasPrefix("/"), path.count > 1 else { return false }
        return !path.split(separator: "/").contains { $0 == ".." || $0 == "." }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
