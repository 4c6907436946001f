import TrackeeCore
import TrackeeStore

/// A service's hourly request quota, kept on trackee's side: every request
/// is counted before it goes out, over a sliding hour, and none goes out
/// that the quota does not allow.
///
/// Toggl Track counts two quotas per user: requests about a workspace
/// (Free 30 an hour, Starter 240, Premium 600) and requests to the
/// user-specific `/me` endpoints (30 an hour on every plan); each request
/// counts against one. Clockify counts one per workspace. The service's own
/// word (Toggl's `X-Toggl-Quota-Remaining` and `X-Toggl-Quota-Resets-In`)
/// is heard after each answer: when it says nothing is left, nothing more
/// goes out until it resets, whatever trackee counted (another program may
/// use the same quota).
///
/// The requests of the last hour are kept in the store
/// (``Store/quotaRequests(target:since:)``), so that one `trackee-sync` run
/// knows what the previous ones sent. With a ``QuotaLedger`` each request
/// is written there as it is counted, before it goes out: a run killed
/// midway loses none, and `trackee sync status` sees them while a push is
/// under way.
///
/// ```swift
/// let quota = RequestQuota(service: "Toggl Track", limits: [.workspace: 30, .user: 30], clock: SystemClock.now,
///                          ledger: QuotaLedger(store: store, target: "work"))
/// try quota.take(.workspace)   // throws .quota(…) when the hour is used up
/// ```
public final class RequestQuota {
    public typealias Scope = QuotaScope

    /// How error texts and `sync status` name the service.
    public let service: String
    /// Requests an hour, per scope; a scope not listed is not counted.
    public let limits: [Scope: Int]
    let clock: () -> Instant
    /// Per scope, the seconds requests went out at and how many, oldest first.
    private var sent: [Scope: [(at: Int64, count: Int)]] = [:]
    /// Per scope, the sum of `sent`'s counts.
    private var total: [Scope: Int] = [:]
    /// Per scope, what the service last said: requests left, until when.
    private var told: [Scope: (left: Int, resets: Instant)] = [:]
    /// Where each request is kept as it is counted; nil: only at
    /// ``keep(in:target:)``.
    public let ledger: QuotaLedger?

    public static let hour: Int64 = 3600

    public init(service: String, limits: [Scope: Int], clock: @escaping () -> Instant, sent: [QuotaRequests] = [],
                ledger: QuotaLedger? = nil) {
        self.service = service
        self.limits = limits
        self.clock = clock
        self.ledger = ledger
        for r in sent.sorted(by: { $0.at < $1.at }) where limits[r.scope] != nil {
            note(r.scope, at: r.at.seconds, count: r.count)
        }
    }

    private func note(_ scope: Scope, at: Int64, count: Int) {
        total[scope, default: 0] += count
        if let last = sent[scope]?.last, last.at == at {
            sent[scope]![sent[scope]!.count - 1].count += count
        } else {
            sent[scope, default: []].append((at, count))
        }
    }

    /// Counts one request of `scope` as sent now (in the ledger first, if
    /// there is one), or throws `.quota` with the instant the quota allows
    /// the next one. A count the ledger cannot keep sends nothing: the
    /// store's failure is `.transient`.
    public func take(_ scope: Scope) throws(ServiceFailure) {
        guard let limit = limits[scope] else { return }
        let now = clock()
        if let word = told[scope], word.resets > now, word.left <= 0 {
            throw .quota(QuotaWait(service: service, until: word.resets, left: 0, limit: limit))
        }
        let used = prune(scope, now)
        if used >= limit {
            throw .quota(QuotaWait(service: service, until: freeAt(scope, limit: limit, now: now), left: 0, limit: limit))
        }
        if let ledger {
            do { try ledger.store.countQuotaRequest(target: ledger.target, scope: scope, at: now) } catch {
                throw .transient("the store: \(error)")
            }
        }
        note(scope, at: now.seconds, count: 1)
        if let word = told[scope], word.resets > now { told[scope] = (word.left - 1, word.resets) }
    }

    /// What the service said in an answer's headers: requests left in the
    /// scope's quota and the seconds until it resets (either may be nil).
    public func heard(_ scope: Scope, left: Int?, resetsIn: Int?) {
        guard let left else { return }
        let now = clock()
        told[scope] = (left, now + Int64(max(1, resetsIn ?? Int(Self.hour))))
    }

    /// The service answered 402 (or otherwise said the quota is used up):
    /// the wait it stands for, and nothing more goes out before then.
    public func exhausted(_ scope: Scope, resetsIn: Int?) -> QuotaWait {
        let now = clock()
        let limit = limits[scope] ?? 0
        // Without the service's word, the hour from the oldest request
        // trackee knows of; an hour when it knows of none.
        let until: Instant
        if let resetsIn {
            until = now + Int64(max(1, resetsIn))
        } else if prune(scope, now) > 0, let oldest = sent[scope]?.first {
            until = max(now + 1, Instant(seconds: oldest.at + Self.hour))
        } else {
            until = now + Self.hour
        }
        told[scope] = (0, until)
        return QuotaWait(service: service, until: until, left: 0, limit: limit)
    }

    /// Requests of `scope` the quota allows now.
    public func left(_ scope: Scope) -> Int {
        guard let limit = limits[scope] else { return Int.max }
        let now = clock()
        var left = max(0, limit - prune(scope, now))
        if let word = told[scope], word.resets > now { left = min(left, max(0, word.left)) }
        return left
    }

    /// The requests of the last hour, to be kept in the store.
    public var requests: [QuotaRequests] {
        let now = clock()
        var result: [QuotaRequests] = []
        for scope in Scope.allCases {
            _ = prune(scope, now)
            for r in sent[scope] ?? [] { result.append(QuotaRequests(scope: scope, at: Instant(seconds: r.at), count: r.count)) }
        }
        return result
    }

    /// Brings the store's requests of `target` up to date, when a run ends.
    /// With a ledger every request is there already, and only what is an
    /// hour old is dropped (another process's counts stay); without, the
    /// hour's requests replace what was kept.
    public func keep(in store: Store, target: String) throws {
        if ledger != nil {
            try store.forgetQuotaRequests(target: target, before: clock() - Self.hour)
        } else {
            try store.keepQuotaRequests(target: target, requests)
        }
    }

    /// Drops what is an hour old; returns what is left of the hour.
    private func prune(_ scope: Scope, _ now: Instant) -> Int {
        guard var list = sent[scope], let first = list.first else { return 0 }
        if first.at <= now.seconds - Self.hour {
            let start = list.firstIndex { $0.at > now.seconds - Self.hour } ?? list.count
            total[scope, default: 0] -= list[..<start].reduce(0) { $0 + $1.count }
            list.removeFirst(start)
            sent[scope] = list
        }
        return total[scope] ?? 0
    }

    /// When the hour holds `limit - 1` requests or fewer again: the time
    /// enough of the oldest ones are an hour old.
    private func freeAt(_ scope: Scope, limit: Int, now: Instant) -> Instant {
        var over = (total[scope] ?? 0) - limit + 1
        for r in sent[scope] ?? [] {
            over -= r.count
            if over <= 0 { return Instant(seconds: r.at + Self.hour) }
        }
        return now
    }
}

/// Where a ``RequestQuota`` keeps each request as it counts it: the
/// store's requests of one target.
public struct QuotaLedger: Sendable {
    public let store: Store
    public let target: String

    public init(store: Store, target: String) {
        self.store = store
        self.target = target
    }
}

/// A wait for a service's hourly quota: nothing goes to the service
/// before `until`.
public struct QuotaWait: Sendable, Equatable {
    /// `Toggl Track`, `Clockify`.
    public var service: String
    public var until: Instant
    /// Requests left (0 while waiting) of `limit` an hour.
    public var left: Int
    public var limit: Int

    public init(service: String, until: Instant, left: Int, limit: Int) {
        self.service = service
        self.until = until
        self.left = left
        self.limit = limit
    }
}

@available(*, unavailable)
extension RequestQuota: Sendable {}
