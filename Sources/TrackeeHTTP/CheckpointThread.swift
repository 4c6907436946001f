import Foundation
import Logging
import Synchronization
import TrackeeAPI
import TrackeeStore

/// The store's WAL checkpoints while the server runs, on a thread of
/// their own: every fifth of a second after the store changed, so no
/// request waits behind a checkpoint's syncs (``WALCheckpointer``).
final class CheckpointThread: Sendable {
    private let stopping = Mutex(false)
    private let done = DispatchSemaphore(value: 0)

    /// Nil when the second connection cannot be opened; the store's
    /// commits then checkpoint as they always did.
    init?(store: Store, generation: StoreGeneration, logger: Logger) {
        guard let checkpointer = try? store.checkpointingAside() else { return nil }
        Thread.detachNewThread { [self] in
            var seen = generation.value
            var failing = false
            while !stopping.withLock({ $0 }) {
                usleep(200_000)
                let now = generation.value
                guard now != seen else { continue }
                seen = now
                do {
                    try checkpointer.checkpoint()
                    failing = false
                } catch {
                    // Said once per run of failures; the next change tries again.
                    if !failing { logger.warning("http: cannot checkpoint the store: \(error)") }
                    failing = true
                }
            }
            try? checkpointer.finish()
            done.signal()
        }
    }

    /// Checkpoints once more, gives checkpoints back to the store's
    /// commits, and returns when that is done.
    func stop() {
        stopping.withLock { $0 = true }
        done.wait()
    }
}
