import Foundation
import Logging
import Testing
import TrackeeAutomation
import TrackeeCore
import TrackeeStore
@testable import TrackeeDaemon

/// What the daemon makes of its clocks between two passes, and the alarm
/// it sleeps on, all on a manual clock.
@Suite struct ClockJumpTests {
    struct Setup {
        let directory: String
        let machine: ManualClock
        let core: DaemonCore
        let log: LogRecorder
    }

    /// Monday 2026-11-23 08:00 in Prague, with no rules.
    func setup() async throws -> Setup {
        let directory = FileManager.default.temporaryDirectory.path + "/trackee-jumps-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "rules: []\n".write(toFile: directory + "/rules.yaml", atomically: true, encoding: .utf8)
        let log = LogRecorder()
        let runner = Runner(store: try Store(path: directory + "/store.sqlite3"), zone: try Zone(identifier: "Europe/Prague"),
                            environment: [:], logger: Logger(label: "test") { _ in log }, waitForPrograms: true,
                            newProjects: .create)
        let machine = ManualClock(Instant(seconds: 1_795_417_200))
        let core = DaemonCore(runner: runner, ruleFiles: [directory + "/rules.yaml"],
                              systemd: SystemdNotifier(environment: [:]), clocks: machine.clocks)
        try await core.start()
        _ = await core.pass()
        return Setup(directory: directory, machine: machine, core: core, log: log)
    }

    func notices(_ log: LogRecorder) -> [String] { log.lines.filter { $0.hasPrefix("notice") } }

    @Test func aWallClockSetIsLoggedWithItsSize() async throws {
        let s = try await setup()
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        s.machine.setWall(by: -3600)
        _ = await s.core.pass()
        s.machine.setWall(by: 90)
        _ = await s.core.pass()
        #expect(notices(s.log) == [
            "notice the wall clock was set -3600 s; deadlines re-armed",
            "notice the wall clock was set 90 s; deadlines re-armed",
        ])
    }

    @Test func aSuspendIsLoggedAndTimePassingAwakeIsNot() async throws {
        let s = try await setup()
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        s.machine.advance(to: s.machine.now + 7200)
        _ = await s.core.pass()
        s.machine.suspend(for: 600)
        _ = await s.core.pass()
        #expect(notices(s.log) == ["notice resumed after 600 s of suspend; deadlines re-armed"])
    }

    /// A jump of two seconds or less is clock noise, not a set.
    @Test func smallJumpsAreNotLogged() async throws {
        let s = try await setup()
        defer { try? FileManager.default.removeItem(atPath: s.directory) }
        s.machine.setWall(by: 2)
        s.machine.suspend(for: 2)
        _ = await s.core.pass()
        #expect(notices(s.log) == [])
    }

    /// The alarm sleeps on the clock it is given: a suspend past its
    /// deadline wakes it (as CLOCK_BOOTTIME does), a wall set does not.
    @Test func theAlarmWakesWhenItsClockPassesTheDeadline() async throws {
        let machine = ManualClock(Instant(seconds: 1_795_417_200))
        let alarm = Alarm(clock: machine.boot)
        let sleep = Task { await alarm.sleep(nanoseconds: 60_000_000_000) }
        await machine.untilAsleep()
        machine.setWall(by: 3600)
        #expect(machine.sleeping == 1)
        #expect(machine.suspend(for: 59) == 0)
        #expect(machine.suspend(for: 1) == 1)
        await sleep.value
        #expect(machine.sleeping == 0)
    }

    @Test func aRingEndsTheAlarmsSleepAtOnce() async throws {
        let machine = ManualClock(Instant(seconds: 1_795_417_200))
        let alarm = Alarm(clock: machine.boot)
        let sleep = Task { await alarm.sleep(nanoseconds: 60_000_000_000) }
        await machine.untilAsleep()
        alarm.ring()
        await sleep.value
        // The clock's sleep was cancelled, not left behind.
        #expect(machine.sleeping == 0)
        // A ring while nobody sleeps ends the next sleep at once.
        alarm.ring()
        await alarm.sleep(nanoseconds: 60_000_000_000)
        #expect(machine.sleeping == 0)
    }
}
