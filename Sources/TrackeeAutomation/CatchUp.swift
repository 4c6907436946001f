import TrackeeCore
import TrackeeRules

/// Which schedule occurrences fire when they are noticed late: after the
/// daemon was down or the machine slept, or between two `trackee tick`
/// runs. Like systemd's `Persistent=`, with a limit.
///
/// - Noticed within a minute of its time, an occurrence is on time and
///   fires.
/// - Later than that but within `maxLate`, it was missed: `once` fires the
///   latest missed occurrence of the rule (one catch-up, not a burst);
///   `skip` fires none.
/// - Later than `maxLate`, it never fires.
///
/// Whatever fires keeps its own time: a 09:00 start noticed at 09:04
/// starts the entry at 09:00.
public struct CatchUp: Sendable, Equatable {
    public var policy: Catchup
    /// Seconds.
    public var maxLate: Int64

    /// How late an occurrence may be noticed and still count as on time.
    public static let grace: Int64 = 60

    public init(policy: Catchup = .once, maxLate: Int64 = 600) {
        self.policy = policy
        self.maxLate = maxLate
    }

    /// Why an occurrence did not fire.
    public enum Skip: Sendable, Equatable, CustomStringConvertible {
        /// Missed, and a later missed occurrence of the rule fires instead.
        case superseded
        /// Missed, and the rule says `catchup: skip`.
        case missed
        /// Noticed more than `max_late` after its time.
        case tooLate

        public var description: String {
            switch self {
            case .superseded: "missed; a later occurrence catches up instead"
            case .missed: "missed (catchup: skip)"
            case .tooLate: "noticed more than max_late after its time"
            }
        }

        /// The verdict a rule trace gives the skip.
        public var verdict: RuleTrace.Verdict {
            switch self {
            case .superseded: .superseded
            case .missed: .catchupSkip
            case .tooLate: .tooLate
            }
        }
    }

    /// Splits one rule's occurrences (any order) noticed at `now` into those
    /// that fire, in time order, and those that do not, with the reason.
    public func sort(_ times: [Instant], now: Instant) -> (fire: [Instant], skip: [(Instant, Skip)]) {
        let sorted = sort(times.map { ($0, $0) }, now: now)
        return (sorted.fire, sorted.skip)
    }

    /// ``sort(_:now:)`` for occurrences that carry more than their time
    /// (two calendar events may start at once). Ties keep their order; of
    /// missed occurrences at the latest time, `once` fires the last.
    public func sort<T>(_ items: [(time: Instant, item: T)], now: Instant) -> (fire: [T], skip: [(T, Skip)]) {
        var fire: [(Instant, T)] = []
        var skip: [(Instant, T, Skip)] = []
        var missed: [(Instant, T)] = []
        for (time, item) in items.enumerated().sorted(by: { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }).map(\.element) {
            let late = now - time
            if late > maxLate {
                skip.append((time, item, .tooLate))
            } else if late <= Self.grace {
                fire.append((time, item))
            } else {
                missed.append((time, item))
            }
        }
        switch policy {
        case .skip:
            skip += missed.map { ($0.0, $0.1, .missed) }
        case .once:
            if let last = missed.last {
                skip += missed.dropLast().map { ($0.0, $0.1, .superseded) }
                fire.insert(last, at: 0)
            }
        }
        return (fire.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1),
                skip.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map { ($0.element.1, $0.element.2) })
    }
}
