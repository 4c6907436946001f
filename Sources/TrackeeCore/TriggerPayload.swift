/// What one kind of trigger event carries: a schedule's elapse, a focus
/// edge, a calendar edge, a place transition. Each kind is one type that
/// conforms, in a file of its own; ``TriggerEvent`` holds any of them with
/// the time, and nothing else in the runtime needs to know the kinds.
public protocol TriggerPayload: Sendable, Equatable {
    /// The kind as rule files and templates name it: `schedule`, `focus`.
    var kindName: String { get }
    /// The rule the event was made for (a rule's own schedule or calendar
    /// edge); nil for events every rule may take (a focus change).
    var rule: String? { get }
    /// For events no rule owns: the engine's index key, which the rule
    /// side's trigger gives too (``TriggerIndex``), so only rules that wait
    /// for this kind of event are looked at.
    var indexKey: String { get }
    /// Whether the occurrence was known ahead of its time (a schedule
    /// elapse), so how late it was handled means something.
    var isTimed: Bool { get }
    /// What identifies the occurrence within a rule; with the rule id it
    /// makes the firing key. `time` is the event's.
    func occurrence(at time: Instant) -> String
    /// The occurrence as an older release keyed it, when that differs, so
    /// an upgrade fires nothing again.
    func formerOccurrence(at time: Instant) -> String?
    /// `{{trigger.FIELD}}` values besides `kind`, `time` and `rule`; times
    /// are ISO 8601 with their offset in `zone`.
    func fields(zone: Zone) -> [String: String]
    /// The event in a few words, for history, logs and traces.
    var summary: String { get }
    /// Whether the source made the event only because some rule asked for
    /// that form of it (a place crossing that has lasted a rule's `for:`),
    /// so it is never one "no rule waits for" (`rules why`).
    var isMadeForARule: Bool { get }
    /// What `rules next` shows of a timed occurrence besides its time and
    /// rule: JSON fields, then the text after the rule id.
    var upcomingFields: [String: String] { get }
    var upcomingText: String { get }
}

extension TriggerPayload {
    public var rule: String? { nil }
    public var indexKey: String { kindName }
    public var isTimed: Bool { false }
    public var isMadeForARule: Bool { false }
    public func formerOccurrence(at time: Instant) -> String? { nil }
    public var upcomingFields: [String: String] { [:] }
    public var upcomingText: String { summary }

    /// Whether `other` is the same kind with the same values.
    public func isEqual(to other: any TriggerPayload) -> Bool {
        (other as? Self) == self
    }
}
