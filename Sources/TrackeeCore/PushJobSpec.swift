/// What `trackee sync` hands `trackee-sync`, the separate executable that
/// talks to Clockify and Toggl Track: the settings' targets, already
/// checked, and the store. No token: `trackee-sync` reads it from the file
/// or variable the settings name, so it never passes through arguments.
public struct PushJobSpec: Codable, Sendable, Equatable {
    /// `push` (with progress and a summary), `drain` (quiet, for the
    /// daemon) or `check`.
    public var command: String
    public var store: String
    /// The time now when TRACKEE_NOW pins it (seconds since the epoch).
    public var now: Int64?
    public var json: Bool
    public var targets: [Target]

    public struct Target: Codable, Sendable, Equatable {
        public var name: String
        public var service: String
        public var workspace: String
        public var url: String?
        public var tokenFile: String?
        public var tokenEnv: String?
        public var projects: [String: String]
        public var createMissing: Bool
        /// The hourly request quota pushes keep under (`requests_per_hour:`,
        /// or the service's Free plan figure).
        public var requestsPerHour: Int
        /// `config.yaml:12`, where the target is written, for errors.
        public var origin: String

        public init(name: String, service: String, workspace: String, url: String?, tokenFile: String?, tokenEnv: String?,
                    projects: [String: String], createMissing: Bool, requestsPerHour: Int, origin: String) {
            self.name = name
            self.service = service
            self.workspace = workspace
            self.url = url
            self.tokenFile = tokenFile
            self.tokenEnv = tokenEnv
            self.projects = projects
            self.createMissing = createMissing
            self.requestsPerHour = requestsPerHour
            self.origin = origin
        }
    }

    public init(command: String, store: String, now: Int64?, json: Bool, targets: [Target]) {
        self.command = command
        self.store = store
        self.now = now
        self.json = json
        self.targets = targets
    }
}
