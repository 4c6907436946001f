import Synchronization

/// Counts the store's changes as the server hears of them: inotify on the
/// store's files (any process's writes) and the API's own writes. What is
/// read from the store under one count stays true until the count moves,
/// so the status and the tokens are read once per change, not once per
/// request.
public final class StoreGeneration: Sendable {
    private let count = Atomic<UInt64>(0)

    public init() {}

    public var value: UInt64 { count.load(ordering: .acquiring) }

    /// The store changed (or may have).
    public func advance() {
        count.add(1, ordering: .releasing)
    }
}

/// One value read from the store, kept for as long as the generation it
/// was read under (and `second`, for values that depend on the clock).
final class GenerationCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var generation: UInt64
        var values: [Key: Value] = [:]
    }

    private let entry = Mutex(Entry(generation: .max))
    /// Beyond it the values are dropped (wrong tokens tried one after the other).
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    func value(_ key: Key, generation: UInt64) -> Value? {
        entry.withLock { $0.generation == generation ? $0.values[key] : nil }
    }

    /// Keeps `value`, read under `generation`; a value read under an older
    /// one is not kept.
    func keep(_ value: Value, for key: Key, generation: UInt64) {
        entry.withLock { entry in
            if entry.generation != generation {
                guard entry.generation == .max || generation > entry.generation else { return }
                entry = Entry(generation: generation)
            }
            if entry.values.count >= limit { entry.values.removeAll(keepingCapacity: true) }
            entry.values[key] = value
        }
    }
}
