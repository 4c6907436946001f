/// A change made on this device, as it is appended to the hub's change
/// table.
public struct HubOutgoingChange: Sendable, Equatable {
    /// The journal row's number: unique per device, so a second push of
    /// it adds nothing.
    public var sequence: Int64
    public var clock: String
    /// `client`, `project` or `entry`.
    public var kind: String
    /// `{"id":…,"fields":{…}}`: the fields the change set, `_exists` 0
    /// for a delete and 1 for a creation.
    public var body: String

    public init(sequence: Int64, clock: String, kind: String, body: String) {
        self.sequence = sequence
        self.clock = clock
        self.kind = kind
        self.body = body
    }
}

/// A change another device made, as read from the hub.
public struct HubIncomingChange: Sendable, Equatable {
    /// Its number in the hub: the pull cursor.
    public var id: Int64
    public var device: String
    public var clock: String
    public var kind: String
    public var body: String

    public init(id: Int64, device: String, clock: String, kind: String, body: String) {
        self.id = id
        self.device = device
        self.clock = clock
        self.kind = kind
        self.body = body
    }
}
