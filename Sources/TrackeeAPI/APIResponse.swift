/// What the server writes back: status, headers, body bytes.
public struct APIResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// Set, the answer goes on: after the head, the server sends the
    /// event stream (`GET /v1/events/stream`) of what the store records
    /// past this cursor, until the client or the daemon ends it.
    public var eventCursor: EventStream.Cursor?
    /// With ``eventCursor``: the stream also sends `changed` when the
    /// journal takes a step (``EventStream/changes(after:store:)``), for
    /// the web page, which shows edits and undos as well as the timer.
    public var streamsChanges = false

    public var streamsEvents: Bool { eventCursor != nil }

    public init(
        status: Int, headers: [(String, String)] = [], body: [UInt8] = [], eventCursor: EventStream.Cursor? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.eventCursor = eventCursor
    }

    /// The first value of header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.0.lowercased() == wanted }?.1
    }

    public static func == (a: APIResponse, b: APIResponse) -> Bool {
        a.status == b.status && a.body == b.body && a.eventCursor == b.eventCursor && a.streamsChanges == b.streamsChanges
            && a.headers.map { [$0.0, $0.1] } == b.headers.map { [$0.0, $0.1] }
    }

    /// A JSON answer.
    static func json(_ status: Int, _ body: [UInt8]) -> APIResponse {
        APIResponse(status: status, headers: [("Content-Type", "application/json")], body: body)
    }
}
