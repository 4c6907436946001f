/// The settings file's `http:` section: where the API listens and its
/// limits. The server is off unless the section is there.
public struct HTTPSettings: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 7777
    /// Listening beyond loopback, where the plain HTTP the server speaks
    /// crosses a network, which the user must ask for.
    public var insecurePlaintext = false
    public var maxConnections = 64
    /// Requests a minute per token.
    public var rateLimit = 600
    /// Seconds between the event stream's heartbeats.
    public var heartbeat = 15
    /// One log line per request (``APILog``).
    public var accessLog = false
    /// The reverse proxies whose `X-Forwarded-For` names the client, for
    /// the log and the limit of failed authentications (``ClientAddress``).
    public var trustedProxies: [String] = []
    /// How long a sign-in on the web page lasts, in days: its session
    /// (the store's `web_session` row) expires that long after it began.
    public var sessionDays = 30

    /// Failed authentications a minute from one address (an IPv6 /64),
    /// in bursts of as many; past them the address's requests get 429.
    public static let failedAuthenticationsPerMinute = 10
    /// Keys a rate limit holds at most (addresses, or tokens' names).
    public static let keysKept = 4096

    /// The longest body a request may have, in bytes.
    public static let maxBody = 65_536
    /// How long a request (head and body) may take to arrive, in seconds.
    public static let requestTimeout = 10

    public init() {}

    /// Whether `host` is a loopback address, where no one else listens in.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// `host:port`, `[v6]:port`, or `:port` (loopback); nil when it is none
    /// of these. Port 0 asks the system for a free port.
    public static func listenAddress(_ text: String) -> (host: String, port: Int)? {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            host = text[..<colon].isEmpty ? "127.0.0.1" : text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(" "), let port = Int(portText), (0...65535).contains(port) else { return nil }
        return (String(host), port)
    }
}
