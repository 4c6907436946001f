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

    /// The first value of query parameter `name`.
    public func query(_ name: String) -> String? {
        query.first { $0.0 == name }?.1
    }
}
