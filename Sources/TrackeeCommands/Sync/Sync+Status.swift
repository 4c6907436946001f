import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Sync {
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Per target: entries queued, failed and in conflict, entries held there, the last success and error.")

        @OptionGroup var common: CommonOptions

        func run() throws {
            try Session.run(common) { session in
                let store = try session.openStore()
                // Also drops the targets the settings no longer name.
                try store.registerPushTargets(session.settings.sync.map(\.record))
                let summaries = try store.outboxSummaries()
                var quotas: [String: QuotaView] = [:]
                for s in summaries {
                    guard let setting = session.settings.sync.first(where: { $0.name == s.target }) else { continue }
                    let use = try store.quotaUse(target: s.target, since: session.now - 3600)
                    quotas[s.target] = QuotaView(s, setting, use: use, now: session.now, zone: session.zone)
                }
                var aside: [String: [SetAsideView]] = [:]
                for s in summaries where s.failed + s.conflicts > 0 {
                    aside[s.target] = try store.setAsidePushes(target: s.target).map {
                        SetAsideView(entry: $0.entryID, state: $0.conflict ? "conflict" : "failed", message: $0.message)
                    }
                }
                if session.out.json {
                    session.out.emit(summaries.map {
                        TargetView($0, session.zone, setAside: aside[$0.target] ?? [], quota: quotas[$0.target])
                    })
                    return
                }
                if summaries.isEmpty {
                    session.out.line("no sync targets; name them under sync: in the settings file (see trackee(1), CONFIGURATION)")
                }
                for s in summaries {
                    var line = "\(s.target) (\(s.service)): \(s.queued) queued, \(s.failed) failed, \(s.conflicts) in conflict, "
                        + "\(s.pushed) held there"
                    line += s.lastSuccess.map { "; last success \(session.zone.iso8601($0))" } ?? "; never pushed"
                    if let error = s.lastError, let at = s.lastErrorAt, !s.waitingForQuota {
                        line += "; last error \(session.zone.iso8601(at)): \(error)"
                    }
                    // Said once the hour has seen requests: an unused quota is no news.
                    if let quota = quotas[s.target], quota.inUse {
                        line += "; " + quota.sentence
                    }
                    session.out.line(line)
                    for item in aside[s.target] ?? [] {
                        session.out.line("  entry \(item.entry): \(item.state): \(item.message)")
                    }
                }
                if !aside.isEmpty {
                    session.out.line("settle them with trackee sync resolve ENTRY --keep local|remote")
                }
            }
        }
    }

    /// An entry a push set aside: `conflict` or `failed`, and why.
    struct SetAsideView: Encodable {
        var entry: Int64
        var state: String
        var message: String
    }

    /// `sync status --json`: one object per target.
    struct TargetView: Encodable {
        var target: String
        var service: String
        var queued: Int
        var failed: Int
        var conflicts: Int
        var pushed: Int
        var last_success: String?
        var last_error: String?
        var last_error_at: String?
        var set_aside: [SetAsideView]
        var retry_at: String?
        var quota: QuotaView?

        init(_ s: OutboxSummary, _ zone: Zone, setAside: [SetAsideView], quota: QuotaView?) {
            set_aside = setAside
            retry_at = s.retryAt.map(zone.iso8601)
            self.quota = quota
            target = s.target
            service = s.service
            queued = s.queued
            failed = s.failed
            conflicts = s.conflicts
            pushed = s.pushed
            last_success = s.lastSuccess.map(zone.iso8601)
            last_error = s.lastError
            last_error_at = s.lastErrorAt.map(zone.iso8601)
        }
    }
}
