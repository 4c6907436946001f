import Glibc

/// The descriptor device uevents are read from: the kernel's
/// `NETLINK_KOBJECT_UEVENT` socket, or one handed over (a socket pair in
/// tests). It owns the descriptor and closes it.
///
/// Why the kernel's socket and not libudev: Debian's libudev-dev has no
/// `libudev.a` (only `libudev.so.1`), and `trackee` links statically. The
/// kernel's multicast group 1 needs no udevd (containers, minimal
/// systems), any user may join it, and its datagrams are plain text,
/// while udevd's group 2 carries libudev's private binary header. What the
/// kernel does not send (a USB device's serial and name) is read from
/// sysfs, as udevd itself would. One limit: the kernel sends uevents only
/// to sockets of its first user namespace, so inside a container that has
/// its own, the socket opens and stays silent.
final class UeventSocket: Sendable {
    let descriptor: Int32
    /// On netlink only the kernel (port 0) sends uevents; another process
    /// could otherwise fake a dock.
    private let onlyFromKernel: Bool

    /// The kernel's netlink family for uevents (`linux/netlink.h`), and its
    /// one multicast group.
    private static let kobjectUevent: Int32 = 15
    private static let kernelGroup: UInt32 = 1

    init(adopting descriptor: Int32) {
        self.descriptor = descriptor
        self.onlyFromKernel = false
    }

    private init(netlink descriptor: Int32) {
        self.descriptor = descriptor
        self.onlyFromKernel = true
    }

    deinit { close(descriptor) }

    /// Opens and binds the kernel's uevent socket; the failure says which
    /// step the system refused and why.
    static func kernel() throws(DeviceMonitorFailure) -> UeventSocket {
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let fd = socket(AF_NETLINK, type, kobjectUevent)
        guard fd >= 0 else { throw refused("could not be opened") }
        let opened = UeventSocket(netlink: fd)
        // A boot or `udevadm trigger` sends thousands at once; the default
        // queue would drop some. Best effort: the limit may cap it.
        var size: Int32 = 1 << 20
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = netlinkAddress(port: 0, groups: kernelGroup)
        let bound = address.withUnsafeMutableBytes {
            bind(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
        }
        guard bound == 0 else { throw refused("could not join the kernel's device events") }
        return opened
    }

    private static func refused(_ what: String) -> DeviceMonitorFailure {
        let reason = String(cString: strerror(errno))
        return DeviceMonitorFailure("the kernel's uevent socket (netlink) \(what): \(reason).")
    }

    /// `struct sockaddr_nl`, which Glibc's module does not export: family,
    /// padding, port id, groups, in the machine's byte order.
    private static func netlinkAddress(port: UInt32, groups: UInt32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 12)
        bytes.withUnsafeMutableBytes {
            $0.storeBytes(of: UInt16(AF_NETLINK), toByteOffset: 0, as: UInt16.self)
            $0.storeBytes(of: port, toByteOffset: 4, as: UInt32.self)
            $0.storeBytes(of: groups, toByteOffset: 8, as: UInt32.self)
        }
        return bytes
    }

    enum Received: Equatable {
        /// A datagram of this many bytes is at the start of the buffer.
        case datagram(Int)
        /// One was read and dropped: too large for the buffer, or not
        /// from the kernel.
        case dropped
        /// Nothing is waiting.
        case nothing
        /// The socket failed for good, in a sentence.
        case failed(String)
    }

    /// Reads one waiting datagram without blocking.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> Received {
        var sender = [UInt8](repeating: 0, count: 128)
        var senderSize = socklen_t(sender.count)
        while true {
            // MSG_TRUNC makes it answer the datagram's real size, so a huge
            // one is recognised rather than read cut short.
            let count = sender.withUnsafeMutableBytes {
                recvfrom(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_TRUNC | MSG_DONTWAIT),
                         $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), &senderSize)
            }
            if count < 0 {
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return .nothing
                // The queue overflowed and some uevents were lost; the
                // socket still works.
                case ENOBUFS: return .dropped
                default: return .failed("reading the device events failed: \(String(cString: strerror(errno))).")
                }
            }
            if count > buffer.count { return .dropped }
            if onlyFromKernel, !Self.isKernel(sender, size: Int(senderSize)) { return .dropped }
            return .datagram(count)
        }
    }

    private static func isKernel(_ address: [UInt8], size: Int) -> Bool {
        guard size >= 12 else { return false }
        return address.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self) } == 0
    }
}
