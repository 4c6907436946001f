import Synchronization
import TrackeeCore

/// A token bucket per key: `perMinute` requests a minute, in bursts of up
/// to as many. Two limits use it: each token's requests (keyed by device),
/// where a phone replaying a day of OwnTracks positions after a flight
/// fits in a burst and a script in a loop is slowed, not cut off; and each
/// address's failed authentications (keyed by ``ClientAddress/key``).
///
/// At most `keeping` keys are held, so a burst from ever new addresses
/// cannot grow the table without bound: when a new key finds it full,
/// the buckets that have filled up again (which hold nothing a new bucket
/// would not) are dropped, and if that frees nothing, the quarter least
/// recently charged, a key then starting again with a full burst.
final class RateLimit: Sendable {
    let perMinute: Int
    let keeping: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    struct Bucket {
        var tokens: Double
        var at: Double
    }

    init(perMinute: Int, keeping: Int = HTTPSettings.keysKept) {
        self.perMinute = perMinute
        self.keeping = max(1, keeping)
    }

    /// Takes one request of `key` at `now` (the wall clock's seconds; a
    /// clock set back refills nothing): nil when it is admitted, else the
    /// seconds until it would be.
    func take(_ key: String, now: Double) -> Int? {
        buckets.withLock { buckets in
            if buckets[key] == nil && buckets.count >= keeping { prune(&buckets, now: now) }
            var bucket = refilled(buckets[key], now: now)
            defer { buckets[key] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return wait(bucket)
        }
    }

    /// Returns what ``take(_:now:)`` took from `key`. A bucket full again
    /// is dropped: it holds nothing a new one would not.
    func giveBack(_ key: String) {
        buckets.withLock { buckets in
            guard var bucket = buckets[key] else { return }
            bucket.tokens += 1
            buckets[key] = bucket.tokens >= Double(perMinute) ? nil : bucket
        }
    }

    /// What ``take(_:now:)`` would answer, taking nothing.
    func peek(_ key: String, now: Double) -> Int? {
        buckets.withLock { buckets in
            let bucket = refilled(buckets[key], now: now)
            return bucket.tokens >= 1 ? nil : wait(bucket)
        }
    }

    /// How many keys are held now.
    var count: Int { buckets.withLock { $0.count } }

    /// The tokens `seconds` bring back; multiplied before it is divided,
    /// so whole seconds give whole requests exactly.
    private func refill(_ seconds: Double) -> Double { max(0, seconds) * Double(perMinute) / 60 }

    private func refilled(_ bucket: Bucket?, now: Double) -> Bucket {
        let capacity = Double(perMinute)
        var bucket = bucket ?? Bucket(tokens: capacity, at: now)
        bucket.tokens = min(capacity, bucket.tokens + refill(now - bucket.at))
        bucket.at = max(bucket.at, now)
        return bucket
    }

    private func wait(_ bucket: Bucket) -> Int {
        // Less a nanosecond, so a float's last bit does not add a second.
        max(1, Int(((1 - bucket.tokens) * 60 / Double(perMinute) - 1e-9).rounded(.up)))
    }

    /// Makes room for one more key: see the type's comment.
    private func prune(_ buckets: inout [String: Bucket], now: Double) {
        let capacity = Double(perMinute)
        buckets = buckets.filter { $0.value.tokens + refill(now - $0.value.at) < capacity }
        guard buckets.count >= keeping else { return }
        let oldest = buckets.sorted { ($0.value.at, $0.key) < ($1.value.at, $1.key) }.prefix(max(1, buckets.count / 4))
        for (key, _) in oldest { buckets[key] = nil }
    }
}
