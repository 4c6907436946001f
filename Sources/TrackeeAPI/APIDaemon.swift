import TrackeeCore

/// What only the running daemon can do for the API: take an event line as
/// `trackee run` reads it on stdin.
public protocol APIDaemon: Sendable {
    /// One event line (focus, desk, an OwnTracks message …), coming from
    /// `source`.
    func take(eventLine: String, source: ChangeSource) async -> EventLineOutcome
}

/// What the daemon did with an event line.
public enum EventLineOutcome: Sendable, Equatable {
    case accepted
    /// The line is not one `trackee run` reads; the sentence says why.
    case refused(String)
}
