import ArgumentParser
import Foundation
import TrackeeCore
import TrackeeStore

extension Trackee.Hub {
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Push the changes made here to the hub, and pull the others' once.",
            discussion: """
                The first sync joins the hub: the device gets a number, and every client, \
                project and entry here is renumbered so that its id ends in it (ids are then the \
                same on every device) and pushed. Each batch is one transaction on both sides, so \
                a sync that is killed loses nothing and the next one goes on where it stopped. On \
                a terminal a progress line shows the counts. See "Several devices" in the README \
                for how changes merge.
                """)
        @OptionGroup var common: CommonOptions

        func run() throws {
            try Session.run(common) { session in
                let hub = try Trackee.Hub.settings(session)
                let replicator = try Trackee.Hub.replicator()
                let store = try session.openStore()
                let password = try Trackee.Hub.password(hub, environment: session.environment)
                let showsProgress = !session.out.json && isatty(2) == 1
                let batch = try Self.batch(session.environment)
                let location = StoreLocation.resolve(explicit: common.store, environment: session.environment)
                let reports: [ReplicationReport]
                do {
                    reports = try replicator.sync(
                        store: store, location: location, settings: hub, password: password, batch: batch,
                        progress: showsProgress
                            ? { r in writeAll(2, "\r\u{1B}[Kpushed \(r.pushed), pulled \(r.pulled)") } : nil,
                        now: session.currentTime)
                    if showsProgress { writeAll(2, "\r\u{1B}[K") }
                } catch let error as StoreError {
                    throw error
                } catch {
                    if showsProgress { writeAll(2, "\r\u{1B}[K") }
                    try? store.hubReplicated(error: "\(error)", now: session.currentTime())
                    throw CommandFailure(message: "\(hub.origin): hub: \(error)", status: 75)
                }
                try store.hubReplicated(error: nil, now: session.currentTime())
                for warning in reports.flatMap(\.warnings) { writeAll(2, "trackee: warning: \(warning)\n") }
                if session.out.json {
                    var own = reports[0]
                    own.shared = Array(reports.dropFirst())
                    session.out.emit(own)
                } else {
                    for report in reports { session.out.line(Self.line(report)) }
                }
            }
        }

        /// `hub sync: device laptop (1): pushed 2, pulled 0, applied 0`.
        static func line(_ report: ReplicationReport) -> String {
            let whose = report.person.map { "\($0)'s timeline (\(report.level ?? "read")), as " } ?? ""
            var line = "hub sync: \(whose)device \(report.device) (\(report.number)): pushed \(report.pushed), "
                + "pulled \(report.pulled), applied \(report.applied)"
            if report.timersStopped > 0 {
                line += ", stopped \(report.timersStopped) timer(s) another device's followed"
            }
            if report.conflicts > 0 { line += ", \(report.conflicts) conflict(s)" }
            return line
        }

        /// Changes per statement each way: `TRACKEE_HUB_BATCH`, else 5,000.
        static func batch(_ environment: [String: String]) throws -> Int {
            guard let text = environment["TRACKEE_HUB_BATCH"], !text.isEmpty else { return 5000 }
            guard let batch = Int(text), (1...100_000).contains(batch) else {
                throw CommandFailure.usage("TRACKEE_HUB_BATCH is \"\(text)\"; give a number of changes from 1 to 100000")
            }
            return batch
        }
    }
}
