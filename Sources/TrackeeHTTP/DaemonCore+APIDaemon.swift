import TrackeeAPI
import TrackeeDaemon

/// The daemon takes what the API's event requests decode into (`POST
/// /v1/focus`, `/v1/events`, `/v1/owntracks`) the way it takes stdin's:
/// `DaemonCore.take(_:source:)`.
extension DaemonCore: APIDaemon {}
