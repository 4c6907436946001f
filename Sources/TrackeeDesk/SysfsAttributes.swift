import Glibc

/// A device's attribute files under sysfs, such as
/// `/sys/devices/…/1-2/serial`: what a USB device says about itself that
/// its uevent leaves out.
///
/// The root is a parameter so that tests read a tree of their own.
public struct SysfsAttributes: Sendable {
    public var root: String

    public init(root: String = "/sys") {
        self.root = root
    }

    /// The attribute's text without surrounding blanks and its final
    /// newline; nil when the file is missing, empty, not UTF-8 or larger
    /// than a page (an attribute never is).
    public func read(_ name: String, of devpath: String) -> String? {
        let fd = open(root + devpath + "/" + name, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let capacity = 4096
        var bytes = [UInt8](repeating: 0, count: capacity + 1)
        var count = 0
        while count <= capacity {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, capacity + 1 - count) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        guard count <= capacity, let text = String(validating: bytes[..<count], as: UTF8.self) else { return nil }
        let trimmed = text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
        return trimmed.isEmpty ? nil : String(trimmed)
    }
}
