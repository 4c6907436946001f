import Foundation
import Synchronization
import TrackeeCore
import TrackeeDesk
import TrackeeTestSupport

/// A change as tests compare it: the event, its time, and whether it
/// carries a held inhibitor.
struct Seen: Equatable, CustomStringConvertible {
    var event: DeskEvent
    var time: Instant
    var inhibitorHeld = false

    init(_ event: DeskEvent, at time: Instant, inhibitorHeld: Bool = false) {
        self.event = event
        self.time = time
        self.inhibitorHeld = inhibitorHeld
    }

    init(_ change: DeskChange) {
        self.init(change.event, at: change.time, inhibitorHeld: change.inhibitor?.isHeld ?? false)
    }

    var description: String { "\(event) at \(time)\(inhibitorHeld ? " holding an inhibitor" : "")" }
}

/// Collects what a desk monitor reports, on a task of its own, so a test
/// can wait for a number of changes with a deadline.
final class ChangeRecorder: Sendable {
    private let state = Mutex<(changes: [DeskChange], finished: Bool)>(([], false))

    init(_ stream: AsyncStream<DeskChange>) {
        Task { [self] in
            for await change in stream { state.withLock { $0.changes.append(change) } }
            state.withLock { $0.finished = true }
        }
    }

    var changes: [DeskChange] { state.withLock { $0.changes } }
    var finished: Bool { state.withLock { $0.finished } }

    /// The changes once there are `count` of them, or all there are after 10 s.
    func wait(for count: Int) async -> [DeskChange] {
        _ = await until { self.changes.count >= count }
        return changes
    }

    /// `wait(for:)` as compared values.
    func seen(_ count: Int) async -> [Seen] {
        await wait(for: count).map(Seen.init)
    }
}

/// The desk's log lines, as a `DeskLog` records them.
final class LogRecorder: Sendable {
    private let lines = Mutex<[String]>([])

    var log: DeskLog { { [self] level, line in lines.withLock { $0.append("\(level): \(line)") } } }
    var all: [String] { lines.withLock { $0 } }

    /// Whether a line after the first `skipping` ones satisfies `match`
    /// within 10 s.
    func wait(skipping: Int = 0, for match: @escaping @Sendable (String) -> Bool) async -> Bool {
        await until { self.all.dropFirst(skipping).contains(where: match) }
    }
}

/// Polls `condition` every 10 ms until it holds (true) or 10 s have passed (false).
func until(_ condition: () -> Bool) async -> Bool {
    await eventually(within: 10, every: .milliseconds(10), condition)
}
