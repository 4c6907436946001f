/// The key of a focus change read from an event line that carries its own
/// time: a replayed line (a restarted daemon reading the same stream)
/// meets it in the store and changes nothing.
///
///     FocusLineKey(time: Instant(seconds: 1_795_424_400), state: .on, mode: "Deep").text
///     // "stdin:1795424400:on:deep"
public struct FocusLineKey: Sendable, Hashable {
    public var time: Instant
    public var state: FocusState
    /// Modes compare without regard to case, so the key holds it folded.
    public var mode: String

    public init(time: Instant, state: FocusState, mode: String) {
        self.time = time
        self.state = state
        self.mode = mode.lowercased()
    }

    /// The text the store keeps; releases before this type wrote the same.
    public var text: String { "stdin:\(time.seconds):\(state.rawValue):\(mode)" }
}
