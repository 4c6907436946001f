import Foundation
import Logging
import Testing
import TrackeeAutomation
import TrackeeCore
import TrackeeDesk
import TrackeeStore
@testable import TrackeeDaemon

/// The builder `trackee run` takes its services from.
@Suite struct StandardServicesTests {
    @Test func theStandardSetIsSchedulesEventLinesReloadsAndTheDrainOnlyWhenGiven() async throws {
        let directory = FileManager.default.temporaryDirectory.path + "/trackee-services-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Store(path: directory + "/store.sqlite3")
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let runner = Runner(store: store, zone: .utc, environment: [:], logger: logger, waitForPrograms: true,
                            newProjects: .create)
        let core = DaemonCore(runner: runner, ruleFiles: [], systemd: SystemdNotifier(environment: [:]),
                              clocks: ManualClock(Instant(seconds: 1_795_417_200)).clocks)
        func names(_ sync: PushDrain?) async -> [String] {
            await Daemon.standardServices(core: core, watching: [directory], eventLines: nil, sync: sync, logger: logger)
                .map { "\(type(of: $0.service))" }
        }
        #expect(await names(nil) == ["ScheduleService", "EventLineService", "ReloadService"])
        #expect(await names(PushDrain(argv: ["trackee-sync", "drain"], environment: [:], store: store))
            == ["ScheduleService", "EventLineService", "ReloadService", "PushDrainService"])
    }

    /// The desk's threads wait on the daemon's sleep clock: it counts
    /// suspend, and a wall clock set does not move it.
    @Test func theDeskWaitsOnTheDaemonsSleepClock() {
        let machine = ManualClock(Instant(seconds: 1_795_417_200))
        let desk = machine.clocks.desk
        #expect(desk.now == .zero)
        machine.advance(nanoseconds: 1_500_000_000)
        machine.suspend(for: 2)
        machine.setWall(by: 3600)
        #expect(desk.now == .milliseconds(3500))
    }
}
