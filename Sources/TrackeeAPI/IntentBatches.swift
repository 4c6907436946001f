import Dispatch
import Glibc
import Synchronization
import TrackeeCore
import TrackeeStore

/// The timer requests waiting for the store, written several to a
/// transaction (a group commit): while one batch is written, the requests
/// that arrive queue up, and the next transaction takes them all, up to
/// ``largest``. Each request keeps its own savepoint, answer and error
/// (``Store/apply(_:)``); what they share is the commit and the pages
/// they touch, which is most of what one intent alone costs.
///
/// The clock is read under the queue's lock, as the request joins it, so
/// intents reach the store in the order of their times: a stop read at
/// 10:00:00 never comes after a start read at 10:00:01. Batches are written
/// on a queue of their own, off the concurrency pool, which meanwhile
/// reads and authenticates the next requests.
final class IntentBatches: Sendable {
    typealias Applied = Result<(result: IntentResult?, answer: HTTPAnswer), StoreError>

    /// The most requests one transaction takes.
    static let largest = 64
    /// How long a batch waits for more under load, in microseconds.
    static let linger: UInt32 = 1_000

    private struct Waiting {
        var request: HTTPIntent
        var continuation: CheckedContinuation<Result<Applied, Problem>, Never>
    }

    private struct State {
        var waiting: [Waiting] = []
        var writing = false
    }

    private let store: Store
    private let clock: @Sendable () -> Instant
    private let state = Mutex(State())
    private let writer = DispatchQueue(label: "trackee.http.intents")

    init(store: Store, clock: @escaping @Sendable () -> Instant) {
        self.store = store
        self.clock = clock
    }

    /// Reads the clock, makes the request with it (a refusal is thrown
    /// at once), and returns what the store made of it.
    func apply(_ make: (Instant) throws(Problem) -> HTTPIntent) async throws(Problem) -> Applied {
        let made: Result<Applied, Problem> = await withCheckedContinuation { continuation in
            let refused: Problem? = state.withLock { state in
                let request: HTTPIntent
                do throws(Problem) {
                    request = try make(clock())
                } catch {
                    return error
                }
                state.waiting.append(Waiting(request: request, continuation: continuation))
                if !state.writing {
                    state.writing = true
                    writer.async { self.write() }
                }
                return nil
            }
            if let refused { continuation.resume(returning: .failure(refused)) }
        }
        return try made.get()
    }

    /// Writes batches until no request waits.
    private func write() {
        var previous = 0
        while true {
            // Under load (the last batch held several), wait a moment for
            // more to join: a transaction's cost is mostly the pages it
            // writes, which a larger batch shares. A lone request goes at once.
            if previous > 1 && state.withLock({ $0.waiting.count }) < Self.largest / 4 { usleep(Self.linger) }
            let batch: [Waiting] = state.withLock { state in
                guard !state.waiting.isEmpty else {
                    state.writing = false
                    return []
                }
                let count = min(state.waiting.count, Self.largest)
                defer { state.waiting.removeFirst(count) }
                return Array(state.waiting.prefix(count))
            }
            guard !batch.isEmpty else { return }
            previous = batch.count
            let results: [Applied]
            do {
                results = try store.apply(batch.map(\.request))
            } catch {
                let failed = (error as? StoreError) ?? .database(path: store.path, message: "\(error)")
                results = Array(repeating: .failure(failed), count: batch.count)
            }
            for (waiting, result) in zip(batch, results) { waiting.continuation.resume(returning: .success(result)) }
        }
    }
}
