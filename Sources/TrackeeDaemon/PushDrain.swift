import Dispatch
import Glibc
import Logging
import ServiceLifecycle
import TrackeeAutomation
import TrackeeCore
import TrackeeStore

/// How `trackee run` pushes the sync outbox: by running `trackee-sync
/// drain` (the program `trackee sync` hands its work to) whenever a push
/// is due, in its own process, so no firing waits for the network.
public struct PushDrain: Sendable {
    /// `trackee-sync drain --job …`.
    public let argv: [String]
    public let environment: [String: String]
    public let store: Store

    public init(argv: [String], environment: [String: String], store: Store) {
        self.argv = argv
        self.environment = environment
        self.store = store
    }
}

/// Runs a drain when the store says a push is due: soon after a change
/// (it looks every few seconds, reading only), and when a change's backoff
/// ends. A refused token pauses draining for an hour; the log says why.
struct PushDrainService: Service {
    let drain: PushDrain
    /// The outbox's due times are wall times; the looks sleep on `sleep`.
    let clocks: Clocks
    let logger: Logger
    /// How often the store is asked whether a push is due.
    static let look: Int64 = 5_000_000_000
    static let pauseAfterBadToken: Int64 = 3600

    func run() async throws {
        var pausedUntil: Int64 = 0
        while !Task.isCancelled {
            let now = clocks.wall.now.seconds
            let due: Instant?
            do { due = try drain.store.nextPushDue() } catch {
                logger.error("sync: cannot read the outbox: \(error)")
                due = nil
            }
            if let due, due.seconds <= now, now >= pausedUntil {
                let status = await push()
                if status == 77 {
                    pausedUntil = now + Self.pauseAfterBadToken
                    logger.error("sync: the token was refused; pushing pauses for an hour (trackee sync status says which target)")
                }
                continue
            }
            let stopping = await cancelWhenGracefulShutdown {
                try? await clocks.sleep(nanoseconds: Self.look)
                return Task.isCancelled
            }
            if stopping { return }
        }
    }

    /// One `trackee-sync drain`, waited for off the cooperative threads.
    private func push() async -> Int32 {
        let pid: pid_t
        do { pid = try Spawn.start(drain.argv, environment: drain.environment) } catch {
            logger.error("sync: \(error)")
            return 1
        }
        let status = await withCheckedContinuation { (done: CheckedContinuation<Int32, Never>) in
            DispatchQueue.global().async { done.resume(returning: Spawn.wait(pid)) }
        }
        if status != 0 && status != 75 && status != 65 { logger.error("sync: trackee-sync ended with status \(status)") }
        return status
    }
}

/// What service-lifecycle's debug log names this service by: its name, and
/// none of what it holds (settings, passwords, tokens).
extension PushDrainService: CustomStringConvertible {
    var description: String { "PushDrainService" }
}
