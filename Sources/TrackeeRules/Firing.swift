import TrackeeCore

/// A rule firing on one event: what to record and what to do, with every
/// template already filled.
///
///     Firing(key: FiringKey(rule: "office-hours", occurrence: "at:1795420800"),
///            time: Instant(seconds: 1_795_420_800), trigger: "schedule Mon..Fri 09:00",
///            description: "rule \"office-hours\" (Office hours): schedule Mon..Fri 09:00 at 2026-11-23T09:00:00+01:00",
///            actions: [.intent(Intent(.start(TimerParameters(project: "Office")), at: …,
///                                     source: .rule("office-hours"), key: "office-hours@at:1795420800#0"))])
public struct Firing: Sendable, Equatable {
    /// The rule and the occurrence: the same rule on the same occurrence
    /// always makes the same key, which the store's firing ledger keeps
    /// unique.
    public var key: FiringKey
    /// The key the same firing had in an older release, which the ledger
    /// also honours for firings it recorded then; nil where none differs.
    public var formerKey: FiringKey?
    /// The event's own time, which is also when the intents take effect.
    public var time: Instant
    /// What fired the rule, in a few words: `schedule Mon..Fri 09:00`,
    /// `focus deep on`. History shows it beside the firing's intents.
    public var trigger: String
    /// One line for logs and the firing ledger.
    public var description: String
    /// In the rule's order.
    public var actions: [Action]
    /// Why the firing's actions cannot be carried out (a stop time that
    /// is not a time); the firing is recorded, nothing is applied.
    public var refusal: String?

    public init(
        key: FiringKey, formerKey: FiringKey? = nil, time: Instant, trigger: String, description: String,
        actions: [Action]
    ) {
        self.key = key
        self.formerKey = formerKey
        self.time = time
        self.trigger = trigger
        self.description = description
        self.actions = actions
    }

    /// The rule's id.
    public var rule: String { key.rule }

    /// The intents among ``actions``, in order: what the store applies.
    public var intents: [Intent] {
        actions.compactMap { if case .intent(let intent) = $0 { intent } else { nil } }
    }

    /// One resolved action.
    public enum Action: Sendable, Equatable {
        /// Apply to the store; keyed by ``FiringKey/intentKey(_:)``.
        case intent(Intent)
        case notify(title: String, body: String?)
        /// Exec `argv` (no shell) with `environment` added: `TRACKEE_RULE`,
        /// `TRACKEE_RULE_NAME` (when the rule has a name),
        /// `TRACKEE_TRIGGER_KIND`, `TRACKEE_TRIGGER_TIME`, and
        /// `TRACKEE_TRIGGER_<FIELD>` for each of the event's fields.
        case run(argv: [String], environment: [String: String])
    }
}
