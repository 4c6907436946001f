import Foundation
import Logging
import Synchronization
import Testing
import TrackeeCore
import TrackeeDaemon
import TrackeeReplication
import TrackeeStore

/// `trackee run`'s replication service on a manual clock, against a hub
/// that counts what it is asked: it tries an unreachable hub again after
/// 1, 2, 4 seconds; it syncs at the next look after a push is announced
/// or a change is made here, and once a minute regardless; and it ends as
/// soon as it is cancelled.
@Suite struct HubReplicationTests {
    /// A hub that holds nothing, refuses connections while told to, and
    /// says how often it was asked for what.
    final class CountingHub: @unchecked Sendable {
        private let state = Mutex(State())

        struct State {
            var refusals = 0
            var connections = 0
            var pulls = 0
            var pushed = 0
            var announced = false
            var looks = 0
        }

        struct Down: Error, CustomStringConvertible {
            var description: String { "cannot reach the hub: down for the test" }
        }

        var counts: State { state.withLock { $0 } }

        func refuse(_ times: Int) { state.withLock { $0.refusals = times } }
        func announce() { state.withLock { $0.announced = true } }

        func connect() throws -> any HubSession {
            try state.withLock { state in
                state.connections += 1
                if state.refusals > 0 {
                    state.refusals -= 1
                    throw Down()
                }
            }
            return Session(hub: self)
        }

        fileprivate func note(_ change: (inout State) -> Void) { state.withLock { change(&$0) } }

        private final class Session: HubSession {
            let hub: CountingHub
            init(hub: CountingHub) { self.hub = hub }

            func register(device: String, store: String, timeline: String?) throws -> Int64 { 1 }
            func now() throws -> Int64 { 1_795_417_200_000 }
            func push(device: String, person: String?, _ changes: [HubOutgoingChange]) throws {
                hub.note { $0.pushed += changes.count }
            }
            func pull(after cursor: Int64, person: String?, excluding device: String, limit: Int) throws
                -> [HubIncomingChange]
            {
                hub.note { $0.pulls += 1 }
                return []
            }
            func sharedWithMe() throws -> [String: String] { [:] }
            func share(with person: String, level: String?) throws {}
            func person() throws -> String { "alice" }
            func listen() throws {}
            func waitForPush(milliseconds: Int32, excluding device: String) throws -> Bool {
                var announced = false
                hub.note { state in
                    state.looks += 1
                    announced = state.announced
                    state.announced = false
                }
                return announced
            }
        }
    }

    struct Running {
        let hub: CountingHub
        let machine: ManualClock
        let store: Store
        let task: Task<Void, any Error>
        let directory: String

        /// Moves time on by `milliseconds` and waits until the service
        /// sleeps again.
        func pass(milliseconds: Int64) async {
            machine.advance(nanoseconds: milliseconds * 1_000_000)
            await machine.untilAsleep()
        }
    }

    func start(refusing refusals: Int = 0) async throws -> Running {
        let directory = FileManager.default.temporaryDirectory.path + "/trackee-hub-service-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = try Store(path: directory + "/store.sqlite3")
        let hub = CountingHub()
        hub.refuse(refusals)
        let machine = ManualClock(Instant(seconds: 1_795_417_200))
        let service = HubReplication(
            connect: { try hub.connect() },
            settings: HubSettings(url: "postgresql:///test", device: "laptop", origin: "test"), store: store,
            clocks: machine.clocks, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let task = Task { try await service.run() }
        await machine.untilAsleep()
        return Running(hub: hub, machine: machine, store: store, task: task, directory: directory)
    }

    func end(_ running: Running) async throws {
        running.task.cancel()
        try await running.task.value
        try FileManager.default.removeItem(atPath: running.directory)
    }

    @Test func anUnreachableHubIsTriedAgainAfterOneTwoAndFourSeconds() async throws {
        let running = try await start(refusing: 3)
        #expect(running.hub.counts.connections == 1)
        await running.pass(milliseconds: 999)
        #expect(running.hub.counts.connections == 1)
        await running.pass(milliseconds: 1)
        #expect(running.hub.counts.connections == 2)
        await running.pass(milliseconds: 2000)
        #expect(running.hub.counts.connections == 3)
        await running.pass(milliseconds: 3999)
        #expect(running.hub.counts.connections == 3)
        await running.pass(milliseconds: 1)
        // Reached: the first sync, and the looks begin.
        #expect(running.hub.counts.connections == 4)
        #expect(running.hub.counts.pulls == 1)
        #expect(try running.store.hubDevice()?.lastError == nil)
        try await end(running)
    }

    @Test func anAnnouncedPushOrAChangeHereIsSyncedAtTheNextLook() async throws {
        let running = try await start()
        // Synced at start, and listening through the first look.
        #expect(running.hub.counts.pulls == 1)
        #expect(running.hub.counts.looks == 1)
        await running.pass(milliseconds: 200)
        #expect(running.hub.counts.looks == 2)
        #expect(running.hub.counts.pulls == 1)
        // Heard while listening: synced, and on to the next look at once.
        running.hub.announce()
        await running.pass(milliseconds: 200)
        #expect(running.hub.counts.looks == 4)
        #expect(running.hub.counts.pulls == 2)
        _ = try running.store.apply(
            Intent(.start(TimerParameters(project: "Docs")), at: Instant(seconds: 1_795_417_200)),
            now: Instant(seconds: 1_795_417_200))
        await running.pass(milliseconds: 200)
        // The start's project, entry and log row.
        #expect(running.hub.counts.pulls == 3)
        #expect(running.hub.counts.pushed == 3)
        await running.pass(milliseconds: 200)
        #expect(running.hub.counts.pulls == 3)
        try await end(running)
    }

    @Test func aSyncComesEveryMinuteWithNothingToDo() async throws {
        let running = try await start()
        for _ in 0..<299 { await running.pass(milliseconds: 200) }
        #expect(running.hub.counts.pulls == 1)
        #expect(running.hub.counts.looks == 300)
        await running.pass(milliseconds: 200)
        #expect(running.hub.counts.pulls == 2)
        try await end(running)
    }

    @Test func cancellingEndsTheServiceWithoutMovingTime() async throws {
        let running = try await start(refusing: 100)
        // Asleep in its backoff: cancelled, it ends at once.
        running.task.cancel()
        try await running.task.value
        #expect(running.hub.counts.connections == 1)
        try FileManager.default.removeItem(atPath: running.directory)
    }
}
