import Synchronization
import TrackeeCore

/// Devices as a desk watch: the kernel's uevent socket, opened when the
/// desk starts (so a sandbox that refuses netlink makes the start line say
/// `devices` is absent, and nothing else), read by a ``DeviceMonitor``.
public final class DeviceWatch: DeskThreadWatch {
    public let name = "udev"
    public let reports = "devices"
    private let open: @Sendable () throws(DeviceMonitorFailure) -> DeviceMonitor
    private let log: DeskLog
    private let monitor = Mutex<DeviceMonitor?>(nil)

    /// The kernel's socket, or whatever `open` gives (tests pass a socket pair).
    public init(log: @escaping DeskLog,
                open: @escaping @Sendable () throws(DeviceMonitorFailure) -> DeviceMonitor = { () throws(DeviceMonitorFailure) in
                    try DeviceMonitor.kernel()
                }) {
        self.open = open
        self.log = log
    }

    public func start(yield: @escaping @Sendable (DeskChange) -> Void) throws {
        let opened = try open()
        let log = log
        try opened.start(yield: yield, ended: { log(.warning, "devices: \($0); device triggers are off until trackee run restarts") })
        monitor.withLock { $0 = opened }
    }

    public func stop() {
        monitor.withLock { held -> DeviceMonitor? in
            defer { held = nil }
            return held
        }?.stop()
    }
}
