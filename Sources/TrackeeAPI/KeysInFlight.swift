import Synchronization

/// The idempotency keys whose requests are being answered in this
/// process, so a second request with the same key gets 409 instead of
/// waiting on the store for an answer it would then repeat.
final class KeysInFlight: Sendable {
    private let keys = Mutex<Set<String>>([])

    /// Claims `key`; false when another request holds it.
    func claim(_ key: String) -> Bool {
        keys.withLock { $0.insert(key).inserted }
    }

    /// Whether a request holds `key` now.
    func holds(_ key: String) -> Bool {
        keys.withLock { $0.contains(key) }
    }

    func release(_ key: String) {
        _ = keys.withLock { $0.remove(key) }
    }
}
