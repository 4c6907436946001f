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
    }

    /// Splits one rule's occurrences (any order) noticed at `now` into those
    /// that fire, in time order, and those that do not, with the reason.
    public func sort(_ times: [Instant], now: Instant) -> (fire: [Instant], skip: [(Instant, Skip)]) {
        var fire: [Instant] = []
        var skip: [(Instant, Skip)] = []
        var missed: [Instant] = []
        for time in times.sorted() {
            let late = now - time
            if late > maxLate {
                skip.append((time, .tooLate))
            } else if late <= Self.grace {
                fire.append(time)
            } else {
                missed.append(time)
            }
        }
        switch policy {
        case .skip:
            skip += missed.map { ($0, .missed) }
        case .once:
            if let last = missed.last {
                skip += missed.dropLast().map { ($0, .superseded) }
                fire.append(last)
            }
        }
        return (fire.sorted(), skip.sorted { $0.0 < $1.0 })
    }
}
