import TrackeeCore
import TrackeeStore

#if canImport(Glibc)
import Glibc
#endif

/// One target of the settings, as pushing needs it.
public struct PushTarget: Sendable {
    public var name: String
    /// Local project name to the service's.
    public var projects: [String: String]

    public init(name: String, projects: [String: String]) {
        self.name = name
        self.projects = projects
    }
}

/// What a push did.
public struct PushReport: Sendable, Equatable {
    public var target: String
    /// Changes the service confirmed (creates, updates, deletes).
    public var pushed = 0
    /// Creates found already there (an earlier push's answer was lost) and
    /// taken as done.
    public var adopted = 0
    /// Changes the service refused, set aside with its message.
    public var failed = 0
    /// Updates and deletes of entries the service no longer has.
    public var conflicts = 0
    /// Changes left in the queue (due later, or the push stopped).
    public var queued = 0
    /// Why the push stopped before the queue was empty, if it did.
    public var stopped: Stop?

    public enum Stop: Sendable, Equatable {
        /// The token was refused: nothing more is tried until it changes.
        case unauthorized(String)
        /// The service could not be reached or asked to wait; the queue
        /// is tried again from `retryAt`.
        case unavailable(String, retryAt: Instant)
        /// The service's hourly request quota is used up: the queue goes
        /// out from `until.until` on, nothing set aside.
        case quota(QuotaWait)
    }

    public init(target: String) { self.target = target }
}

/// Pushes one target's queue to its service, one change at a time, in the
/// order the changes were made.
///
/// Exactly once: before a create is sent, the store notes that it was
/// sent; a create noted but never confirmed (the process died, or the
/// answer was lost) is looked for at the service by its start, end and
/// description, and adopted if found, before it is sent again. Creates go
/// out on fresh connections (see ``TimeService/create(_:)``), so no HTTP
/// layer resends one on its own.
///
/// Failures: an unreachable service, a timeout or a 5xx stops the push and
/// leaves the change queued with exponential backoff and jitter (at most
/// an hour); 429 waits `Retry-After`; 401/403 stops the target; another
/// 4xx sets that change aside as failed and goes on; a 404 on an update or
/// a delete is a conflict.
///
/// Quotas: every request is counted against the target's hourly quota
/// (``RequestQuota``) before it goes out. When the hour is used up, or the
/// service says so (Toggl's 402), the push waits when the wait is short
/// and otherwise stops, and the whole target waits until the quota allows
/// more; either way the wait is in the store, so `sync status` says until
/// when, also from another process while this one waits. No entry is set
/// aside for it.
///
/// Requests per push: before each update, the pusher must know the entry
/// was not changed at the service; the updates of one push whose entries
/// start within 31 days of each other are checked with one listing
/// instead of one read each.
public struct Pusher {
    let store: Store
    let target: PushTarget
    let service: TimeService
    let clock: () -> Instant
    /// How long a push may wait for a `Retry-After` before it stops and
    /// leaves the rest for later.
    let longestWait: Int
    let sleep: (Int) -> Void
    /// The requests counted against the quota (kept in the store as they
    /// go with a ledger, else when the push ends); nil: not counted.
    let quota: RequestQuota?
    /// What the service held of the entries this push updates, listed once.
    private let listed = ListedThere()

    public init(store: Store, target: PushTarget, service: TimeService, clock: @escaping () -> Instant,
                longestWait: Int = 60, sleep: @escaping (Int) -> Void = { _ = Glibc.sleep(UInt32($0)) },
                quota: RequestQuota? = nil) {
        self.store = store
        self.target = target
        self.service = service
        self.clock = clock
        self.longestWait = longestWait
        self.sleep = sleep
        self.quota = quota
    }

    /// The delay before attempt `attempts + 1` of a change that could not
    /// be pushed: 2^attempts seconds, at most an hour, less up to a fifth
    /// at random (so many clients do not retry in step).
    public static func backoff(attempts: Int, random: Double = Double.random(in: 0..<1)) -> Int64 {
        let base = attempts >= 12 ? 3600 : min(3600, 1 << max(0, attempts))
        return max(1, Int64((Double(base) * (1 - 0.2 * random)).rounded()))
    }

    /// Pushes what is due; `progress` hears (done, total) after each change.
    public func push(progress: (Int, Int) -> Void = { _, _ in }) throws -> PushReport {
        defer {
            // What this push sent counts for the next one, whatever happens.
            if let quota { try? quota.keep(in: store, target: target.name) }
        }
        var report = PushReport(target: target.name)
        let backoff = try store.targetBackoff(target.name)
        if let retryAt = backoff.retryAt, retryAt > clock() {
            // Offline, asked to wait, or out of quota: nothing goes out before then.
            if backoff.quota {
                report.stopped = .quota(QuotaWait(service: quota?.service ?? "the service", until: retryAt, left: 0,
                                                  limit: quota?.limits[.workspace] ?? 0))
            } else {
                report.stopped = .unavailable(backoff.message ?? "waiting", retryAt: retryAt)
            }
            report.queued = try store.queuedPushes(target: target.name).count
            return report
        }
        let due = try store.duePushes(target: target.name, now: clock(), limit: Int.max)
        listed.plan(due)
        var done = 0
        progress(0, due.count)
        for item in due {
            var retried = false
            while true {
                do {
                    try apply(item, &report)
                    break
                } catch .rateLimited(let after) where (after ?? 1) <= longestWait {
                    sleep(max(1, after ?? 1))
                } catch .quota(let wait) where wait.until - clock() <= Int64(longestWait) {
                    // Said in the store while it lasts, for `sync status`.
                    try store.recordQuotaWait(target: target.name, until: wait.until,
                                              message: ServiceFailure.quota(wait).description, at: clock())
                    sleep(Int(max(1, wait.until - clock())))
                    try store.endQuotaWait(target: target.name, until: wait.until)
                } catch .rejected where !retried && service.forgetKeptIDs() {
                    // Ids kept from an earlier run may be stale (a project
                    // deleted there): once more, looked up anew.
                    retried = true
                } catch .unauthorized where !retried && service.forgetKeptIDs() {
                    // So may the workspace's, after a token of another
                    // account: a 403 there is no verdict on the token yet.
                    retried = true
                } catch {
                    if try settle(item, error, &report) {
                        report.queued = try store.queuedPushes(target: target.name).count
                        return report
                    }
                    break
                }
            }
            done += 1
            progress(done, due.count)
        }
        try store.recordPushError(target: target.name, message: nil, at: clock())
        report.queued = try store.queuedPushes(target: target.name).count
        return report
    }

    /// Sends one change and records the service's answer.
    private func apply(_ item: OutboxItem, _ report: inout PushReport) throws(ServiceFailure) {
        let now = clock()
        func record(_ body: () throws -> Void) throws(ServiceFailure) {
            do { try body() } catch { throw .transient("the store: \(error)") }
        }
        switch item.operation {
        case .put:
            guard let entry = item.entry, let pushed = pushed(entry) else {
                // Running again, or gone: a later change queues it anew.
                try record { try store.dropPush(item) }
                return
            }
            let sent = SentEntry(start: pushed.start, end: pushed.end, description: pushed.description)
            if let remoteID = item.remoteID {
                // Not over a change made there: what it holds must still
                // be what trackee last sent.
                if let previous = item.sent, try !unchangedThere(remoteID, previous) {
                    try record { try store.setAside(item, conflict: true, message: Store.changedThere) }
                    report.conflicts += 1
                    return
                }
                do {
                    try service.update(id: remoteID, pushed)
                } catch .notFound where item.sent == nil {
                    // The local side was kept over an entry the service
                    // no longer has: it is created anew, as any create.
                    try record { try store.forgetRemoteID(item) }
                    let id = try create(item, pushed, sent)
                    try record { try store.confirmPush(item, remoteID: id, sent: sent, at: now) }
                    report.pushed += 1
                    return
                }
                try record { try store.confirmPush(item, remoteID: remoteID, sent: sent, at: now) }
                report.pushed += 1
                return
            }
            if item.createSent, let previous = item.sent, let found = try lookUp(previous) {
                // The earlier create arrived: adopt it, then bring it up to date.
                if previous != sent { try service.update(id: found, pushed) }
                try record { try store.confirmPush(item, remoteID: found, sent: sent, at: now) }
                report.adopted += 1
                return
            }
            let id = try create(item, pushed, sent)
            try record { try store.confirmPush(item, remoteID: id, sent: sent, at: now) }
            report.pushed += 1
        case .delete:
            var remoteID = item.remoteID
            if remoteID == nil, item.createSent, let previous = item.sent {
                remoteID = try lookUp(previous)
            }
            if let remoteID {
                do {
                    try service.delete(id: remoteID)
                } catch .notFound where item.attempts > 0 {
                    // An earlier attempt whose answer was lost deleted it.
                }
            }
            try record { try store.confirmPush(item, remoteID: nil, sent: nil, at: now) }
            report.pushed += 1
        }
    }

    /// Creates `pushed`, noted as sent first. A quota that holds it back
    /// (trackee's own count, or Toggl's 402) means it did not reach the
    /// service: the note is taken back, so the next push creates it without
    /// looking for it first (a look-up costs a request of the quota).
    private func create(_ item: OutboxItem, _ pushed: PushedEntry, _ sent: SentEntry) throws(ServiceFailure) -> String {
        do { try store.markCreateSent(item, sent) } catch { throw .transient("the store: \(error)") }
        do {
            return try service.create(pushed)
        } catch .quota(let wait) {
            do { try store.unmarkCreateSent(item) } catch { throw .transient("the store: \(error)") }
            throw .quota(wait)
        }
    }

    /// The id of the entry at the service that a lost create made, if it
    /// is there: same start, end and description, not held for another
    /// local entry.
    private func lookUp(_ sent: SentEntry) throws(ServiceFailure) -> String? {
        let candidates = try service.entries(from: sent.start, to: sent.start)
            .filter { $0.start == sent.start && $0.end == sent.end && $0.description == sent.description }
        let held: Set<String>
        do { held = try store.remoteIDs(target: target.name, among: candidates.map(\.id)) } catch {
            throw .transient("the store: \(error)")
        }
        return candidates.map(\.id).sorted().first { !held.contains($0) }
    }

    /// Whether the service still holds `remoteID` as `sent` left it;
    /// `.notFound` when it no longer has it.
    private func unchangedThere(_ remoteID: String, _ sent: SentEntry) throws(ServiceFailure) -> Bool {
        if let there = try listed.entry(remoteID, service) {
            return there.start == sent.start && there.end == sent.end && there.description == sent.description
        }
        // Not in the listing (moved out of its range, or gone): read it alone.
        guard let there = try service.entry(id: remoteID) else { throw .notFound }
        return there.start == sent.start && there.end == sent.end && there.description == sent.description
    }

    /// What is sent for `entry`: nil while it runs.
    func pushed(_ entry: Entry) -> PushedEntry? {
        guard let end = entry.end else { return nil }
        let project = entry.project.map { RemoteProjectName(name: target.projects[$0] ?? $0, client: entry.client) }
        return PushedEntry(start: entry.start, end: end, description: entry.description, project: project, tags: entry.tags,
                           billable: entry.billable)
    }

    /// Records a failure of `item`; true when the push must stop.
    private func settle(_ item: OutboxItem, _ failure: ServiceFailure, _ report: inout PushReport) throws -> Bool {
        let now = clock()
        switch failure {
        case .unauthorized(let why):
            try store.recordPushError(target: target.name, message: why, at: now)
            report.stopped = .unauthorized(why)
            return true
        case .transient, .rateLimited:
            // The whole target waits: another entry would meet the same
            // unreachable service.
            let wait: Int64
            if case .rateLimited(let after) = failure, let after { wait = Int64(after) } else {
                wait = Self.backoff(attempts: try store.targetBackoff(target.name).failures)
            }
            let retryAt = now + wait
            try store.deferPush(item, until: retryAt, message: failure.description)
            try store.recordUnavailable(target: target.name, retryAt: retryAt, message: failure.description, at: now)
            report.stopped = .unavailable(failure.description, retryAt: retryAt)
            return true
        case .quota(let wait):
            // Not the entry's fault: it stays queued as it was, and the
            // whole target waits for the quota.
            try store.recordQuotaWait(target: target.name, until: wait.until, message: failure.description, at: now)
            report.stopped = .quota(wait)
            return true
        case .notFound:
            try store.setAside(item, conflict: true, message: failure.description)
            report.conflicts += 1
        case .rejected:
            try store.setAside(item, conflict: false, message: failure.description)
            try store.recordPushError(target: target.name, message: failure.description, at: now)
            report.failed += 1
        }
        return false
    }
}

/// The entries a push is about to update, as the service holds them, from
/// one listing of the days they start in, so that the check before each
/// update costs no request of its own. Used when two or more updates
/// start within ``span`` of each other; one update is read alone.
final class ListedThere {
    /// The widest range one listing covers.
    static let span: Int64 = 31 * 86_400
    private var range: (from: Instant, to: Instant)?
    private var byID: [String: RemoteTimeEntry]?

    /// Notes the range of the updates in `due` that will be checked.
    func plan(_ due: [OutboxItem]) {
        let starts = due.compactMap { $0.operation == .put && $0.remoteID != nil ? $0.sent?.start : nil }
        byID = nil
        range = nil
        guard starts.count >= 2, let first = starts.min(), let last = starts.max(), last - first <= Self.span else { return }
        range = (first, last)
    }

    /// Entry `id` from the listing (taken on first need); nil when there is
    /// no listing or it does not hold the entry.
    func entry(_ id: String, _ service: TimeService) throws(ServiceFailure) -> RemoteTimeEntry? {
        guard let range else { return nil }
        if byID == nil {
            do {
                byID = Dictionary(try service.entries(from: range.from, to: range.to).map { ($0.id, $0) }) { a, _ in a }
            } catch .rejected {
                // A range the service will not list: each entry is read alone.
                self.range = nil
                return nil
            }
        }
        return byID?[id]
    }
}
