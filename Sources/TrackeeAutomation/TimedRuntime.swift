import TrackeeCalendar
import TrackeeCore
import TrackeeRules
import TrackeeStore

/// A trigger kind whose occurrences can be listed ahead for any window:
/// schedules (`at:`) and calendar edges (`calendar:`). Each kind is one
/// file; ``Automation`` holds them as `[any TimedRuntime]`, so the window,
/// catch-up, watermark, `tick`, `simulate`, `rules next`, `rules check` and
/// the daemon's deadline are written once for all of them.
protocol TimedRuntime: Sendable {
    /// Every occurrence in `(after, through]`, each once, in any order.
    func occurrences(after: Instant, through: Instant, _ context: TimedContext) -> [TimedOccurrence]
    /// The earliest occurrence after `instant`, if the runtime can see one.
    /// By default the look-ahead of ``lookAhead(after:context:until:)``.
    func next(after instant: Instant, _ context: TimedContext) -> Instant?
    /// How far ahead the runtime is worth looking, in seconds: a calendar a
    /// year, a schedule a century.
    var horizon: Int64 { get }
    /// The runtime with only `trigger` of the rule at `ruleIndex`; nil when
    /// the runtime does not serve that trigger, or cannot (its calendar was
    /// not read).
    func only(ruleIndex: Int, trigger: any RuleTrigger) -> (any TimedRuntime)?
}

/// The runtime half of a timed trigger kind: its trigger type says which
/// runtime serves it, so ``Automation`` finds every kind's runtime without a
/// list of kinds.
protocol TimedTrigger: RuleTrigger {
    /// The runtime for every trigger of this kind in `rules` (enabled rules
    /// only), or nil when there is nothing to serve.
    static func runtime(_ triggers: [RuleTriggered<Self>], _ setup: RuntimeSetup) -> (any TimedRuntime)?
}

/// One trigger of one rule, with the rule's position in the rule set.
struct RuleTriggered<Trigger: Sendable>: Sendable {
    var ruleIndex: Int
    var rule: String
    var trigger: Trigger
}

/// What runtimes are built from besides the rules: the calendars read by
/// ``CalendarFiles``.
struct RuntimeSetup: Sendable {
    var calendars: [String: EventCalendar]
}

/// What a timed runtime may look at when it lists occurrences: the zone,
/// and the tracker's state (read-only) for kinds whose occurrences depend
/// on it.
struct TimedContext: Sendable {
    var zone: Zone
    var state: TrackerState
}

/// The store as runtimes see it: read-only. Empty where a command runs
/// without a store (`rules next` before any is made).
public struct TrackerState: Sendable {
    let store: Store?

    public init(_ store: Store?) {
        self.store = store
    }

    public static let empty = TrackerState(nil)

    /// The entry running now, if any.
    public func running() throws -> Entry? {
        try store?.running()
    }

    /// Entries that started in `(after, through]`, finished or not, oldest
    /// first.
    public func entries(startedAfter after: Instant, through: Instant) throws -> [Entry] {
        try store?.entries(startedAfter: after, through: through) ?? []
    }
}

extension TimedTrigger {
    /// This kind's runtime for `rules`, if any rule has a trigger of it.
    static func runtime(in rules: [Rule], _ setup: RuntimeSetup) -> (any TimedRuntime)? {
        let triggers = rules.enumerated().flatMap { index, rule in
            rule.enabled ? rule.triggers.compactMap { ($0 as? Self).map { RuleTriggered(ruleIndex: index, rule: rule.id, trigger: $0) } } : []
        }
        return triggers.isEmpty ? nil : runtime(triggers, setup)
    }
}

extension TimedRuntime {
    var horizon: Int64 { TimedLookAhead.year }

    func next(after instant: Instant, _ context: TimedContext) -> Instant? {
        TimedLookAhead.spans(upTo: horizon).lazy.compactMap { span in
            occurrences(after: instant, through: instant + span, context).map(\.event.time).min()
        }.first
    }
}

/// The look-ahead loop every timed runtime shares: a day, then a week, a
/// month, a year (and for runtimes that see further, ten and a hundred),
/// stopping at the first look that finds enough.
enum TimedLookAhead {
    static let year: Int64 = 366 * 86_400

    static func spans(upTo horizon: Int64) -> [Int64] {
        [86_400, 7 * 86_400, 31 * 86_400, year, 10 * year, 100 * year].filter { $0 <= horizon }
    }

    /// The first `count` occurrences after `instant` of `runtimes`, in time
    /// order (ties in rule order), among those `include` keeps, each
    /// rule's occurrence once.
    static func upcoming(_ runtimes: [any TimedRuntime], after instant: Instant, count: Int, _ context: TimedContext,
                         where include: (TriggerEvent) -> Bool) -> [TriggerEvent] {
        let horizon = runtimes.map(\.horizon).max() ?? 0
        var found: [TimedOccurrence] = []
        var looked = instant
        for span in spans(upTo: horizon) {
            let through = instant + span
            for runtime in runtimes where runtime.horizon >= span {
                found += runtime.occurrences(after: looked, through: through, context).filter { include($0.event) }
            }
            looked = through
            if distinct(found).count >= count { break }
        }
        return Array(distinct(ordered(found)).prefix(count)).map(\.event)
    }

    /// By time, ties in rule order, then in the order given.
    static func ordered(_ occurrences: [TimedOccurrence]) -> [TimedOccurrence] {
        occurrences.enumerated().sorted {
            ($0.element.event.time, $0.element.ruleIndex, $0.offset) < ($1.element.event.time, $1.element.ruleIndex, $1.offset)
        }.map(\.element)
    }

    /// Each rule's occurrence once, the first kept.
    private static func distinct(_ occurrences: [TimedOccurrence]) -> [TimedOccurrence] {
        var seen: Set<FiringKey> = []
        return occurrences.filter { seen.insert($0.event.firingKey(rule: $0.event.rule ?? "")).inserted }
    }
}

/// An occurrence of a timed trigger, with the position of its rule in the
/// rule set so ties sort in rule order.
struct TimedOccurrence: Sendable {
    var ruleIndex: Int
    var event: TriggerEvent
}
