import Foundation
import Glibc
import Testing
@testable import TrackeeDaemon

/// A real AF_UNIX datagram socket stands in for systemd's notify socket.
final class NotifySocket {
    let fd: Int32
    let name: String

    /// `abstract` binds in the abstract namespace (`@name`), as systemd
    /// does for some services; otherwise to a file in a temporary folder.
    init(abstract: Bool) throws {
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
        try #require(bound == 0, "bind failed: \(String(cString: strerror(errno)))")
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next datagram, or nil after two seconds.
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n < 0 ? nil : String(decoding: buffer[0..<n], as: UTF8.self)
    }

    deinit {
        close(fd)
        if !name.hasPrefix("@") { unlink(name) }
    }
}

@Suite struct SystemdNotifierTests {
    @Test(arguments: [false, true])
    func readyStatusAndStoppingArriveAsOneDatagramEach(abstract: Bool) throws {
        let socket = try NotifySocket(abstract: abstract)
        let systemd = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.name])
        #expect(systemd.ready(status: "watching 6 rules"))
        #expect(socket.receive() == "READY=1\nSTATUS=watching 6 rules")
        #expect(systemd.status("next firing 09:00"))
        #expect(socket.receive() == "STATUS=next firing 09:00")
        #expect(systemd.stopping())
        #expect(socket.receive() == "STOPPING=1")
    }

    @Test func reloadingCarriesTheMonotonicClock() throws {
        let socket = try NotifySocket(abstract: false)
        let before = SystemdNotifier.monotonicMicroseconds()
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.name]).reloading())
        let message = try #require(socket.receive())
        let lines = message.split(separator: "\n")
        #expect(lines.first == "RELOADING=1")
        let usec = try #require(UInt64(lines.last!.dropFirst("MONOTONIC_USEC=".count)))
        #expect(lines.count == 2 && usec >= before && usec <= SystemdNotifier.monotonicMicroseconds())
    }

    @Test func withoutNotifySocketNothingIsSent() {
        #expect(SystemdNotifier(environment: [:]).socket == nil)
        #expect(!SystemdNotifier(environment: ["NOTIFY_SOCKET": ""]).ready(status: "x"))
    }

    @Test func aSocketNobodyListensOnIsReportedNotFatal() {
        let systemd = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent/notify"])
        #expect(!systemd.ready(status: "x"))
    }
}
