import Foundation
import GRDB
import Glibc
import TrackeeTestSupport

/// A private folder for one test: a store, settings that turn the HTTP
/// server on, one token with every scope, and `trackee run` serving it,
/// started and SIGKILLed and started again as the test says. Nothing of
/// the user's account leaks in; the folder is removed when the sandbox
/// goes away, and a daemon still running is killed.
///
/// ```swift
/// let t = try ServedSandbox()
/// try await t.startDaemon()
/// let r = try await t.python("one_key.py", ["--port", "\(t.port)", …])
/// ```
final class ServedSandbox {
    let root: URL
    private let binary: String
    /// The token, with every scope; it reaches the clients through their
    /// environment, never their arguments.
    private(set) var token = ""
    /// The port the server listens on: fixed before the first start when
    /// the test restarts the daemon, else the one the daemon reports.
    private(set) var port: Int
    private(set) var daemon: Process?
    /// How many times `trackee run` was started.
    private(set) var launches = 0

    /// `fixedPort` picks a free port before the first start, so every
    /// restart listens on the same one; otherwise the daemon picks one
    /// (`listen: …:0`).
    init(fixedPort: Bool = false) throws {
        binary = try TrackeeBinary.path()
        root = FileManager.default.temporaryDirectory.appendingPathComponent("trackee-load-\(UUID().uuidString)")
        for dir in ["home", "config/trackee", "data", "store", "io"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(dir), withIntermediateDirectories: true)
        }
        port = 0
        if fixedPort { port = try freePort() }
        // A rate limit and a connection cap far above what a test sends:
        // these tests are about keys, kills and bad input, not the limits.
        let settings = ["create_projects: always", "http:", "  listen: 127.0.0.1:\(port)",
                        "  max_connections: 512", "  rate_limit: 1000000"].joined(separator: "\n") + "\n"
        try settings.write(to: URL(fileURLWithPath: settingsPath), atomically: true, encoding: .utf8)
        try "rules: []\n".write(
            to: root.appendingPathComponent("config/trackee/rules.yaml"), atomically: true, encoding: .utf8)
        token = try addToken()
    }

    deinit {
        if let daemon, daemon.isRunning {
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: root)
    }

    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
    var storePath: String { path("store/trackee.sqlite3") }
    var settingsPath: String { path("config/trackee/config.yaml") }

    /// The environment every process starts from; nothing is inherited.
    /// The clock is the real one, as the daemon's.
    var environment: [String: String] {
        [
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": path("home"),
            "XDG_CONFIG_HOME": path("config"),
            "XDG_DATA_HOME": path("data"),
            "TRACKEE_STORE": storePath,
            "TRACKEE_CONFIG": settingsPath,
            "TZ": "Europe/Prague",
            "NO_COLOR": "1",
            "LANG": "C.UTF-8",
        ]
    }

    // MARK: the daemon

    /// Where the `n`th start of `trackee run` writes its stderr (from 1).
    func daemonLog(_ n: Int) -> String { path("io/daemon-\(n).err") }

    /// What the current daemon wrote to stderr so far.
    var daemonStderr: String {
        (try? String(contentsOfFile: daemonLog(launches), encoding: .utf8)) ?? ""
    }

    struct NotListening: Error, CustomStringConvertible {
        var stderr: String
        var description: String { "trackee run did not say it listens within 30 s; its stderr:\n\(stderr)" }
    }

    /// Starts `trackee run` and waits until it says it listens; learns the
    /// port when the settings let the daemon pick one.
    func startDaemon() async throws {
        let log = try launchDaemon()
        var heard: Int?
        _ = await eventually(within: 30, every: .milliseconds(5)) {
            heard = Self.listening(in: log)
            return heard != nil
        }
        try accept(heard)
    }

    /// The same, holding the thread while it waits: for a loop on a thread
    /// of its own that must restart the daemon at once.
    func startDaemonHolding() throws {
        let log = try launchDaemon()
        var heard: Int?
        _ = eventuallyHolding(within: 30, every: .milliseconds(2)) {
            heard = Self.listening(in: log)
            return heard != nil
        }
        try accept(heard)
    }

    /// Starts `trackee run` (which execs trackee-daemon, the same process);
    /// the file its stderr goes to.
    private func launchDaemon() throws -> String {
        launches += 1
        let log = daemonLog(launches)
        daemon = try launch(["run"], stderr: log)
        return log
    }

    /// The port of the daemon's "http: listening on" line, once written.
    private static func listening(in log: String) -> Int? {
        let said = "http: listening on http://127.0.0.1:"
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").first(where: { $0.contains(said) }),
              let range = line.range(of: said)
        else { return nil }
        return Int(line[range.upperBound...])
    }

    private func accept(_ heard: Int?) throws {
        guard let heard, port == 0 || heard == port else { throw NotListening(stderr: daemonStderr) }
        port = heard
    }

    /// Kills the daemon with SIGKILL and waits until it is gone, holding
    /// the thread.
    func killDaemonHolding() {
        guard let daemon else { return }
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
    }

    /// Stops the daemon with SIGTERM; its exit status.
    func stopDaemon() async -> Int32 {
        guard let daemon else { return -1 }
        kill(daemon.processIdentifier, SIGTERM)
        await daemon.ended()
        return daemon.terminationStatus
    }

    // MARK: other processes

    /// Runs one of the clients in Clients/ with Debian's python3 to its
    /// end, without holding a thread of the test pool while it runs; the
    /// token is in its environment as TRACKEE_TOKEN.
    func python(_ script: String, _ arguments: [String]) async throws -> Finished {
        try await startPython(script, arguments).finish()
    }

    /// The same, without waiting: for a client the test acts beside.
    func startPython(_ script: String, _ arguments: [String]) throws -> Running {
        let out = path("io/\(UUID().uuidString).out")
        let err = path("io/\(UUID().uuidString).err")
        let process = try launch(
            ["-B", Self.clients + "/" + script] + arguments, executable: "/usr/bin/python3", stdout: out, stderr: err,
            extra: ["TRACKEE_TOKEN": token])
        return Running(process: process, stdout: out, stderr: err)
    }

    /// What a finished process did.
    struct Finished: CustomStringConvertible {
        var status: Int32
        var stdout: Data
        var stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
        var description: String { "exit \(status)\nstdout: \(text.prefix(2000))\nstderr: \(stderr.prefix(4000))" }
    }

    /// A process started without waiting, its output going to files.
    struct Running {
        var process: Process
        var stdout: String
        var stderr: String

        func finish() async throws -> Finished {
            await process.ended()
            let out = try Data(contentsOf: URL(fileURLWithPath: stdout))
            let err = try String(contentsOfFile: stderr, encoding: .utf8)
            return Finished(status: process.terminationStatus, stdout: out, stderr: err)
        }
    }

    private func run(_ executable: String, _ arguments: [String], extra: [String: String] = [:]) throws -> Finished {
        let out = path("io/\(UUID().uuidString).out")
        let err = path("io/\(UUID().uuidString).err")
        let process = try launch(arguments, executable: executable, stdout: out, stderr: err, extra: extra)
        process.waitUntilExit()
        return Finished(
            status: process.terminationStatus, stdout: try Data(contentsOf: URL(fileURLWithPath: out)),
            stderr: try String(contentsOfFile: err, encoding: .utf8))
    }

    /// Starts a process with its output in files, so no pipe fills up.
    private func launch(_ arguments: [String], executable: String? = nil, stdout: String? = nil, stderr: String,
                        extra: [String: String] = [:]) throws -> Process {
        try startProgram(
            executable ?? binary, arguments, environment: environment.merging(extra) { $1 }, in: root,
            stdout: URL(fileURLWithPath: stdout ?? path("io/\(UUID().uuidString).out")),
            stderr: URL(fileURLWithPath: stderr))
    }

    // MARK: the store

    /// Rows of the store, read with SQLite directly.
    func rows(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.readonly = true
        let queue = try DatabaseQueue(path: storePath, configuration: config)
        defer { try? queue.close() }
        return try queue.read { try Row.fetchAll($0, sql: sql, arguments: arguments) }
    }

    /// The one integer a query answers.
    func count(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
        try rows(sql, arguments).first?[0] ?? -1
    }

    // MARK: set-up

    struct SetUpFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// A token with every scope, from `trackee tokens add`: its first line.
    private func addToken() throws -> String {
        let r = try run(binary, ["tokens", "add", "load"])
        let secret = r.text.split(separator: "\n").first.map(String.init) ?? ""
        guard r.status == 0, secret.hasPrefix("trk_") else {
            throw SetUpFailed(description: "trackee tokens add failed: \(r)")
        }
        return secret
    }

    /// A loopback port nothing listens on now, asked of the kernel (bind
    /// to port 0) through Python, so the daemon can listen on it again
    /// after each restart.
    private func freePort() throws -> Int {
        let r = try run("/usr/bin/python3", ["-c", """
            import socket
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            print(s.getsockname()[1])
            """])
        guard r.status == 0, let port = Int(r.text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw SetUpFailed(description: "no free port: \(r)")
        }
        return port
    }

    /// Where the Python clients are: next to this file.
    static let clients = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients").path
}
