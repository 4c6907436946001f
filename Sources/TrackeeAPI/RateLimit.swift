import Synchronization
import TrackeeCore

/// A token bucket per device: `perMinute` requests a minute, in bursts of
/// up to as many. A phone replaying a day of OwnTracks positions after a
/// flight fits in a burst; a script in a loop is slowed, not cut off.
final class RateLimit: Sendable {
    let perMinute: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    struct Bucket {
        var tokens: Double
        var at: Double
    }

    init(perMinute: Int) {
        self.perMinute = perMinute
    }

    /// Takes one request of `device` at `now` (the wall clock's seconds;
    /// a clock set back refills nothing); the problem says when to retry.
    func admit(_ device: String, now: Double) throws(Problem) {
        let capacity = Double(perMinute)
        let perSecond = capacity / 60
        let wait: Int? = buckets.withLock { buckets in
            var bucket = buckets[device] ?? Bucket(tokens: capacity, at: now)
            bucket.tokens = min(capacity, bucket.tokens + max(0, now - bucket.at) * perSecond)
            bucket.at = max(bucket.at, now)
            defer { buckets[device] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up)))
        }
        if let wait { throw Problem.rateLimited(device: device, perMinute: perMinute, retryAfter: wait) }
    }
}
