import TrackeeAutomation
import TrackeeCore
import TrackeeStore

extension API {
    /// Hands what the body `decode`s into to the daemon: 202 when it is an
    /// event, 422 with the sentence `trackee run` would log when it is not.
    /// Under a key, the 202 is stored once the daemon took the events and
    /// repeated for the same request (the body is not decoded again); a
    /// refusal is not stored, so a retry is judged again.
    func event(_ request: APIRequest, _ principal: APIPrincipal, key: String?,
               decode: () -> (inputs: [EventInput], refusal: String?)) async throws(Problem) -> APIResponse
    {
        let fingerprint = IdempotencyKey.fingerprint(method: request.method, path: request.path, body: request.body)
        if let key {
            guard keysInFlight.claim(key) else { throw Problem.keyInFlight(key) }
        }
        defer { if let key { keysInFlight.release(key) } }
        if let key, let stored = try storing({ try store.httpAnswer(key: key) }) {
            guard stored.fingerprint == fingerprint else { throw Problem.keyReused(key) }
            return .json(stored.status, stored.body)
        }
        let (inputs, refusal) = decode()
        if !inputs.isEmpty { await daemon.take(inputs, source: .http(device: principal.device)) }
        if let refusal { throw Problem.unprocessable("event-refused", refusal) }
        let answer = HTTPAnswer(fingerprint: fingerprint, status: 202, body: Array(#"{"accepted":true}"#.utf8))
        guard let key else { return .json(answer.status, answer.body) }
        let now = self.now()
        let kept = try storing { try store.keepHTTPAnswer(answer, key: key, now: now) }
        guard kept.fingerprint == fingerprint else { throw Problem.keyReused(key) }
        return .json(kept.status, kept.body)
    }

    /// `POST /v1/owntracks`: the OwnTracks app in HTTP mode. `location`
    /// and `transition` messages are decoded as the line `mosquitto_sub`
    /// would print, and their fixes and transitions go to the daemon;
    /// other types (`lwt`, `waypoints`, `card` …) and empty bodies are
    /// taken and ignored. The answer is the JSON array the app reads
    /// commands from: empty, trackee sends none. A message that gives no
    /// fix is answered the same: an error would make the app send it again
    /// and again.
    func ownTracks(_ request: APIRequest, _ principal: APIPrincipal) async throws(Problem) -> APIResponse {
        // The app posts an empty body when a friend is deleted, a message
        // it would publish empty over MQTT; OwnTracks' HTTP documentation
        // says to ignore it.
        if request.body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            return .json(200, Array("[]".utf8))
        }
        let fields = try JSONBody.object(request.body)
        guard let type = fields["_type"] as? String else {
            throw Problem.badRequest("missing-field", "The field \"_type\" is missing or not a string; this is not an OwnTracks message.")
        }
        if type == "location" || type == "transition" {
            let inputs = EventInput.decode(line: EventsRequest.asSent(request.body), now: now(), zone: zone).inputs
            if !inputs.isEmpty { await daemon.take(inputs, source: .http(device: principal.device)) }
        }
        return .json(200, Array("[]".utf8))
    }
}
