/// Why one rule fired on one event, or did not: the trigger, each condition
/// with what it looked at, and the intents with what became of them. An
/// event no rule waits for makes one trace with no rule, so `rules why` can
/// answer "nothing was listening" as well as "a condition was false".
///
///     RuleTrace(rule: "office-hours", occurred: nine, noticed: nine, trigger: "schedule Mon..Fri 09:00",
///               verdict: .conditionFalse,
///               conditions: [.init(condition: "time 10:00-17:00", input: "09:00", holds: false)])
public struct RuleTrace: Sendable, Equatable {
    /// The rule's id; nil for an event no rule waits for.
    public var rule: String?
    /// The event's own time.
    public var occurred: Instant
    /// When it was evaluated (later than `occurred` for a late schedule).
    public var noticed: Instant
    /// The event in a few words, as firing descriptions give it.
    public var trigger: String
    public var verdict: Verdict
    /// The rule's conditions in order, each with its inputs; empty when the
    /// rule has none or was not evaluated (a skipped occurrence).
    public var conditions: [ConditionStep]
    /// The firing key; nil when nothing fired.
    public var key: String?
    /// The firing's actions in order; empty when nothing fired.
    public var actions: [ActionStep]
    /// Said about the verdict in the user's words: the last firing a
    /// cooldown counts from, why intents were refused, how late a skipped
    /// occurrence was.
    public var detail: String?

    /// How many traces each rule keeps, and events no rule waits for keep,
    /// unless the settings say `traces: N`.
    public static let defaultKept = 20

    public init(rule: String?, occurred: Instant, noticed: Instant, trigger: String, verdict: Verdict,
                conditions: [ConditionStep] = [], key: String? = nil, actions: [ActionStep] = [], detail: String? = nil) {
        self.rule = rule
        self.occurred = occurred
        self.noticed = noticed
        self.trigger = trigger
        self.verdict = verdict
        self.conditions = conditions
        self.key = key
        self.actions = actions
        self.detail = detail
    }

    /// What became of the event for this rule.
    public enum Verdict: String, Sendable {
        /// Recorded now; its actions carry their outcomes.
        case fired
        /// The firing ledger already had the key: seen before.
        case alreadyFired = "already-fired"
        /// Recorded, but its intents were refused (a project that does not exist).
        case refused
        /// Recording failed; nothing was recorded.
        case failed
        /// A condition did not hold.
        case conditionFalse = "condition-false"
        /// Within the rule's cooldown after its last firing.
        case coolingDown = "cooling-down"
        /// A schedule or calendar occurrence noticed more than `max_late` after its time.
        case tooLate = "too-late"
        /// Missed, and a later missed occurrence of the rule caught up instead.
        case superseded
        /// Missed, and the rule says `catchup: skip`.
        case catchupSkip = "catchup-skip"
        /// No rule waits for this event.
        case noRule = "no-rule"

        /// One sentence for `rules why`.
        public var sentence: String {
            switch self {
            case .fired: "fired"
            case .alreadyFired: "not fired again: this occurrence had already fired"
            case .refused: "fired, but its intents were refused"
            case .failed: "not recorded: the store failed"
            case .conditionFalse: "not fired: a condition is false"
            case .coolingDown: "not fired: cooling down"
            case .tooLate: "not fired: noticed more than max_late after its time"
            case .superseded: "not fired: missed, and a later occurrence caught up instead"
            case .catchupSkip: "not fired: missed, and the rule says catchup: skip"
            case .noRule: "no rule waits for this event"
            }
        }
    }

    /// One condition as it was checked.
    public struct ConditionStep: Sendable, Equatable {
        /// The condition as the rule file says it: `time 09:00-17:00`, `focus deep`.
        public var condition: String
        /// What it looked at: `18:04`, `focus is none`, `inside [Home]`.
        public var input: String
        public var holds: Bool

        public init(condition: String, input: String, holds: Bool) {
            self.condition = condition
            self.input = input
            self.holds = holds
        }

        /// `time 09:00-17:00: 18:04 → false`.
        public var line: String { "\(condition): \(input) → \(holds)" }
    }

    /// One action of a firing and what became of it.
    public struct ActionStep: Sendable, Equatable {
        /// `start Office`, `stop`, `notify "Standup"`, `run backup.sh`.
        public var action: String
        /// The intent key; nil for `notify` and `run`, which are not intents.
        public var key: String?
        /// What applying it did (`started`, `unchanged`, …, `refused`);
        /// nil until the firing is recorded, and for `notify` and `run`.
        public var outcome: String?

        public init(action: String, key: String? = nil, outcome: String? = nil) {
            self.action = action
            self.key = key
            self.outcome = outcome
        }
    }
}
