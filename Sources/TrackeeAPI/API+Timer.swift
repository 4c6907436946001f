import TrackeeCore
import TrackeeStore

extension API {
    /// The request's idempotency key: the `Idempotency-Key` header or the
    /// body's `idempotency_key` field; both must agree when both are given.
    func idempotencyKey(_ request: APIRequest, bodyKey: String?) throws(Problem) -> String? {
        let headerKey = try request.header("Idempotency-Key").map { (v: String) throws(Problem) in
            try IdempotencyKey.parse(header: v)
        }
        if let headerKey, let bodyKey, headerKey != bodyKey {
            throw Problem.badRequest(
                "bad-idempotency-key", "The Idempotency-Key header and the field \"idempotency_key\" give different keys.")
        }
        return headerKey ?? bodyKey
    }

    /// `POST /v1/start|stop|cancel`: one `Store.apply` with the source
    /// `http(device)`, answered as `trackee start --json` prints it.
    func timer(_ route: Route, _ request: APIRequest, _ principal: APIPrincipal) async throws(Problem) -> APIResponse {
        let body = try JSONBody(request.body, allowed: TimerRequest.fields(route.endpoint))
        let key = try idempotencyKey(request, bodyKey: TimerRequest.key(in: body))
        let fingerprint = key == nil
            ? "" : IdempotencyKey.fingerprint(method: request.method, path: request.path, body: request.body)
        let zone = self.zone
        let answer = try await applyTimer(key: key, fingerprint: fingerprint, source: .http(device: principal.device)) {
            now throws(Problem) in
            let parsed = try TimerRequest(route.endpoint, body: body, now: now, zone: zone)
            return (parsed.action, parsed.at)
        }
        return .json(answer.status, answer.body)
    }

    /// A timer intent of the API or the web page, the one way both take
    /// to `Store.apply`: the key claimed while its request is under way
    /// (409 for a second one meanwhile), the clock read in queue order
    /// and handed to `make`, which reads the request's fields (a refusal
    /// is thrown as it is), then the answer stored under the key and
    /// repeated for a request of the same `fingerprint` (422 for another).
    /// Answers as `trackee start --json` prints the result.
    package func applyTimer(
        key: String?, fingerprint: String, source: ChangeSource,
        _ make: (Instant) throws(Problem) -> (action: Intent.Action, at: Instant)
    ) async throws(Problem) -> (status: Int, body: [UInt8]) {
        if let key {
            guard keysInFlight.claim(key) else { throw Problem.keyInFlight(key) }
        }
        defer { if let key { keysInFlight.release(key) } }
        // The clock is read as the request joins the store's queue, so
        // intents are applied in the order of their times (IntentBatches).
        let (zone, newProjects) = (self.zone, createsProjects ? NewProjects.create : .refuse)
        let applied = try await batches.apply { now throws(Problem) -> HTTPIntent in
            let (action, at) = try make(now)
            let intent = Intent(action, at: at, source: source, key: key)
            return HTTPIntent(intent, now: now, newProjects: newProjects, fingerprint: fingerprint) { result in
                (status: 200, body: JSONBytes.encode(IntentReportView(result, key: key, zone: zone, now: now)))
            }
        }
        let answer = try storing { try applied.get().answer }
        if let key, answer.fingerprint != fingerprint { throw Problem.keyReused(key) }
        return (answer.status, answer.body)
    }
}
