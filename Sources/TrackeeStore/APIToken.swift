import TrackeeCore

/// A device's token for the HTTP API, as `trackee tokens list` shows it:
/// never the secret, which the store does not have.
public struct APIToken: Sendable, Equatable {
    /// The device's name, chosen at `tokens add` (`phone`, `home-assistant`).
    public var name: String
    /// What the token may do, in ``TokenScope``'s order.
    public var scopes: [TokenScope]
    public var created: Instant
    /// The last request it authenticated, to the minute; nil before any.
    public var lastUsed: Instant?
    /// When it was revoked; a revoked token authenticates nothing.
    public var revoked: Instant?

    public init(name: String, scopes: [TokenScope], created: Instant, lastUsed: Instant? = nil, revoked: Instant? = nil) {
        self.name = name
        self.scopes = scopes
        self.created = created
        self.lastUsed = lastUsed
        self.revoked = revoked
    }

    /// Whether `name` can name a token: 1 to 64 of `A-Z a-z 0-9 . _ -`, so
    /// it is one word in a shell, a log line and a URL.
    public static func isValidName(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard (1...64).contains(utf8.count) else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }
    }
}
