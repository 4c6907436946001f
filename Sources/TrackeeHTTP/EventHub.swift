import Synchronization

/// The open event streams, and what goes to all of them. Each stream is
/// two closures that write on its connection's event loop, so the hub
/// holds no channel.
final class EventHub: Sendable {
    struct Stream: Sendable {
        /// Writes a frame.
        var send: @Sendable (String) -> Void
        /// Writes the last frame and ends the response.
        var finish: @Sendable (String) -> Void
    }

    private struct State {
        var streams: [Int: Stream] = [:]
        var next = 0
        var ended = false
    }

    private let state = Mutex(State())

    /// Adds a stream; nil once the hub has ended (the daemon is stopping).
    func open(_ stream: Stream) -> Int? {
        state.withLock { state in
            guard !state.ended else { return nil }
            state.next += 1
            state.streams[state.next] = stream
            return state.next
        }
    }

    func close(_ id: Int) {
        _ = state.withLock { $0.streams.removeValue(forKey: id) }
    }

    var isEmpty: Bool { state.withLock { $0.streams.isEmpty } }

    func publish(_ frames: [String]) {
        guard !frames.isEmpty else { return }
        let text = frames.joined()
        for stream in state.withLock({ Array($0.streams.values) }) { stream.send(text) }
    }

    /// Ends every stream with `last`; later opens are refused.
    func end(with last: String) {
        let streams = state.withLock { state in
            state.ended = true
            defer { state.streams = [:] }
            return Array(state.streams.values)
        }
        for stream in streams { stream.finish(last) }
    }
}
