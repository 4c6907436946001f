import ArgumentParser
import TrackeeCore
import TrackeeStore

extension ConflictChoice: ExpressibleByArgument {}

extension Trackee {
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Push entries to Clockify and Toggl Track, and show and settle what is queued.",
            discussion: """
                Every change to a finished entry (added, edited, stopped, deleted, restored by \
                undo) is recorded in the same transaction, and queued for each target of the \
                settings' sync: section whose since: covers it. trackee sync pushes the queue \
                (trackee run does it by itself); a create whose answer was lost is looked for \
                at the service and adopted before it is sent again, so no entry arrives twice. \
                The talking is done by trackee-sync, installed next to trackee.
                """,
            subcommands: [Push.self, Check.self, Status.self, Backfill.self, Resolve.self],
            defaultSubcommand: Push.self)

        struct Push: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "push",
                abstract: "Push what is queued (the default: trackee sync [TARGET]).",
                discussion: """
                    Changes go out in the order they were made. On a terminal a progress line \
                    shows pushed/total; at the end, per target: pushed, adopted, failed, \
                    conflicts, still queued. Exit status: 0 when everything due was pushed, 65 \
                    when the service refused some entries or some are in conflict (see trackee \
                    sync status), 75 when the service could not be reached or asked to wait (the \
                    rest stays queued, with backoff), 77 when the token was refused.
                    """)

            @OptionGroup var common: CommonOptions

            @Argument(help: "A target name from the settings' sync: section (default: all).")
            var target: String?

            @Flag(help: "List what would be sent, and send nothing.")
            var dryRun = false

            func run() throws {
                try Session.run(common) { session in
                    let targets = try SyncJob.targets(session, named: target)
                    let store = try session.openStore()
                    if dryRun {
                        try SyncJob.dryRun(targets, store: store, session: session)
                        return
                    }
                    try SyncJob(command: "push", targets: targets, session: session, store: store).exec()
                }
            }
        }

        struct Check: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "check",
                abstract: "Check the token and workspace of each target against its service.",
                discussion: """
                    Prints who the token authenticates as, the workspace, and the projects that \
                    queued entries need and the workspace lacks (created on push when \
                    create_missing: is on). Sends no entry.
                    """)

            @OptionGroup var common: CommonOptions

            @Argument(help: "A target name from the settings' sync: section (default: all).")
            var target: String?

            func run() throws {
                try Session.run(common) { session in
                    let targets = try SyncJob.targets(session, named: target)
                    let store = try session.openStore()
                    try SyncJob(command: "check", targets: targets, session: session, store: store).exec()
                }
            }
        }

        struct Resolve: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "resolve",
                abstract: "Settle an entry sync set aside: a conflict, or one the service refused.",
                discussion: """
                    A conflict is an entry the service deleted, or changed since trackee last \
                    pushed it. --keep local pushes the local entry again (created anew, or written \
                    over the change made there); --keep remote takes the service's side (an entry \
                    it deleted is deleted here too, and trackee undo brings it back; one it \
                    changed is left as each side has it). For a refused entry, local tries it \
                    again and remote discards the queued change. ENTRY is the id trackee log \
                    shows.
                    """)

            @OptionGroup var common: CommonOptions

            @Argument(help: "The id of the entry in conflict.")
            var entry: Int64

            @Option(help: "Which side wins: local or remote.")
            var keep: ConflictChoice

            @Option(help: "The target (default: every target where the entry is set aside).")
            var target: String?

            func run() throws {
                try Session.run(common) { session in
                    let targets = try SyncJob.targets(session, named: target)
                    let store = try session.openStore()
                    var settled: [String] = []
                    for t in targets where try store.resolveConflict(target: t.name, entryID: entry, keep: keep, now: session.now) {
                        settled.append(t.name)
                    }
                    guard !settled.isEmpty else {
                        throw CommandFailure.usage("entry \(entry) is not set aside (in conflict or refused)"
                                                   + (target.map { " for \($0)" } ?? ""))
                    }
                    if session.out.json {
                        session.out.emit(["entry": "\(entry)", "kept": keep.rawValue, "targets": settled.joined(separator: ",")])
                    } else {
                        session.out.line("entry \(entry): kept the \(keep.rawValue) side for \(settled.joined(separator: ", "))"
                                         + (keep == .local ? "; it is queued again" : ""))
                    }
                }
            }
        }

        struct Status: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "status",
                abstract: "Per target: entries queued, failed and in conflict, entries held there, the last success and error.")

            @OptionGroup var common: CommonOptions

            func run() throws {
                try Session.run(common) { session in
                    let store = try session.openStore()
                    // Also drops the targets the settings no longer name.
                    try store.registerSyncTargets(session.settings.sync.map(\.record))
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

        struct Backfill: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "backfill",
                abstract: "Queue the finished entries of a range that a target neither holds nor has queued.",
                discussion: """
                    For the first push of a store that existed before the target: entries that \
                    start in [--from, --to) are queued in start order. Running it again queues \
                    nothing new.
                    """)

            @OptionGroup var common: CommonOptions

            @Argument(help: "A target name from the settings' sync: section.")
            var target: String

            @OptionGroup var range: RangeOptions

            func run() throws {
                try Session.run(common) { session in
                    let (start, end) = try range.range(session)
                    let setting = try SyncJob.targets(session, named: target)[0]
                    let store = try session.openStore()
                    let queued = try store.backfill(target: setting.name, from: max(start, setting.since), to: end)
                    if session.out.json {
                        session.out.emit(["queued": queued])
                    } else {
                        session.out.line("queued \(queued) entr\(queued == 1 ? "y" : "ies") for \(setting.name)"
                                         + (start < setting.since ? " (from \(session.zone.iso8601(setting.since)), its since:)" : ""))
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
}
