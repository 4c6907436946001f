import Foundation
import Glibc

/// A real AF_UNIX datagram socket standing in for systemd's notify socket,
/// for tests of the daemon's sd_notify messages.
public final class NotifySocket {
    public struct BindFailure: Error, CustomStringConvertible {
        public let description: String
    }

    let fd: Int32
    /// What `NOTIFY_SOCKET` should say: a path, or `@name` in the abstract
    /// namespace.
    public let name: String

    /// `abstract` binds in the abstract namespace, as systemd does for some
    /// services; otherwise to a file in a temporary folder. `receive()`
    /// gives up after `timeout` seconds.
    public init(abstract: Bool = false, timeout: Int = 2) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        let unique = "trackee-notify-\(getpid())-\(UUID().uuidString.prefix(8))"
        name = abstract ? "@" + unique : FileManager.default.temporaryDirectory.path + "/" + unique
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            close(fd)
            throw BindFailure(description: "cannot bind \(name): \(String(cString: strerror(errno)))")
        }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next datagram, or nil after the timeout.
    public func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n < 0 ? nil : String(decoding: buffer[0..<n], as: UTF8.self)
    }

    deinit {
        close(fd)
        if !name.hasPrefix("@") { unlink(name) }
    }
}
