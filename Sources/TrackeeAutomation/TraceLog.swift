import Synchronization
import TrackeeCore

/// Traces waiting to be written: the ones no firing carries into its own
/// transaction. A feed crosses many places no rule watches, and one
/// transaction per crossing would cost it more than the crossing itself.
final class TraceLog: Sendable {
    /// How many traces wait before a write when batching.
    static let batch = 1024

    private let pending = Mutex<[RuleTrace]>([])

    /// Adds `trace`; returns the batch to write when it is full.
    func add(_ trace: RuleTrace) -> [RuleTrace]? {
        pending.withLock { pending in
            pending.append(trace)
            guard pending.count >= Self.batch else { return nil }
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
    }

    /// Takes every waiting trace.
    func take() -> [RuleTrace] {
        pending.withLock { pending in
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
    }

    /// Puts back traces a failed write took, ahead of newer ones.
    func putBack(_ traces: [RuleTrace]) {
        pending.withLock { $0.insert(contentsOf: traces, at: 0) }
    }
}
