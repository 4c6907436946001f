import Synchronization
import TrackeeAPI

/// The open event streams, and what goes to all of them. Each stream is
/// two closures that write on its connection's event loop, so the hub
/// holds no channel.
final class EventHub: Sendable {
    struct Stream: Sendable {
        /// Writes a frame.
        var send: @Sendable (String) -> Void
        /// Writes the last frame and ends the response.
        var finish: @Sendable (String) -> Void
        /// Whether it takes the `changed` frames too (the web page's).
        var changes = false
    }

    private struct State {
        var streams: [Int: Stream] = [:]
        var next = 0
        var ended = false
        /// How far the streams have been sent; nil while none is open, so
        /// the store is not read for nobody.
        var cursor: EventStream.Cursor?
    }

    private let state = Mutex(State())
    /// Called when a first stream opens, so the store is read from its cursor.
    private let firstOpened: @Sendable () -> Void

    init(firstOpened: @escaping @Sendable () -> Void = {}) {
        self.firstOpened = firstOpened
    }

    /// Adds a stream whose client asked at `cursor`; nil once the hub has
    /// ended (the daemon is stopping). The first stream sets where the
    /// reading starts; a later one joins where the others are.
    func open(_ stream: Stream, at cursor: EventStream.Cursor) -> Int? {
        let (id, first) = state.withLock { state -> (Int?, Bool) in
            guard !state.ended else { return (nil, false) }
            state.next += 1
            state.streams[state.next] = stream
            let first = state.cursor == nil
            if first { state.cursor = cursor }
            return (state.next, first)
        }
        if first { firstOpened() }
        return id
    }

    func close(_ id: Int) {
        state.withLock { state in
            state.streams.removeValue(forKey: id)
            if state.streams.isEmpty { state.cursor = nil }
        }
    }

    /// Where to read from; nil while no stream is open.
    var cursor: EventStream.Cursor? { state.withLock { $0.cursor } }

    /// Sends `frames`, read up to `cursor`, to every stream, and
    /// `changes` to the streams that take them.
    func publish(_ frames: [String], changes: [String] = [], upTo cursor: EventStream.Cursor) {
        state.withLock { state in
            if state.cursor != nil { state.cursor = cursor }
        }
        publish(frames)
        guard !changes.isEmpty else { return }
        let text = changes.joined()
        for stream in state.withLock({ Array($0.streams.values) }) where stream.changes { stream.send(text) }
    }

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
