import TrackeeCore
import TrackeeReport

/// The API's routes, declared in one place: method, path, the scope a
/// token needs, and how the caller authenticates. openapi.json describes
/// exactly these (a test holds the two together).
struct Route: Sendable, Equatable {
    enum Endpoint: Sendable, Equatable {
        case start, stop, cancel, status, entries, report(Report.Kind), focus, events, ownTracks, eventStream, openAPI
    }

    enum Credentials: Sendable, Equatable {
        /// `Authorization: Bearer <token>`.
        case bearer
        /// HTTP Basic, user = device, password = token: what OwnTracks sends.
        case basic
    }

    var method: String
    var path: String
    var scope: TokenScope
    var credentials: Credentials = .bearer
    var endpoint: Endpoint

    static let all: [Route] = [
        Route(method: "POST", path: "/v1/start", scope: .start, endpoint: .start),
        Route(method: "POST", path: "/v1/stop", scope: .stop, endpoint: .stop),
        Route(method: "POST", path: "/v1/cancel", scope: .cancel, endpoint: .cancel),
        Route(method: "GET", path: "/v1/status", scope: .read, endpoint: .status),
        Route(method: "GET", path: "/v1/entries", scope: .read, endpoint: .entries),
        Route(method: "GET", path: "/v1/reports/summary", scope: .read, endpoint: .report(.summary)),
        Route(method: "GET", path: "/v1/reports/detailed", scope: .read, endpoint: .report(.detailed)),
        Route(method: "GET", path: "/v1/reports/weekly", scope: .read, endpoint: .report(.weekly)),
        Route(method: "POST", path: "/v1/focus", scope: .events, endpoint: .focus),
        Route(method: "POST", path: "/v1/events", scope: .events, endpoint: .events),
        Route(method: "POST", path: "/v1/owntracks", scope: .owntracks, credentials: .basic, endpoint: .ownTracks),
        Route(method: "GET", path: "/v1/events/stream", scope: .read, endpoint: .eventStream),
        Route(method: "GET", path: "/v1/openapi.json", scope: .read, endpoint: .openAPI),
    ]

    /// The route for `method` and `path`, or the problem: 404 for a path
    /// no route has, 405 (with `Allow`) for a method it does not answer.
    static func find(method: String, path: String) throws(Problem) -> Route {
        let onPath = all.filter { $0.path == path }
        if onPath.isEmpty { throw Problem.notFound(path) }
        guard let route = onPath.first(where: { $0.method == method }) else {
            throw Problem.methodNotAllowed(method, path: path, allowed: onPath.map(\.method))
        }
        return route
    }
}
