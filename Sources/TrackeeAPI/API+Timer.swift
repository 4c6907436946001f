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
        if let key {
            guard keysInFlight.claim(key) else { throw Problem.keyInFlight(key) }
        }
        defer { if let key { keysInFlight.release(key) } }

        // The clock is read as the request joins the store's queue, so
        // intents are applied in the order of their times (IntentBatches).
        let fingerprint = key == nil
            ? "" : IdempotencyKey.fingerprint(method: request.method, path: request.path, body: request.body)
        let (zone, newProjects) = (self.zone, createsProjects ? NewProjects.create : .refuse)
        let applied = try await batches.apply { now throws(Problem) -> HTTPIntent in
            let parsed = try TimerRequest(route.endpoint, body: body, now: now, zone: zone)
            let intent = Intent(parsed.action, at: parsed.at, source: .http(device: principal.device), key: key)
            return HTTPIntent(intent, now: now, newProjects: newProjects, fingerprint: fingerprint) { result in
                (status: 200, body: JSONBytes.encode(IntentReportView(result, key: key, zone: zone, now: now)))
            }
        }
        let answer = try storing { try applied.get().answer }
        if let key, answer.fingerprint != fingerprint { throw Problem.keyReused(key) }
        return .json(answer.status, answer.body)
    }
}
