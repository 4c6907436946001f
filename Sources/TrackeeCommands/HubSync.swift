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
    /// Changes per statement each way.
    var batch = 1000
    /// Told the totals as they grow (a progress line on a terminal).
    var progress: ((HubSyncReport) -> Void)?

    /// Registers the device and joins the hub the first time; then
    /// pushes what was made here, pulls what others made, and pushes the
    /// stops that pull made. Each batch is its own transaction on both
    /// sides: a kill loses nothing, and the next sync goes on from there.
    func run(now: () -> Instant) throws -> HubSyncReport {
        let identity = try store.hubIdentity(name: settings.device)
        let number = try session.register(device: settings.device, store: identity.store)
        if let joined = identity.number {
            guard joined == number else {
                throw HubFailureReason(
                    "the hub numbers device \(settings.device) \(number), and this store joined as \(joined): "
                        + "it was set up again; give this device another name (hub.device)")
            }
        } else {
            try store.hubJoin(number: number, now: now())
        }
        try store.hubSyncs(settings.syncDevice.map { $0 == settings.device ? "all" : "none" } ?? "own")
        var report = HubSyncReport(device: settings.device, number: number)
        try push(&report)
        var cursor = try store.hubDevice()?.pulled ?? 0
        while true {
            let changes = try session.pull(after: cursor, excluding: settings.device, limit: batch)
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
            try session.push(device: settings.device, changes)
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

    enum CodingKeys: String, CodingKey {
        case device, number, pushed, pulled, applied, conflicts, cursor, warnings
        case timersStopped = "timers_stopped"
    }
}
