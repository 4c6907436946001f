import Foundation
import TrackeeCore

/// A parsed HTTP request, as the server hands it to ``API/answer(_:)``.
public struct APIRequest: Sendable {
    public var method: String
    /// The path without the query: `/v1/entries`.
    public var path: String
    public var query: [(String, String)]
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// The connection's peer address (`127.0.0.1`, `::1`), as the server
    /// got it from the socket; nil when there is none. See
    /// ``ClientAddress``.
    public var peer: String?
    /// When the request had arrived whole, on ``APILog``'s clock: the
    /// access log's time runs from here. Nil: from when the API took it.
    public var arrived: UInt64?

    public init(
        method: String, path: String, query: [(String, String)] = [], headers: [(String, String)] = [],
        body: [UInt8] = [], peer: String? = nil, arrived: UInt64? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.peer = peer
        self.arrived = arrived
    }

    /// The first value of header `name`; names compare case-insensitively,
    /// as HTTP says.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.0.lowercased() == wanted }?.1
    }

    /// The last element of header `name` read as a list, its lines joined
    /// in order (RFC 9110, 5.3), without white space around it: what the
    /// nearest proxy wrote in `X-Forwarded-For` or `X-Forwarded-Proto`;
    /// nil without the header.
    public func lastListElement(_ name: String) -> String? {
        let wanted = name.lowercased()
        let lines = headers.filter { $0.0.lowercased() == wanted }.map(\.1)
        guard !lines.isEmpty else { return nil }
        return String(lines.joined(separator: ",").split(separator: ",").last ?? "").trimmingWhitespace()
    }

    /// The first value of query parameter `name`.
    public func query(_ name: String) -> String? {
        query.first { $0.0 == name }?.1
    }
}

/// `application/x-www-form-urlencoded`, as a query and a browser's form
/// write it: `name=value` pairs joined by `&`, where `+` is a space and
/// `%XX` a byte of UTF-8.
public enum URLEncoded {
    /// The pairs of `text`, not yet decoded; a pair without `=` has an
    /// empty value.
    public static func pairs(_ text: Substring) -> [(name: Substring, value: Substring)] {
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }

    /// `text` decoded; nil when its `%` escapes are not UTF-8.
    public static func decoded(_ text: Substring) -> String? {
        plus(text).removingPercentEncoding
    }

    /// `text` with each `+` a space, its escapes left as they are.
    public static func plus(_ text: Substring) -> String {
        text.replacingOccurrences(of: "+", with: " ")
    }
}
