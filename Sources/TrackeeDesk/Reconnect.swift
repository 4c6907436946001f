/// When a bus's thread tries its bus again: after each failed connect or
/// lost connection, once the next wait of its ``Backoff`` has passed. A
/// connection that lasted ``goodConnection`` was a good one: the loss that
/// ends it starts the backoff again from its shortest wait.
///
/// Times are readings of the thread's ``DeskClock``.
struct Reconnect {
    static let goodConnection: Duration = .seconds(60)
    private var backoff = Backoff()
    /// When the connection in use was made; nil while there is none.
    private var connectedAt: Duration?

    /// The bus answered at `now`.
    mutating func connected(at now: Duration) {
        connectedAt = now
    }

    /// Connecting failed, or the connection was lost, at `now`: when to
    /// try again.
    mutating func retry(after now: Duration) -> Duration {
        if let connectedAt, now - connectedAt >= Self.goodConnection { backoff.reset() }
        connectedAt = nil
        return now + backoff.take()
    }
}
