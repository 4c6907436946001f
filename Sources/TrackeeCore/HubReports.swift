/// What one `hub sync` did for one timeline: this device's own, or the
/// copy of one another person shares.
public struct ReplicationReport: Encodable, Sendable, Equatable {
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
    public var shared: [ReplicationReport]?

    public init(device: String, number: Int64) {
        self.device = device
        self.number = number
    }

    enum CodingKeys: String, CodingKey {
        case device, number, pushed, pulled, applied, conflicts, cursor, warnings, person, level, shared
        case timersStopped = "timers_stopped"
    }
}

/// What `hub init` did to the hub's schema, and who owns what there.
public struct HubInitReport: Encodable, Sendable, Equatable {
    /// The migrations this run applied, in order.
    public var applied: [String]
    /// The last migration the hub now has.
    public var current: String
    /// The role that owns schema `trackee` and everything in it, which no
    /// one logs in as.
    public var owner: String
    /// The persons: the login roles that are members of `trackee_person`.
    public var persons: [String]

    public init(applied: [String], current: String, owner: String, persons: [String]) {
        self.applied = applied
        self.current = current
        self.owner = owner
        self.persons = persons
    }
}

/// What `hub limit` set: how many devices a person may register, and how
/// many they have.
public struct HubLimitReport: Encodable, Sendable, Equatable {
    public var person: String
    public var devices: Int
    public var registered: Int

    public init(person: String, devices: Int, registered: Int) {
        self.person = person
        self.devices = devices
        self.registered = registered
    }
}

/// What `hub check` found that lets a person past the database: each
/// finding names the object and what is wrong with it.
public struct HubCheckReport: Encodable, Sendable, Equatable {
    /// The role the check connected as.
    public var role: String
    public var findings: [HubFinding]

    public init(role: String, findings: [HubFinding]) {
        self.role = role
        self.findings = findings
    }

    enum CodingKeys: String, CodingKey {
        case role, findings, ok
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(role, forKey: .role)
        try c.encode(findings, forKey: .findings)
        try c.encode(findings.isEmpty, forKey: .ok)
    }
}

/// One thing `hub check` found: `table trackee.change`, `policy`,
/// `lacks policy change_read`.
public struct HubFinding: Encodable, Sendable, Equatable {
    /// What it is about: `schema trackee`, `table trackee.device`,
    /// `column trackee.device.store`, `function trackee.register`,
    /// `role bob`.
    public var object: String
    /// Which rule it breaks: `owner`, `member`, `public`, `grant`,
    /// `rls`, `policy`, `trigger`, `missing` or `role`.
    public var kind: String
    /// What is wrong, as the end of a sentence about `object`.
    public var problem: String

    public init(object: String, kind: String, problem: String) {
        self.object = object
        self.kind = kind
        self.problem = problem
    }
}
