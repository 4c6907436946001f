import TrackeeCore

extension API {
    /// Hands an event line to the daemon: 202 when it takes it, 422 with
    /// its sentence when it refuses it.
    func event(_ line: String, _ principal: APIPrincipal) async throws(Problem) -> APIResponse {
        switch await daemon.take(eventLine: line, source: .http(device: principal.device)) {
        case .accepted:
            return .json(202, Array(#"{"accepted":true}"#.utf8))
        case .refused(let sentence):
            throw Problem.unprocessable("event-refused", sentence)
        }
    }

    /// `POST /v1/owntracks`: the OwnTracks app in HTTP mode. `location`
    /// and `transition` messages go to the daemon as the line
    /// `mosquitto_sub` would print; other types (`lwt`, `waypoints`,
    /// `card` …) are taken and ignored. The answer is the JSON array the
    /// app reads commands from: empty, trackee sends none. A message the
    /// daemon refuses is answered the same (the daemon warns about it):
    /// an error would make the app send it again and again.
    func ownTracks(_ request: APIRequest, _ principal: APIPrincipal) async throws(Problem) -> APIResponse {
        let fields = try EventsRequest.object(request.body)
        guard let type = fields["_type"] as? String else {
            throw Problem.badRequest("missing-field", "The field \"_type\" is missing or not a string; this is not an OwnTracks message.")
        }
        if type == "location" || type == "transition" {
            _ = await daemon.take(eventLine: EventsRequest.asSent(request.body), source: .http(device: principal.device))
        }
        return .json(200, Array("[]".utf8))
    }
}
