import TrackeeCore

/// A desk change as a watcher hands it to the daemon: the change, when the
/// watch says it happened, and, for a coming suspend or shutdown, the
/// sleep inhibitor to release once the rules it fires are committed.
public struct DeskChange: Sendable {
    public var event: DeskEvent
    /// The edge's own time where the watch gives one (logind's
    /// `IdleSinceHint`), else the moment the signal arrived.
    public var time: Instant
    /// Held until the daemon has applied and committed what `event` fires.
    public var inhibitor: SleepInhibitor?

    public init(_ event: DeskEvent, time: Instant, inhibitor: SleepInhibitor? = nil) {
        self.event = event
        self.time = time
        self.inhibitor = inhibitor
    }
}
