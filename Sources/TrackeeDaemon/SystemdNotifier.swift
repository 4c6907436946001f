import Glibc

/// Tells systemd how the service is doing, speaking the notify protocol of
/// sd_notify(3) directly: each message is one datagram of `KEY=value`
/// lines sent to the AF_UNIX socket named by `$NOTIFY_SOCKET` (a name that
/// starts with `@` lives in the abstract namespace). Without the variable,
/// as outside a `Type=notify` unit, every call does nothing.
///
/// ```swift
/// let systemd = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/run/user/1000/systemd/notify"])
/// systemd.send("READY=1", "STATUS=watching 6 rules")
/// ```
public struct SystemdNotifier: Sendable {
    /// The socket address, or nil when not run by systemd.
    public let socket: String?

    public init(environment: [String: String]) {
        let value = environment["NOTIFY_SOCKET"] ?? ""
        socket = value.isEmpty ? nil : value
    }

    /// Sends the lines as one message. Returns false when there is no
    /// socket or the message could not be sent; a service goes on either
    /// way, as with sd_notify.
    @discardableResult
    public func send(_ lines: String...) -> Bool {
        guard let socket else { return false }
        return Self.send(lines.joined(separator: "\n"), to: socket)
    }

    /// `READY=1` with a status line.
    @discardableResult
    public func ready(status: String) -> Bool { send("READY=1", "STATUS=\(status)") }

    /// A new status line, shown by `systemctl status`.
    @discardableResult
    public func status(_ status: String) -> Bool { send("STATUS=\(status)") }

    /// `RELOADING=1` before rules are reloaded; follow with ``ready(status:)``.
    @discardableResult
    public func reloading() -> Bool { send("RELOADING=1", "MONOTONIC_USEC=\(Self.monotonicMicroseconds())") }

    /// `STOPPING=1` when shutdown begins.
    @discardableResult
    public func stopping() -> Bool { send("STOPPING=1") }

    private static func send(_ message: String, to path: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var name = Array(path.utf8)
        let abstract = name.first == UInt8(ascii: "@")
        if abstract { name[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !name.isEmpty, name.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: name)
        }
        // An abstract name is exactly its bytes; a path is NUL-terminated.
        let length = MemoryLayout<sa_family_t>.size + name.count + (abstract ? 0 : 1)

        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { addr in
                bytes.withUnsafeBytes { buffer in
                    sendto(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), addr, socklen_t(length))
                }
            }
        }
        return sent == bytes.count
    }

    static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }
}
