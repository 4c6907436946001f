/// The settings file's `hub:` section: the PostgreSQL database that
/// several devices' stores replicate through, and this device's name in
/// it. Replication is off unless the section is there.
///
/// The password is never in the settings file: `password_file` names a
/// file only its owner can read, `password_env` an environment variable,
/// as the sync targets' tokens are; without either, libpq's own ways
/// apply (`~/.pgpass`, a Unix socket's peer authentication).
public struct HubSettings: Sendable, Equatable {
    public enum Password: Sendable, Equatable {
        case none
        case file(String)
        case environment(String)
    }

    /// libpq's `sslmode`.
    public enum SSLMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    /// A libpq connection URI: `postgresql://host:port/database`, or
    /// `postgresql:///database?host=/run/postgresql` for a Unix socket.
    public var url: String
    public var user: String?
    public var password: Password = .none
    public var sslmode: SSLMode = .prefer
    /// This device's name in the hub; the host name unless the settings
    /// give one.
    public var device: String
    /// The one device that pushes every entry to the sync: targets
    /// (Clockify, Toggl); nil: each device pushes the entries it made.
    public var syncDevice: String?
    /// Where the section is written (`config.yaml:12`), for errors found
    /// when the hub is reached.
    public var origin: String

    public init(url: String, user: String? = nil, password: Password = .none, sslmode: SSLMode = .prefer,
                device: String, origin: String) {
        self.url = url
        self.user = user
        self.password = password
        self.sslmode = sslmode
        self.device = device
        self.origin = origin
    }

    /// A device name: letters, digits, `.`, `-` and `_`, 1 to 64 of them,
    /// so it reads the same in every log and table.
    public static func isValidDevice(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2E
                    || c == 0x2D || c == 0x5F
            }
    }

    /// The URL without a password written into it.
    public static func shown(_ url: String) -> String {
        guard let slash = url.firstIndex(of: "/") else { return url }
        let start = url.index(slash, offsetBy: 2, limitedBy: url.endIndex) ?? url.endIndex
        let authority = url[start...].prefix { $0 != "/" && $0 != "?" }
        guard let at = authority.lastIndex(of: "@") else { return url }
        let credentials = url[start..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + String(url[at...])
    }

    /// Whether `text` is a connection URI libpq takes.
    public static func isConnectionURI(_ text: String) -> Bool {
        (text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")) && !text.contains(" ")
    }
}
