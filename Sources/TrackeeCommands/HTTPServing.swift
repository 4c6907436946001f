import Glibc
import Logging
import ServiceLifecycle
import Synchronization
import TrackeeAPI
import TrackeeCore
import TrackeeDaemon
import TrackeeStore

/// The HTTP API's server, which only `trackee-daemon` links: SwiftNIO in
/// `trackee` would cost every one-shot command about 10 % more
/// instructions at start-up. `trackee-daemon` registers the server before
/// it parses the command line; `trackee run` in `trackee`, with `http:` in
/// the settings, execs `trackee-daemon` in its place.
public enum HTTPServing {
    /// What the server is made from.
    public final class Context: Sendable {
        public let settings: HTTPSettings
        public let store: Store
        public let zone: Zone
        /// `create_projects: always`.
        public let createsProjects: Bool
        public let weekStart: Weekday
        /// The settings' `currency:`, for reports.
        public let currency: String?
        public let core: DaemonCore
        public let version: String
        public let logger: Logger

        init(
            settings: HTTPSettings, store: Store, zone: Zone, createsProjects: Bool, weekStart: Weekday, currency: String?,
            core: DaemonCore, version: String, logger: Logger
        ) {
            self.currency = currency
            self.settings = settings
            self.store = store
            self.zone = zone
            self.createsProjects = createsProjects
            self.weekStart = weekStart
            self.core = core
            self.version = version
            self.logger = logger
        }
    }

    /// Makes the server's service.
    public typealias Make = @Sendable (Context) -> any Service

    private static let maker = Mutex<Make?>(nil)

    public static func register(_ make: @escaping Make) {
        maker.withLock { $0 = make }
    }

    static var registered: Make? { maker.withLock { $0 } }

    /// The executable that serves HTTP: `trackee-daemon` next to this one.
    static func daemonPath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let own = count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        let folder = own.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return (folder.isEmpty ? "." : folder) + "/trackee-daemon"
    }

    /// Replaces this process with `trackee-daemon` and the same arguments;
    /// returns only by throwing why it could not. `task` is what the
    /// daemon does that this executable cannot.
    static func execDaemon(for task: String = "serves the HTTP API (http: in the settings)") throws -> Never {
        let path = daemonPath()
        let arguments = [path] + CommandLine.arguments.dropFirst()
        var argv = arguments.map { strdup($0) }
        argv.append(nil)
        execv(path, &argv)
        let reason = String(cString: strerror(errno))
        throw CommandFailure(
            message: "\(path) \(task), and it cannot be run: \(reason); "
                + "install it next to trackee (make install does)",
            status: 1)
    }
}
