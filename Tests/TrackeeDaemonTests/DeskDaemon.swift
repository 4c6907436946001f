import Foundation
import Logging
import TrackeeAutomation
import TrackeeCore
import TrackeeStore
@testable import TrackeeDaemon

/// A daemon for the desk kinds' tests: `rules` in a fresh directory (or
/// `directory`), a real store, a manual clock in Prague, started at `start`.
/// The test removes `directory`.
struct DeskDaemon {
    let directory: String
    let store: Store
    let clock: ManualClock
    let core: DaemonCore
    let runner: Runner

    init(rules: String, directory: String? = nil, at start: Instant) async throws {
        let dir = directory ?? FileManager.default.temporaryDirectory.path + "/trackee-desk-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try rules.write(toFile: dir + "/rules.yaml", atomically: true, encoding: .utf8)
        let store = try Store(path: dir + "/store.sqlite3")
        let clock = ManualClock(start)
        let runner = Runner(store: store, zone: try Zone(identifier: "Europe/Prague"), environment: [:],
                            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, waitForPrograms: true,
                            newProjects: .create)
        let core = DaemonCore(runner: runner, ruleFiles: [dir + "/rules.yaml"], systemd: SystemdNotifier(environment: [:]),
                              clocks: clock.clocks)
        try await core.start()
        (self.directory, self.store, self.clock, self.core, self.runner) = (dir, store, clock, core, runner)
    }
}
