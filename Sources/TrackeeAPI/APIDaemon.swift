import TrackeeAutomation
import TrackeeCore

/// What only the running daemon can do for the API: take the events a
/// request's body decoded into, as `trackee run` takes its stdin's.
public protocol APIDaemon: Sendable {
    /// Events (focus, desk) and fixes or transitions (an OwnTracks
    /// message), in order; a focus change they make carries `source`.
    func take(_ inputs: [EventInput], source: ChangeSource) async
}
