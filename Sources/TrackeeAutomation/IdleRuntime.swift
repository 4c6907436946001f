import TrackeeCore
import TrackeeRules

/// Idle triggers' runtime: the idle period a desk watch reported, and the
/// lengths of idleness the rules wait for (`idle: {for: D}`).
///
/// A watch reports when idleness began (`.idle(since:)`), often late (a
/// Mutter watch fires after its interval); each length is reached at
/// `since + D`, at once if that has passed, else at a deadline the daemon
/// sleeps until. Every event is keyed by `since`, so a watch that reports
/// the same period again, or a restart inside it, fires nothing twice.
///
/// ```swift
/// var idle = IdleRuntime(thresholds: [600])
/// idle.take(.idle(since: t0), at: t0 + 60)  // [] ; nextDeadline == t0 + 600
/// idle.due(now: t0 + 600)                   // [idle 10m since t0, at t0 + 600]
/// idle.take(.active(since: nil), at: t0 + 700)  // [active after 11m idle, at t0 + 700]
/// ```
public struct IdleRuntime: Sendable, Equatable {
    /// The `for:` lengths, in seconds, shortest first.
    public private(set) var thresholds: [Int64]
    /// The `after:` lengths of `idle: {ended: true, after: D}`.
    public private(set) var afters: [Int64]
    /// When the idle period under way began; nil while the user is active.
    public private(set) var since: Instant?
    /// The lengths of the period under way not reached yet, shortest first.
    private var pending: [Int64] = []

    public init(thresholds: [Int64] = [], afters: [Int64] = []) {
        self.thresholds = Array(Set(thresholds.filter { $0 > 0 })).sorted()
        self.afters = Array(Set(afters.filter { $0 > 0 })).sorted()
    }

    /// The lengths the enabled rules of `automation` wait for.
    public init(_ automation: Automation) {
        var thresholds: [Int64] = []
        var afters: [Int64] = []
        for rule in automation.ruleSet.rules where rule.enabled {
            for case let trigger as IdleTrigger in rule.triggers {
                switch trigger.edge {
                case .reached(let seconds): thresholds.append(seconds)
                case .ended(let after): if let after { afters.append(after) }
                }
            }
        }
        self.init(thresholds: thresholds, afters: afters)
    }

    /// The shortest length any idle rule names (`for` or `after`): how soon
    /// a watch must report idleness for every rule to see it.
    public var shortestThreshold: Int64? { (thresholds + afters).min() }

    /// When the next length of the period under way is reached.
    public var nextDeadline: Instant? {
        guard let since, let first = pending.first else { return nil }
        return since + first
    }

    /// The same period under rules that changed: lengths already passed
    /// are reached again at the next ``due(now:)``, and their keys turn
    /// away those that fired before.
    public func with(_ rules: IdleRuntime) -> IdleRuntime {
        var copy = rules
        copy.since = since
        copy.pending = since == nil ? [] : copy.thresholds
        return copy
    }

    /// What a desk watch reported at `time`: `.idle` starts a period (the
    /// same `since` again changes nothing) and returns the lengths already
    /// reached; `.active` ends it with one ended event, dropping lengths not
    /// reached.
    public mutating func take(_ report: IdleReport, at time: Instant) -> [TriggerEvent] {
        switch report {
        case .idle(let began):
            guard began != since else { return due(now: time) }
            since = began
            pending = thresholds
            return due(now: time)
        case .active(let began):
            defer {
                since = nil
                pending = []
            }
            guard let start = began ?? since, start <= time else { return [] }
            return [TriggerEvent(.idleEnded(since: start, duration: time - start), time: time)]
        }
    }

    /// The lengths of the period under way reached by `now`, in order,
    /// each at its own time (`since + D`).
    public mutating func due(now: Instant) -> [TriggerEvent] {
        guard let since else { return [] }
        let reached = pending.prefix { since + $0 <= now }
        pending.removeFirst(reached.count)
        return reached.map { TriggerEvent(.idleReached(since: since, threshold: $0), time: since + $0) }
    }
}
