import Foundation
import Logging
import ServiceLifecycle
import TrackeeCore
import TrackeeDesk
import TrackeeStore

/// Builds the desk's monitor once the rules are loaded: `idleInterval` is
/// how soon (milliseconds) an idle watch that polls must report idleness for
/// the shortest idle length the rules name.
public typealias DeskMonitorMaker = @Sendable (_ idleInterval: Int, _ log: @escaping DeskLog) -> DeskMonitor

/// The desk as a trigger: idleness, the screen lock, sleep, the network
/// and the power supply from D-Bus, devices from the kernel's uevent
/// socket. Logs in one line what attached, then hands every change to the
/// core; a coming suspend or shutdown is held off (logind's delay
/// inhibitor) until the rules it fires are committed.
struct DeskService: Service {
    let core: DaemonCore
    let logger: Logger
    let make: DeskMonitorMaker

    func run() async throws {
        let interval = await core.idleWatchInterval
        let logger = logger
        let monitor = make(interval) { level, message in
            switch level {
            case .debug: logger.debug("\(message)")
            case .info: logger.info("\(message)")
            case .warning: logger.warning("\(message)")
            }
        }
        // The first attach waits on the buses (at most two seconds): off
        // the shared pool, whose threads the other services need.
        let summary = await withCheckedContinuation { (done: CheckedContinuation<DeskSummary, Never>) in
            Thread.detachNewThread { done.resume(returning: monitor.start()) }
        }
        logger.info("\(summary.description)")
        let core = core
        await cancelWhenGracefulShutdown {
            for await change in monitor.changes {
                await core.handle(change.event, at: change.time)
                // Committed (or refused and logged): sleep may go on.
                change.inhibitor?.release()
            }
        }
        monitor.stop()
    }
}

extension Daemon {
    /// The desk watches `trackee run` attaches: the D-Bus watches on the
    /// buses `environment` names (or the standard ones) and the kernel's
    /// device events; a change is stamped by `clocks`' wall clock, and the
    /// buses' threads wait on its sleep clock.
    /// The kinds' watches read `settings`' sections (a cube's), and their
    /// cursors in `store` (``DeskMemory``).
    public static func standardDesk(environment: [String: String], clocks: Clocks = .system,
                                    settings: DeskSettings = .init(), store: Store? = nil) -> DeskMonitorMaker {
        let memory = store.map { store in
            DeskMemory(cursor: { subject in try? store.deskCursor(subject) },
                       keep: { cursor in try? store.takeDeskCursor(cursor) })
        } ?? .none
        return { interval, log in
            DeskMonitor(environment: environment, idleIntervalMilliseconds: interval, clock: { clocks.wall.now },
                        monotonic: clocks.desk, settings: settings, memory: memory, log: log)
        }
    }
}

extension Clocks {
    /// The sleep clock as the desk's threads wait on it: in poll(2), for
    /// the time left on it.
    var desk: any DeskClock {
        // Bound first: `sleep` alone also names the method, and is not opened.
        let base = sleep
        return Self.polling(base)
    }

    private static func polling<Base: Clock<Duration>>(_ base: Base) -> any DeskClock { PollClock(base) }
}

/// What service-lifecycle's debug log names this service by: its name, and
/// none of what it holds (settings, passwords, tokens).
extension DeskService: CustomStringConvertible {
    var description: String { "DeskService" }
}
