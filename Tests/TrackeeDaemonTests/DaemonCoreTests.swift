import Foundation
import Logging
import Testing
import TrackeeAutomation
import TrackeeCore
import TrackeeStore
@testable import TrackeeDaemon

/// The daemon's passes on a manual clock: what a resume from suspend, a
/// clock set forward or back, and a restart do to schedule firings.
@Suite struct DaemonCoreTests {
    struct Setup {
        let directory: String
        let store: Store
        let clock: ManualClock
        let core: DaemonCore
    }

    /// Monday 2026-11-23 08:00 in Prague, with a 09:00 start (max_late 10m)
    /// and a 17:30 stop (max_late 4h).
    func setup(directory: String? = nil, at start: Instant = Instant(seconds: 1_795_417_200)) async throws -> Setup {
        let dir = directory ?? FileManager.default.temporaryDirectory.path + "/trackee-core-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let rules = dir + "/rules.yaml"
        if !FileManager.default.fileExists(atPath: rules) {
            try """
                rules:
                  - id: start
                    when: {at: "Mon..Fri 09:00"}
                    do: [{start: {project: Office}}]
                  - id: stop
                    when: {at: "Mon..Fri 17:30"}
                    max_late: 4h
                    do: [{stop: }]
                """.write(toFile: rules, atomically: true, encoding: .utf8)
        }
        let store = try Store(path: dir + "/store.sqlite3")
        let zone = try Zone(identifier: "Europe/Prague")
        let clock = ManualClock(start)
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let runner = Runner(store: store, zone: zone, environment: [:], logger: logger, waitForPrograms: true,
                            newProjects: .create)
        let core = DaemonCore(runner: runner, ruleFiles: [rules], systemd: SystemdNotifier(environment: [:]),
                              clocks: clock.clocks)
        try await core.start()
        return Setup(directory: dir, store: store, clock: clock, core: core)
    }

    func hours(_ h: Double) -> Int64 { Int64(h * 3600) }

    @Test func aPassFiresWhatFellDueAndNamesTheNextDeadline() async throws {
        let s = try await setup()
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        // 08:00: the first pass sets the mark; the next deadline is 09:00.
        #expect(await s.core.pass() == s.clock.now + hours(1))
        s.clock.now = s.clock.now + hours(1) + 1
        #expect(await s.core.pass() == Instant(seconds: 1_795_451_400))   // 17:30
        #expect(try s.store.running()?.start == Instant(seconds: 1_795_420_800))
    }

    /// Asleep from 08:00 to 11:00: 09:00 is past its max_late (10m), so no
    /// timer starts at 11:00 for a morning the user was not there.
    @Test func aLongSuspendSkipsWhatIsPastMaxLate() async throws {
        let s = try await setup()
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        _ = await s.core.pass()
        s.clock.now = s.clock.now + hours(3)
        _ = await s.core.pass()
        #expect(try s.store.running() == nil)
        #expect(try s.store.lastFirings() == [:])
    }

    /// Asleep from 17:00 to 20:00: the 17:30 stop is within its 4 h, so it
    /// catches up once and the entry ends at 17:30.
    @Test func aShortSuspendCatchesUpOnceAtTheOccurrencesOwnTime() async throws {
        let s = try await setup()
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        _ = await s.core.pass()
        s.clock.now = s.clock.now + hours(1) + 5
        _ = await s.core.pass()
        s.clock.now = s.clock.now + hours(8)   // 17:00
        _ = await s.core.pass()
        s.clock.now = s.clock.now + hours(3)   // 20:00
        _ = await s.core.pass()
        #expect(try s.store.running() == nil)
        let entry = try #require(try s.store.log(limit: 1).first)
        #expect(entry.end == Instant(seconds: 1_795_451_400))
    }

    /// The clock set back an hour after 09:00 fired: the window does not
    /// move back, and 09:00 does not fire again when it comes round.
    @Test func aClockSetBackFiresNothingTwice() async throws {
        let s = try await setup()
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        _ = await s.core.pass()
        s.clock.now = s.clock.now + hours(1) + 10   // 09:00:10
        _ = await s.core.pass()
        s.clock.now = s.clock.now - hours(1)   // 08:00:10 again
        _ = await s.core.pass()
        s.clock.now = s.clock.now + hours(1)   // 09:00:10 again
        _ = await s.core.pass()
        #expect(try s.store.entryCount() == 1)
        #expect(try s.store.lastFirings() == ["start": Instant(seconds: 1_795_420_800)])
    }

    /// A restarted daemon starts from the stored mark: what fired before
    /// the restart does not fire again.
    @Test func aRestartFiresNothingTwice() async throws {
        let first = try await setup()
        defer { try? FileManager.default.removeItem(atPath: first.directory) }
        _ = await first.core.pass()
        first.clock.now = first.clock.now + hours(1) + 5
        _ = await first.core.pass()
        let again = try await setup(directory: first.directory, at: first.clock.now + 30)
        _ = await again.core.pass()
        #expect(try again.store.entryCount() == 1)
    }
}
