/// What the server writes back: status, headers, body bytes.
public struct APIResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// The answer goes on: after the head, the server sends the event
    /// stream (`GET /v1/events/stream`) until the client or the daemon
    /// ends it.
    public var streamsEvents: Bool

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], streamsEvents: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.streamsEvents = streamsEvents
    }

    /// The first value of header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.0.lowercased() == wanted }?.1
    }

    public static func == (a: APIResponse, b: APIResponse) -> Bool {
        a.status == b.status && a.body == b.body && a.streamsEvents == b.streamsEvents && a.headers.map { [$0.0, $0.1] } == b.headers.map { [$0.0, $0.1] }
    }

    /// A JSON answer.
    static func json(_ status: Int, _ body: [UInt8]) -> APIResponse {
        APIResponse(status: status, headers: [("Content-Type", "application/json")], body: body)
    }
}
