import TrackeeCore
import TrackeeStore

extension API {
    /// `GET /v1/status`: the fields of `trackee status --json`.
    /// With a generation, the answer is made once per store change and
    /// second: it depends on nothing else.
    func status() throws(Problem) -> APIResponse {
        let now = self.now()
        let current = generation?.value
        if let current, let kept = statusCache.value(now.seconds, generation: current) { return .json(200, kept) }
        let reading = try storing { try StatusReading(store: store, zone: zone, now: now, weekStart: weekStart) }
        let body = JSONBytes.encode(reading.view(zone: zone, now: now))
        if let current { statusCache.keep(body, for: now.seconds, generation: current) }
        return .json(200, body)
    }

    /// `GET /v1/entries?from=&to=`: the finished entries starting in
    /// [from, to), as `trackee export --format json` writes them.
    func entries(_ request: APIRequest) throws(Problem) -> APIResponse {
        let now = self.now()
        let from = try queryTime(request, "from", now: now)
        let to = try queryTime(request, "to", now: now)
        if let from, let to, to < from {
            throw Problem.badRequest("bad-time", "The query parameter \"to\" is before \"from\"; give a \"to\" after the \"from\".")
        }
        if let unknown = request.query.map(\.0).first(where: { $0 != "from" && $0 != "to" }) {
            throw Problem.badRequest("unknown-field", "The query parameter \"\(unknown)\" is unknown here; the parameters are from, to.")
        }
        let text = try storing {
            var text = ""
            try store.export(Exporter(format: .json), from: from, to: to, zone: zone) { text += $0 }
            return text
        }
        return .json(200, Array(text.utf8))
    }

    /// The time the query parameter `name` gives, in any form the
    /// commands' time options read; nil when it is absent.
    func queryTime(_ request: APIRequest, _ name: String, now: Instant) throws(Problem) -> Instant? {
        guard let text = request.query(name) else { return nil }
        do {
            return try TimeExpression.parse(text, now: now, zone: zone)
        } catch {
            throw Problem.badRequest("bad-time", "The query parameter \"\(name)\": \(error)")
        }
    }
}
