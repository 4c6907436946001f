import Foundation
import TrackeeCore
import TrackeeStore

/// One push and pull between the store and the hub: what `hub sync` runs,
/// and what `trackee run` runs after each change and each notification.
/// One thread uses it at a time: `hub sync`'s, or ``HubReplication``'s
/// ``HubThread``.
struct ReplicationPass: @unchecked Sendable {
    let store: Store
    let settings: HubSettings
    let session: any HubSession
    /// Whose timeline the store holds: nil for this role's own; another
    /// person's for a timeline they share (the store is a copy of it).
    var person: String?
    /// The name this store has on the hub: the settings' device, and for
    /// a copy of another's timeline `device.person`.
    var device: String
    /// Changes per statement each way.
    var batch = 5000
    /// Told the totals as they grow (a progress line on a terminal).
    var progress: ((ReplicationReport) -> Void)?
    /// Whether a pull of more than a batch is a ``LongPull``: the store's
    /// log checkpointed on a thread of its own (``WALCheckpointer``)
    /// instead of in the commit of each batch, and a larger page cache.
    /// For the one-shot `hub sync`, not for `trackee run`, whose HTTP
    /// server may have the log's checkpoints already, and whose memory
    /// stays small.
    var checkpointsAside = false

    /// Registers the device and joins the hub the first time; then
    /// pushes what was made here, pulls what others made, and pushes the
    /// stops that pull made. Each batch is its own transaction on both
    /// sides: a kill loses nothing, and the next sync goes on from there.
    init(store: Store, settings: HubSettings, session: any HubSession, person: String? = nil) {
        self.store = store
        self.settings = settings
        self.session = session
        self.person = person
        device = person.map { settings.device + "." + $0 } ?? settings.device
    }

    func run(now: () -> Instant) throws -> ReplicationReport {
        let identity = try store.hubIdentity(name: device)
        let number = try session.register(device: device, store: identity.store, timeline: person)
        if let joined = identity.number {
            guard joined == number else {
                throw HubFailureReason(
                    "the hub numbers device \(device) \(number), and this store joined as \(joined): "
                        + "it was set up again; give this device another name (hub.device)")
            }
        } else {
            try store.hubJoin(number: number, now: now())
        }
        // A copy of another's timeline pushes nothing to services: their
        // own devices do.
        try store.hubReplicates(
            person != nil ? "none" : settings.syncDevice.map { $0 == settings.device ? "all" : "none" } ?? "own")
        var report = ReplicationReport(device: device, number: number)
        // A copy of a timeline shared for reading: its changes are
        // refused, and what others did still comes in.
        var refused: Error?
        do { try push(&report) } catch let error as HubFailureReason where person != nil {
            refused = error
        }
        var cursor = try store.hubDevice()?.pulled ?? 0
        // The next batch comes from the hub, and is decoded, while this
        // one is applied; the log is checkpointed beside them, on the
        // second core.
        let (session, person, device, batch) = (session, person, device, batch)
        let ahead = Ahead<PulledBatch>()
        defer { _ = try? ahead.take() }
        func fetch(after cursor: Int64) {
            ahead.start {
                PulledBatch(try session.pull(after: cursor, person: person, excluding: device, limit: batch))
            }
        }
        var long: LongPull?
        defer { long?.finish() }
        fetch(after: cursor)
        while let pulled = try ahead.take(), let last = pulled.last {
            if pulled.count == batch {
                fetch(after: last)
                if checkpointsAside, long == nil { long = try LongPull(store) }
            }
            let applied = try store.hubApply(
                pulled.changes, through: last, now: now(), physical: now().seconds * 1000, merge: Merge.run)
            long?.checkpoint()
            report.pulled += pulled.count
            report.applied += applied.applied
            report.conflicts += applied.conflicts
            report.timersStopped += applied.timersStopped
            report.warnings += pulled.warnings
            cursor = last
            progress?(report)
            if pulled.count < batch { break }
        }
        long?.finish()
        long = nil
        report.cursor = cursor
        if let refused { throw refused }
        try push(&report)
        return report
    }

    private func push(_ report: inout ReplicationReport) throws {
        var hubNow: Int64?
        while true {
            let changes = try store.hubOutgoing(limit: batch)
            guard !changes.isEmpty else { return }
            let limit = try hubNow ?? session.now()
            hubNow = limit
            if let ahead = changes.first(where: { (HybridStamp($0.clock)?.wall ?? 0) > limit + HybridClock.maximumLead }) {
                let hours = Double((HybridStamp(ahead.clock)?.wall ?? 0) - limit) / 3_600_000
                let made = Instant(seconds: (HybridStamp(ahead.clock)?.wall ?? 0) / 1000)
                throw HubFailureReason(
                    "a change made here at \(made) (by this device's clock) is stamped \(String(format: "%.1f", hours)) "
                        + "hours ahead of the hub's clock (more than a day); set this device's clock right (timedatectl) "
                        + "and sync again")
            }
            do {
                try session.push(device: device, person: person, changes)
            } catch let error where person != nil && "\(error)".contains("row-level security") {
                throw HubFailureReason(
                    "\(person!) lets you read their timeline, not change it: the hub refused the change made here "
                        + "to their copy (\(error)); it stays queued until they grant --write")
            }
            try store.hubPushed(changes)
            report.pushed += changes.count
            progress?(report)
        }
    }
}

/// A batch as the hub gave it, decoded: what could be read, and a
/// sentence for each change that could not.
struct PulledBatch {
    var changes: [HubChange] = []
    var warnings: [String] = []
    /// The last change's number in the hub: the cursor after this batch.
    var last: Int64?
    var count: Int

    init(_ pulled: [HubIncomingChange]) {
        count = pulled.count
        last = pulled.last?.id
        changes.reserveCapacity(pulled.count)
        for change in pulled {
            switch HubChangeDecoder.decode(change) {
            case .success(let decoded): changes.append(decoded)
            case .failure(let refusal): warnings.append(refusal.description)
            }
        }
    }
}

/// One job at a time on a thread of its own, whose result is taken later:
/// the next batch of a pull, fetched while this one is applied. The job
/// has what it uses to itself until its result is taken.
final class Ahead<Value>: @unchecked Sendable {
    private var job: (() throws -> Value)?
    private var result: Result<Value, Error>?
    private let done = DispatchSemaphore(value: 0)

    func start(_ job: @escaping () throws -> Value) {
        precondition(self.job == nil, "one job at a time")
        self.job = job
        DispatchQueue.global().async { [self] in
            result = Result { try self.job!() }
            done.signal()
        }
    }

    /// The job's result once it is done; nil when none was started.
    func take() throws -> Value? {
        guard job != nil else { return nil }
        done.wait()
        job = nil
        return try result.take()!.get()
    }
}

/// A pull of more than a batch, in the one-shot `hub sync` (see
/// ``ReplicationPass/checkpointsAside``): the store's log is checkpointed on a
/// thread of its own, one checkpoint at a time, and up to 128 MiB of the
/// store stays in memory (a new device's first pull of 100,000 changes
/// takes about 100 MB at its peak). ``finish()`` gives both back.
struct LongPull {
    let store: Store
    let checkpointer: WALCheckpointer
    private let group = DispatchGroup()

    init(_ store: Store) throws {
        self.store = store
        checkpointer = try store.checkpointingAside()
        try store.setPageCache(mebibytes: 128)
    }

    /// Starts a checkpoint once the last has ended.
    func checkpoint() {
        group.wait()
        DispatchQueue.global().async(group: group) { [checkpointer] in try? checkpointer.checkpoint() }
    }

    func finish() {
        group.wait()
        try? checkpointer.finish()
        try? store.setPageCache(mebibytes: nil)
    }
}

/// A sync's failure, as one sentence.
struct HubFailureReason: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
