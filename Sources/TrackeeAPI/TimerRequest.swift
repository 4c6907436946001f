import TrackeeCore

/// The body of `POST /v1/start`, `/v1/stop` or `/v1/cancel`: the CLI's
/// fields, read and refused as the CLI reads and refuses them.
struct TimerRequest {
    var action: Intent.Action
    /// When the intent takes effect: `at`, read as `--at` reads it.
    var at: Instant
    /// `idempotency_key`, for clients that send static bodies.
    var bodyKey: String?

    static func fields(_ endpoint: Route.Endpoint) -> Set<String> {
        switch endpoint {
        case .start: ["project", "client", "description", "tags", "at", "idempotency_key"]
        case .stop: ["at", "idempotency_key"]
        default: ["idempotency_key"]
        }
    }

    /// The key a body carries, read before the rest so a request can
    /// claim its key before anything else happens.
    static func key(in body: JSONBody) throws(Problem) -> String? {
        let key = try body.string("idempotency_key")
        if let key { try IdempotencyKey.check(key, field: "The field \"idempotency_key\"") }
        return key
    }

    init(_ endpoint: Route.Endpoint, body: JSONBody, now: Instant, zone: Zone) throws(Problem) {
        bodyKey = try Self.key(in: body)
        at = now
        if let text = try body.string("at") {
            do {
                at = try TimeExpression.parse(text, now: now, zone: zone)
            } catch {
                throw Problem.unprocessable("bad-time", "The field \"at\": \(error)")
            }
        }
        switch endpoint {
        case .start:
            let project = try body.string("project")
            let client = try body.string("client")
            let tags = try body.strings("tags")
            try Self.refuseBlank(project, "project", "leave it out for a timer without a project")
            try Self.refuseBlank(client, "client", "leave it out for a project without a client")
            for tag in tags { try Self.refuseBlank(tag, "tags", "leave it out for a timer without tags") }
            action = .start(TimerParameters(
                project: project, client: client, description: try body.string("description") ?? "", tags: tags))
        case .stop: action = .stop
        default: action = .cancel
        }
    }

    /// An empty name is refused rather than read as "none", as the CLI
    /// does: a template with an unset variable would otherwise start a
    /// timer without a project and say nothing.
    private static func refuseBlank(_ value: String?, _ field: String, _ instead: String) throws(Problem) {
        guard let value, value.trimmingWhitespace().isEmpty else { return }
        throw Problem.unprocessable(
            "blank-name", "The field \"\(field)\" is \(value.isEmpty ? "empty" : "blank"); \(instead).")
    }
}
