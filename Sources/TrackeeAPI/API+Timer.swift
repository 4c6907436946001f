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
    func timer(_ route: Route, _ request: APIRequest, _ principal: APIPrincipal) throws(Problem) -> APIResponse {
        let body = try JSONBody(request.body, allowed: TimerRequest.fields(route.endpoint))
        let key = try idempotencyKey(request, bodyKey: TimerRequest.key(in: body))
        if let key {
            guard keysInFlight.claim(key) else { throw Problem.keyInFlight(key) }
        }
        defer { if let key { keysInFlight.release(key) } }

        // The clock is read and the intent applied under one lock: two
        // requests would otherwise reach the store's one writer in the
        // other order than they read the clock, and a stop read at 10:00:00
        // would come after a start at 10:00:01 and be refused.
        return try applying.withLock { _ throws(Problem) -> APIResponse in
            let now = self.now()
            let parsed = try TimerRequest(route.endpoint, body: body, now: now, zone: zone)
            let intent = Intent(parsed.action, at: parsed.at, source: .http(device: principal.device), key: key)
            let newProjects: NewProjects = createsProjects ? .create : .refuse
            let zone = self.zone
            let render = { (result: IntentResult) in
                (status: 200, body: JSONBytes.encode(IntentReportView(result, key: key, zone: zone, now: now)))
            }
            guard let key else {
                let result = try storing { try store.apply(intent, now: now, newProjects: newProjects) }
                let answer = render(result)
                return .json(answer.status, answer.body)
            }
            let fingerprint = IdempotencyKey.fingerprint(method: request.method, path: request.path, body: request.body)
            let (_, answer) = try storing {
                try store.apply(intent, now: now, newProjects: newProjects, fingerprint: fingerprint, render: render)
            }
            guard answer.fingerprint == fingerprint else { throw Problem.keyReused(key) }
            return .json(answer.status, answer.body)
        }
    }
}
