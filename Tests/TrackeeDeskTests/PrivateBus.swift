import Foundation
import TrackeeDesk

/// A private `dbus-daemon` listening in a temporary directory, and the
/// python-dbusmock mocks started on it; `stop()` ends them all and removes
/// the directory.
final class PrivateBus {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Debian's python, which has `python3-dbusmock`; the `python3` on the
    /// PATH may be another one.
    static let python = "/usr/bin/python3"
    static let daemon = "/usr/bin/dbus-daemon"

    /// Why these tests cannot run here, printed once; nil when they can.
    static let unavailable: String? = {
        let reason: String?
        if !FileManager.default.isExecutableFile(atPath: daemon) {
            reason = "\(daemon) is missing (Debian package dbus-daemon)"
        } else if !FileManager.default.isExecutableFile(atPath: python) {
            reason = "\(python) is missing"
        } else {
            let check = Process()
            check.executableURL = URL(fileURLWithPath: python)
            check.arguments = ["-c", "import dbusmock"]
            check.standardError = FileHandle.nullDevice
            let status: Int32? = (try? check.run()).map { check.waitUntilExit(); return check.terminationStatus }
            reason = status == 0 ? nil : "\(python) cannot import dbusmock (Debian package python3-dbusmock)"
        }
        if let reason { print("TrackeeDeskTests skipped: \(reason); run scripts/install-deps.sh or make test") }
        return reason
    }()

    let directory: URL
    /// The bus address, as `dbus-daemon --print-address` printed it.
    let address: String
    /// The address without the daemon's GUID, as a user's environment
    /// names a bus: it still reaches a new daemon started by ``restart()``.
    var socketAddress: String { "unix:path=\(directory.path)/bus" }
    private var daemon: Process
    var mocks: [Process] = []

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackee-dbus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let daemon = Process()
        self.daemon = daemon
        do {
            address = try Self.launch(daemon, in: directory)
        } catch {
            if daemon.isRunning {
                Foundation.kill(daemon.processIdentifier, SIGKILL)
                daemon.waitUntilExit()
            }
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// The private bus's configuration, shared with the python tests and
    /// the benchmarks: a session bus of its own, on a socket the caller
    /// names with `--address`.
    static let configuration = fixtures.deletingLastPathComponent().appendingPathComponent("private-bus.conf")

    /// Starts `daemon` on a socket in `directory`, so nothing is left in
    /// /tmp and no other bus is touched, and returns the address it printed.
    private static func launch(_ daemon: Process, in directory: URL) throws -> String {
        daemon.executableURL = URL(fileURLWithPath: Self.daemon)
        daemon.arguments = ["--config-file=\(configuration.path)", "--address=unix:path=\(directory.path)/bus",
                            "--print-address", "--nofork"]
        let output = Pipe()
        daemon.standardOutput = output
        // Its warning that it cannot raise its file limit here is noise.
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed.append(chunk)
        }
        let line = String(decoding: printed, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        if line.isEmpty { throw Failure(description: "dbus-daemon printed no address") }
        return line
    }

    /// Kills the daemon and its mocks, as a logout or a restart of the bus
    /// would, and starts a new daemon on the same socket path.
    func restart() throws {
        halt()
        try resume()
    }

    /// Kills the daemon and its mocks: the bus is gone until ``resume()``.
    func halt() {
        kill(mocks + [daemon])
        mocks = []
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("bus"))
    }

    /// Starts a new daemon on the socket path of the one ``halt()`` killed.
    func resume() throws {
        daemon = Process()
        _ = try Self.launch(daemon, in: directory)
    }

    /// Starts `python3 -m dbusmock` owning `name` with one object at `path`,
    /// and waits (up to 10 s) until it owns the name.
    func startMock(name: String, path: String, interface: String, on connection: DBusConnection) throws {
        let mock = Process()
        mock.executableURL = URL(fileURLWithPath: Self.python)
        mock.arguments = ["-m", "dbusmock", "--session", name, path, interface]
        mock.environment = ["DBUS_SESSION_BUS_ADDRESS": socketAddress, "PATH": "/usr/bin:/bin"]
        mock.standardOutput = FileHandle.nullDevice
        mock.standardError = FileHandle.nullDevice
        try mock.run()
        mocks.append(mock)
        try waitForOwner(name, of: mock, on: connection, until: Date().addingTimeInterval(10))
    }

    /// Tests/Fixtures/dbusmock, where the templates of trackee's own mocks
    /// and the fuzzer live. #filePath is <root>/Tests/TrackeeDeskTests/this file.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dbusmock")

    /// Starts python-dbusmock with `template` (one Debian's dbusmock ships,
    /// such as `logind`, or a file of ``fixtures``) and its JSON
    /// `parameters`, on this bus as both the session and the system bus,
    /// and waits (up to 10 s) until it owns `name`. Its methods answer once
    /// it has loaded: the mock handles no call before.
    @discardableResult
    func startTemplate(_ template: String, name: String, parameters: String = "{}",
                       on connection: DBusConnection) throws -> Process {
        let mock = try launchTemplate(template, parameters: parameters)
        try waitForOwner(name, of: mock, on: connection, until: Date().addingTimeInterval(10))
        return mock
    }

    /// Starts the mock of ``startTemplate(_:name:parameters:on:)`` without
    /// waiting, so that several can load at once.
    func launchTemplate(_ template: String, parameters: String = "{}") throws -> Process {
        let file = Self.fixtures.appendingPathComponent(template + ".py")
        let mock = Process()
        mock.executableURL = URL(fileURLWithPath: Self.python)
        mock.arguments = [
            "-m", "dbusmock", "--template", FileManager.default.fileExists(atPath: file.path) ? file.path : template,
            "--parameters", parameters,
        ]
        // No __pycache__ beside the templates in the source tree.
        mock.environment = ["DBUS_SESSION_BUS_ADDRESS": socketAddress, "DBUS_SYSTEM_BUS_ADDRESS": socketAddress,
                            "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"]
        mock.standardOutput = FileHandle.nullDevice
        mock.standardError = FileHandle.nullDevice
        try mock.run()
        mocks.append(mock)
        return mock
    }

    /// Waits until `name` has an owner on the bus; throws when `mock` exits
    /// first or `deadline` passes.
    func waitForOwner(_ name: String, of mock: Process, on connection: DBusConnection, until deadline: Date) throws {
        while try connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameHasOwner", arguments: [.string(name)]) != [.bool(true)]
        {
            if !mock.isRunning { throw Failure(description: "the mock for \(name) exited with \(mock.terminationStatus)") }
            if Date() > deadline { throw Failure(description: "no mock owned \(name) in time") }
            usleep(20_000)
        }
    }

    /// Kills the mocks and the daemon: they inherit the test process's
    /// signal mask, which blocks SIGTERM, so `terminate()` would not end them.
    func stop() {
        kill(mocks + [daemon])
        mocks = []
        try? FileManager.default.removeItem(at: directory)
    }

    /// Kills `mock` alone, as a service that stops would leave the bus.
    func stop(_ mock: Process) {
        kill([mock])
        mocks.removeAll { $0 === mock }
    }

    private func kill(_ processes: [Process]) {
        for process in processes where process.isRunning {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
