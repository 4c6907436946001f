import Foundation
import TrackeeCore
import TrackeeHub
import TrackeeStore

/// One push and pull between the store and the hub: what `hub sync` runs,
/// and what `trackee run` runs after each change and each notification.
struct HubSync {
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
    var progress: ((HubSyncReport) -> Void)?

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

    func run(now: () -> Instant) throws -> HubSyncReport {
        let identity = try store.hubIdentity(name: device)
        let number = try session.register(device: device, store: identity.store)
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
        try store.hubSyncs(
            person != nil ? "none" : settings.syncDevice.map { $0 == settings.device ? "all" : "none" } ?? "own")
        var report = HubSyncReport(device: device, number: number)
        // A copy of a timeline shared for reading: its changes are
        // refused, and what others did still comes in.
        var refused: Error?
        do { try push(&report) } catch let error as HubFailureReason where person != nil {
            refused = error
        }
        var cursor = try store.hubDevice()?.pulled ?? 0
        while true {
            let changes = try session.pull(after: cursor, person: person, excluding: device, limit: batch)
            guard let last = changes.last else { break }
            let applied = try store.hubApply(
                changes, through: last.id, now: now(), physical: now().seconds * 1000)
            report.pulled += changes.count
            report.applied += applied.applied
            report.conflicts += applied.conflicts
            report.timersStopped += applied.timersStopped
            report.warnings += applied.warnings
            cursor = last.id
            progress?(report)
            if changes.count < batch { break }
        }
        report.cursor = cursor
        if let refused { throw refused }
        try push(&report)
        return report
    }

    private func push(_ report: inout HubSyncReport) throws {
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

/// A sync's failure, as one sentence.
struct HubFailureReason: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What a sync did.
struct HubSyncReport: Encodable {
    var device: String
    var number: Int64
    var pushed = 0
    var pulled = 0
    var applied = 0
    var conflicts = 0
    var timersStopped = 0
    var cursor: Int64 = 0
    var warnings: [String] = []
    /// For a copy of another's timeline: whose, and what they allow.
    var person: String?
    var level: String?
    /// The copies of others' timelines, synced after this device's own.
    var shared: [HubSyncReport]?

    enum CodingKeys: String, CodingKey {
        case device, number, pushed, pulled, applied, conflicts, cursor, warnings, person, level, shared
        case timersStopped = "timers_stopped"
    }
}
