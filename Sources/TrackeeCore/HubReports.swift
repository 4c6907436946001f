/// What one `hub sync` did for one timeline: this device's own, or the
/// copy of one another person shares.
public struct HubSyncReport: Encodable, Sendable, Equatable {
    public var device: String
    public var number: Int64
    public var pushed = 0
    public var pulled = 0
    public var applied = 0
    public var conflicts = 0
    /// Timers the merge ended because another device's timer began after
    /// them.
    public var timersStopped = 0
    public var cursor: Int64 = 0
    public var warnings: [String] = []
    /// For a copy of another's timeline: whose, and what they allow.
    public var person: String?
    public var level: String?
    /// The copies of others' timelines, synced after this device's own.
    public var shared: [HubSyncReport]?

    public init(device: String, number: Int64) {
        self.device = device
        self.number = number
    }

    enum CodingKeys: String, CodingKey {
        case device, number, pushed, pulled, applied, conflicts, cursor, warnings, person, level, shared
        case timersStopped = "timers_stopped"
    }
}

/// What `hub init` did to the hub's schema.
public struct HubInitReport: Encodable, Sendable, Equatable {
    /// The migrations this run applied, in order.
    public var applied: [String]
    /// The last migration the hub now has.
    public var current: String

    public init(applied: [String], current: String) {
        self.applied = applied
        self.current = current
    }
}
