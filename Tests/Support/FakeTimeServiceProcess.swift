import Foundation
import Glibc

/// `Tests/Servers/fake_time_service.py` running as a child process: a
/// local Clockify v1 or Toggl Track v9 with its control API (failures,
/// down/up, state, request log; see `Tests/Servers/README.md`).
///
/// The server exits when this object stops it or goes away, and on its
/// own when the test process dies (its stdin, a pipe held here, closes).
/// Control calls are plain blocking HTTP on the control port, which stays
/// up while the API is down.
///
/// ```swift
/// let fake = try FakeTimeServiceProcess(service: "clockify", token: "SECRET")
/// try fake.fail(["match": "POST .*/time-entries$", "mode": "drop_after_store"])
/// let clockify = ClockifyService(baseURL: fake.baseURL, token: "SECRET", workspace: "My Company", createMissing: false)
/// ```
public final class FakeTimeServiceProcess {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `clockify` or `toggl`.
    public let service: String
    public let token: String
    public let apiPort: Int
    public let controlPort: Int
    private let process: Process
    private let stdin: Pipe

    /// The API's base URL: `http://127.0.0.1:PORT/api/v1` (Clockify) or
    /// `…/api/v9` (Toggl Track).
    public var baseURL: String {
        "http://127.0.0.1:\(apiPort)" + (service == "toggl" ? "/api/v9" : "/api/v1")
    }

    /// Starts the server and waits (up to 10 s) for its two ports.
    /// `workspaces` seeds them in order, the first the user's default
    /// (empty: the script's default, `My Company`).
    public init(service: String, token: String = "test-token", workspaces: [String] = [], userName: String? = nil,
                email: String? = nil) throws {
        self.service = service
        self.token = token
        // #filePath is <root>/Tests/Support/FakeTimeServiceProcess.swift.
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Servers/fake_time_service.py").path
        var arguments = ["python3", script, "--service", service, "--token", token, "--port", "0", "--exit-on-stdin-eof"]
        for workspace in workspaces { arguments += ["--workspace", workspace] }
        if let userName { arguments += ["--user-name", userName] }
        if let email { arguments += ["--email", email] }

        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()

        var ports: [Int] = []
        var text = ""
        let fd = stdout.fileHandleForReading.fileDescriptor
        while ports.count < 2 {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            var buffer = [UInt8](repeating: 0, count: 512)
            var polled: Int32
            repeat { polled = poll(&ready, 1, 10_000) } while polled == -1 && errno == EINTR
            let n = polled > 0 ? read(fd, &buffer, buffer.count) : -1
            guard n > 0 else {
                // SIGKILL: the server may have inherited a mask that
                // blocks SIGTERM, and would then never end.
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw Failure(description: "the fake \(service) server printed no ports (so far: \(text.debugDescription))")
            }
            text += String(decoding: buffer[0..<n], as: UTF8.self)
            // Whole lines only: a port cut in two would read as another number.
            ports = text.components(separatedBy: "\n").dropLast().compactMap { line in
                line.split(separator: ":").last.flatMap { Int($0) }
            }
        }
        apiPort = ports[0]
        controlPort = ports[1]
    }

    deinit { stop() }

    /// Ends the server and waits for it; safe to call more than once.
    public func stop() {
        guard process.isRunning else { return }
        try? stdin.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }

    /// Queues one failure, such as `["match": "POST .*/time-entries$",
    /// "mode": "status", "status": 500]`.
    public func fail(_ failure: [String: Any]) throws {
        _ = try control("POST", "/_control/fail", failure)
    }

    /// Queues several failures, consulted in this order.
    public func fail(_ failures: [[String: Any]]) throws {
        _ = try control("POST", "/_control/fail", failures)
    }

    /// `refuse` stops listening; `close` accepts and closes each request
    /// unanswered. Open connections are cut either way.
    public func down(mode: String = "refuse") throws {
        _ = try control("POST", "/_control/down", ["mode": mode])
    }

    public func up() throws {
        _ = try control("POST", "/_control/up")
    }

    /// Back to the seed: no entries, failures or log.
    public func reset() throws {
        _ = try control("POST", "/_control/reset")
    }

    /// Sets the fake's clock (its quota's hour runs on it) to `seconds`
    /// since the epoch; nil: real time again.
    public func setClock(_ seconds: Int64?) throws {
        _ = try control("POST", "/_control/clock", ["now": seconds.map { $0 as Any } ?? NSNull()])
    }

    /// Toggl only: the hourly quotas, workspace requests and `/me`
    /// requests (nil turns one off).
    public func setQuota(workspace: Int?, user: Int?) throws {
        _ = try control("POST", "/_control/quota", ["workspace": workspace.map { $0 as Any } ?? NSNull(),
                                                    "user": user.map { $0 as Any } ?? NSNull()])
    }

    /// Everything stored, as the API shows it, plus `down`,
    /// `pending_failures` and `server_errors`.
    public func state() throws -> [String: Any] {
        guard let state = try control("GET", "/_control/state") as? [String: Any] else {
            throw Failure(description: "the fake's state is not a JSON object")
        }
        return state
    }

    /// The request log after sequence number `since`: `seq, method, path,
    /// status, failure, stored_status, connection, elapsed_ms, body`.
    public func requests(since: Int = 0) throws -> [[String: Any]] {
        guard let log = try control("GET", "/_control/requests?since=\(since)") as? [[String: Any]] else {
            throw Failure(description: "the fake's request log is not a JSON array")
        }
        return log
    }

    /// One control request on a connection of its own, closed after the
    /// answer; a 200 answer's JSON, anything else throws.
    private func control(_ method: String, _ path: String, _ body: Any? = nil) throws -> Any {
        let payload = try body.map { [UInt8](try JSONSerialization.data(withJSONObject: $0)) } ?? []
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(controlPort)).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            throw Failure(description: "cannot reach the fake's control port \(controlPort): \(String(cString: strerror(errno)))")
        }
        let head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(controlPort)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(payload.count)\r\nConnection: close\r\n\r\n"
        let request = Array(head.utf8) + payload
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "\(method) \(path): the control port stopped reading") }
            sent += n
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 { break }
            guard n > 0 else { throw Failure(description: "\(method) \(path): no answer from the control port") }
            answer += buffer[0..<n]
        }
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let split = (0..<max(0, answer.count - 3)).first(where: { Array(answer[$0..<$0 + 4]) == separator }) else {
            throw Failure(description: "\(method) \(path): the control port's answer has no header end")
        }
        let statusLine = String(decoding: answer.prefix { $0 != 13 }, as: UTF8.self)
        let content = Data(answer[(split + 4)...])
        guard statusLine.split(separator: " ").dropFirst().first == "200" else {
            throw Failure(description: "\(method) \(path): \(statusLine) \(String(decoding: content, as: UTF8.self))")
        }
        return try JSONSerialization.jsonObject(with: content, options: [.fragmentsAllowed])
    }
}
