import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Show and fill the queue of entries for Clockify and Toggl Track.",
            discussion: """
                Every change to a finished entry (added, edited, stopped, deleted, restored by \
                undo) is recorded in the same transaction, and queued for each target of the \
                settings' sync: section whose since: covers it. Pushing the queue to the services \
                is not part of this release; trackee export writes CSV files both import.
                """,
            subcommands: [Status.self, Backfill.self])

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
                    if session.out.json {
                        session.out.emit(summaries.map { TargetView($0, session.zone) })
                        return
                    }
                    if summaries.isEmpty {
                        session.out.line("no sync targets; name them under sync: in the settings file (see trackee(1), CONFIGURATION)")
                    }
                    for s in summaries {
                        var line = "\(s.target) (\(s.service)): \(s.queued) queued, \(s.failed) failed, \(s.conflicts) in conflict, "
                            + "\(s.pushed) held there"
                        line += s.lastSuccess.map { "; last success \(session.zone.iso8601($0))" } ?? "; never pushed"
                        if let error = s.lastError, let at = s.lastErrorAt {
                            line += "; last error \(session.zone.iso8601(at)): \(error)"
                        }
                        session.out.line(line)
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
                    guard let setting = session.settings.sync.first(where: { $0.name == target }) else {
                        let known = session.settings.sync.map(\.name)
                        throw CommandFailure.usage("no sync target named \"\(target)\"; "
                                                   + (known.isEmpty ? "the settings name none" : "the settings name " + known.joined(separator: ", ")))
                    }
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

            init(_ s: OutboxSummary, _ zone: Zone) {
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
