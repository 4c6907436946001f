/// Something that happened and may fire rules: a schedule elapsing, a focus
/// mode changing, a calendar event starting or ending, a place entered.
///
/// What happened is the ``payload``, one type per trigger kind; the event
/// adds only `time`, the occurrence's own instant (the scheduled elapse,
/// the moment the focus changed), never the moment it was noticed, so a
/// 09:00 rule noticed at 09:04 still starts its timer at 09:00.
///
/// ```swift
/// let e = TriggerEvent(.schedule(rule: "office-hours", expression: "Mon..Fri 09:00"),
///                      time: Instant(seconds: 1_763_625_600))
/// e.occurrence // "at:1763625600"
/// ```
public struct TriggerEvent: Sendable, Equatable {
    public var payload: any TriggerPayload
    public var time: Instant

    public init(_ payload: some TriggerPayload, time: Instant) {
        self.payload = payload
        self.time = time
    }

    /// The rule the event belongs to; nil for events any rule may take.
    public var rule: String? { payload.rule }

    /// Whether the occurrence was known ahead of its time, so how late it
    /// was handled means something.
    public var isTimed: Bool { payload.isTimed }

    /// The trigger kind as rule files and templates name it.
    public var kindName: String { payload.kindName }

    /// What identifies this occurrence within a rule; with the rule id it
    /// makes the firing key.
    public var occurrence: String { payload.occurrence(at: time) }

    /// The occurrence as an older release keyed it; nil where that form is
    /// the current one.
    public var formerOccurrence: String? { payload.formerOccurrence(at: time) }

    /// The values `{{trigger.NAME}}` templates and `TRACKEE_TRIGGER_NAME`
    /// variables give, besides `kind` and `time` which every event has.
    public func fields(zone: Zone) -> [String: String] { payload.fields(zone: zone) }

    /// The event in a few words for firing descriptions and logs.
    public var summary: String { payload.summary }

    public static func == (a: TriggerEvent, b: TriggerEvent) -> Bool {
        a.time == b.time && a.payload.isEqual(to: b.payload)
    }
}

/// `%` and `:` escaped, so the parts of an occurrence key stay apart.
func keyPart(_ text: String) -> String {
    guard text.contains(":") || text.contains("%") else { return text }
    return text.replacingAll("%", with: "%25").replacingAll(":", with: "%3A")
}

extension String {
    /// Every occurrence of `target` replaced, without Foundation.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}

/// Whether a focus mode is being switched on or off.
public enum FocusState: String, Sendable, Equatable, CaseIterable, Codable {
    case on, off
}

/// The current focus mode, as the store keeps it.
public struct Focus: Sendable, Equatable {
    /// The mode that is on; nil when none is.
    public var mode: String?
    /// The number of the last change; 0 before any.
    public var sequence: Int64
    /// When the last change happened.
    public var changed: Instant?

    public init(mode: String?, sequence: Int64, changed: Instant?) {
        self.mode = mode
        self.sequence = sequence
        self.changed = changed
    }
}

/// The timer as rule conditions see it.
public enum TimerState: Sendable, Equatable {
    case stopped
    case running(project: String?, client: String?)
}

/// What rule conditions may look at when an event is evaluated: the time
/// zone for `time:` and `weekdays:`, the current focus and timer, and when
/// each rule last fired (for `cooldown`). Built by whoever evaluates, so
/// the engine itself does no I/O.
public struct Snapshot: Sendable, Equatable {
    public var zone: Zone
    public var focus: String?
    public var timer: TimerState
    /// Rule id → instant of its last firing.
    public var lastFired: [String: Instant]
    /// The places the last fixes put inside; a place not here is outside
    /// or unknown.
    public var inside: Set<String>

    public init(zone: Zone, focus: String? = nil, timer: TimerState = .stopped, lastFired: [String: Instant] = [:],
                inside: Set<String> = []) {
        self.zone = zone
        self.focus = focus
        self.timer = timer
        self.lastFired = lastFired
        self.inside = inside
    }
}
