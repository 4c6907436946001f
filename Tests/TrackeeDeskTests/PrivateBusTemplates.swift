import Foundation
import TrackeeDesk

extension PrivateBus {
    /// Tests/Fixtures/dbusmock, where the templates of trackee's own mocks
    /// and the fuzzer live. #filePath is <root>/Tests/TrackeeDeskTests/this file.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dbusmock")

    /// Starts `python3 -m dbusmock` with `template` (a name Debian's dbusmock
    /// ships, such as `networkmanager`, or a file of `fixtures`), on this
    /// bus whatever bus the template asks for, and waits (up to 10 s) until
    /// it owns `name`.
    func startTemplate(_ template: String, owning name: String, on connection: DBusConnection) throws {
        let file = Self.fixtures.appendingPathComponent(template + ".py")
        let mock = Process()
        mock.executableURL = URL(fileURLWithPath: Self.python)
        mock.arguments = [
            "-m", "dbusmock", "--session", "--template",
            FileManager.default.fileExists(atPath: file.path) ? file.path : template,
        ]
        // No __pycache__ beside the templates in the source tree.
        mock.environment = ["DBUS_SESSION_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"]
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
            if !mock.isRunning { throw Failure(description: "dbusmock \(template) exited with \(mock.terminationStatus)") }
            usleep(20_000)
        }
        throw Failure(description: "dbusmock \(template) did not own \(name) within 10 s")
    }
}
