import TrackeeAPI
import TrackeeCore
import TrackeeDaemon

/// The daemon takes the API's event lines (`POST /v1/focus`, `/v1/events`,
/// `/v1/owntracks`) the way it takes stdin's.
extension DaemonCore: APIDaemon {
    public func take(eventLine: String, source: ChangeSource) async -> EventLineOutcome {
        take(line: eventLine, source: source).map(EventLineOutcome.refused) ?? .accepted
    }
}
