import Dispatch

/// Runs a test's tasks on a serial queue of their own, off the shared
/// cooperative pool, which the suites that wait on processes hold (it has
/// as many threads as cores): a test timed in wall time then measures
/// itself, not them.
///
/// ```swift
/// try await withTaskExecutorPreference(QueueExecutor("week")) { … }
/// ```
final class QueueExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: DispatchQueue

    init(_ label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
