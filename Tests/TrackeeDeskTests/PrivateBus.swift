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
    private let daemon: Process
    var mocks: [Process] = []

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackee-dbus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("bus.conf")
        // A session bus of its own, on a socket inside the directory, so
        // nothing is left in /tmp and no other bus is touched.
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(directory.path)/bus</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.write(to: config, atomically: true, encoding: .utf8)
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: Self.daemon)
        daemon.arguments = ["--config-file=\(config.path)", "--print-address", "--nofork"]
        let output = Pipe()
        daemon.standardOutput = output
        // Its warning that it cannot raise its file limit here is noise.
        daemon.standardError = FileHandle.nullDevice
        do {
            try daemon.run()
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed.append(chunk)
        }
        let line = String(decoding: printed, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        address = line
        if line.isEmpty {
            stop()
            throw Failure(description: "dbus-daemon printed no address")
        }
    }

    /// Starts `python3 -m dbusmock` owning `name` with one object at `path`,
    /// and waits (up to 10 s) until it owns the name.
    func startMock(name: String, path: String, interface: String, on connection: DBusConnection) throws {
        let mock = Process()
        mock.executableURL = URL(fileURLWithPath: Self.python)
        mock.arguments = ["-m", "dbusmock", "--session", name, path, interface]
        mock.environment = ["DBUS_SESSION_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"]
        mock.standardOutput = FileHandle.nullDevice
        mock.standardError = FileHandle.nullDevice
        try mock.run()
        mocks.append(mock)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let owned = try connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "NameHasOwner", arguments: [.string(name)])
            if owned == [.bool(true)] { return }
            if !mock.isRunning { throw Failure(description: "dbusmock exited with \(mock.terminationStatus)") }
            usleep(20_000)
        }
        throw Failure(description: "dbusmock did not own \(name) within 10 s")
    }

    /// Kills the mocks and the daemon: they inherit the test process's
    /// signal mask, which blocks SIGTERM, so `terminate()` would not end them.
    func stop() {
        for process in mocks + [daemon] where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        mocks = []
        try? FileManager.default.removeItem(at: directory)
    }
}
