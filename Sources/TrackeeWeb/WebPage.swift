import TrackeeAPI
import TrackeeAutomation
import TrackeeCore
import TrackeeDaemon
import TrackeeReport
import TrackeeStore

/// What the page needs of the running daemon: the rules it has loaded and
/// their next firings.
public protocol WebRules: Sendable {
    func outlook(count: Int) async -> RulesOutlook
}

extension DaemonCore: WebRules {}

/// The web page at `/` of `trackee run`'s HTTP listener (issue 38): a
/// sign-in form, then the timer, today, the week and why, kept live by
/// the event stream. It answers every path outside `/v1/`.
///
/// It is a way in like the API, and goes the API's ways: a timer button
/// is ``API/applyTimer(key:fingerprint:source:_:)`` with the source
/// `web(device)` and the form's idempotency key, an edit or a delete is
/// the store's journal step as `trackee edit` and `delete` make them, and
/// every request meets the API's limits (its body size and time, its
/// connections, the token's rate; failed sign-ins count against the
/// address as failed authentications do). See ``WebGuard`` for the
/// session, the CSRF token and the origin.
public final class WebPage: WebPageServing {
    let api: API
    let sessionLifetime: Int64
    let rules: any WebRules

    /// The scopes an edit, a delete or an undo needs: every timer scope.
    static let editScopes: Set<TokenScope> = [.start, .stop, .cancel]

    /// `sessionDays`: how long a sign-in lasts (`http.session_days`).
    public init(api: API, sessionDays: Int, rules: any WebRules) {
        self.api = api
        self.sessionLifetime = Int64(sessionDays) * 86_400
        self.rules = rules
    }

    public func answer(_ request: APIRequest) async -> APIResponse {
        let started = request.arrived ?? api.ticks() ?? 0
        let route = WebRoute(method: request.method, path: request.path)
        var device: String?
        var response = await answer(request, route, device: &device)
        response.headers += WebGuard.headers.filter { header in !response.headers.contains { $0.0 == header.0 } }
        api.log?.served(
            method: request.method, path: request.path, status: response.status, device: device, started: started,
            route: route.logged)
        return response
    }

    public func refused(method: String, path: String, status: Int, arrived: UInt64?) {
        guard let log = api.log else { return }
        log.served(method: method, path: path, status: status, device: nil, started: arrived ?? log.ticks(),
                   route: WebRoute(method: method, path: path).logged)
    }

    private func answer(_ request: APIRequest, _ route: WebRoute, device: inout String?) async -> APIResponse {
        switch route.target {
        case .asset(let asset): return WebAssets.response(asset)
        case .unknown: return Self.page(404, WebPlain.html("No such page", "There is no page at this address.", link: true))
        case .wrongMethod(let allowed):
            var answer = Self.page(405, WebPlain.html("Not allowed", "This page is not asked for that way.", link: true))
            answer.headers.append(("Allow", allowed))
            return answer
        default: break
        }
        let secure = WebGuard.isSecure(request, api: api)
        let now = api.now()
        var form = WebForm(fields: [])
        if route.changes {
            if let refusal = WebGuard.crossSite(request, secure: secure) {
                return Self.page(403, WebPlain.html("Refused", refusal, link: true))
            }
            do {
                form = try WebForm(request)
            } catch {
                return Self.page(error.status, WebPlain.html("Refused", error.detail, link: true))
            }
        }
        if route.target == .signIn { return signIn(request, form, secure: secure, now: now) }
        let signed: WebGuard.SignedIn?
        do {
            signed = try WebGuard.signedIn(request, store: api.store, now: now)
        } catch {
            api.log?.unchecked(error)
            return Self.page(500, WebPlain.html("Trouble", "The store could not be read; the daemon's log says why.", link: false))
        }
        guard let signed else {
            switch route.target {
            case .home: return Self.page(200, WebPlain.signIn(alert: nil, days: sessionLifetime / 86_400))
            case .editForm: return Self.redirect("/")
            case .events:
                return APIResponse(status: 401, headers: [("Content-Type", "text/plain; charset=utf-8")],
                                   body: Array("Sign in on the page first.\n".utf8))
            default:
                return Self.page(403, WebPlain.signIn(
                    alert: "You are not signed in, or your sign-in has ended: sign in again.", days: sessionLifetime / 86_400))
            }
        }
        device = signed.device
        do throws(Problem) {
            try api.admit(device: signed.device)
        } catch {
            var answer = Self.page(error.status, WebPlain.html("Too many requests", error.detail, link: true))
            answer.headers += error.headers
            return answer
        }
        if route.changes, !WebGuard.carriesCSRF(request, form: form, of: signed) {
            return Self.page(403, WebPlain.html(
                "Refused", "This form came without the page's CSRF token, or from an older sign-in: reload the page and try again.",
                link: true))
        }
        switch route.target {
        case .home: return await home(request, signed, now: now, alert: nil, status: 200)
        case .events:
            do {
                var stream = APIResponse(
                    status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")],
                    eventCursor: try EventStream.end(of: api.store))
                stream.streamsChanges = true
                return stream
            } catch {
                return Self.page(500, WebPlain.html("Trouble", "The store could not be read: \(error).", link: false))
            }
        case .signOut:
            do {
                _ = try api.store.endSession(secretHash: signed.secretHash)
            } catch {
                return Self.page(500, WebPlain.html("Trouble", "The session could not be ended: \(error).", link: true))
            }
            var answer = Self.redirect("/")
            answer.headers.append(("Set-Cookie", WebGuard.setCookie(nil, seconds: 0, secure: secure)))
            return answer
        case .editForm(let id):
            do throws(Problem) {
                let entry = try api.storing { try api.store.entry(id: id) }
                return Self.page(200, WebEntryForm.html(entry, zone: api.zone, device: signed.device, csrf: signed.csrf, alert: nil))
            } catch {
                return Self.page(error.status == 422 ? 404 : error.status, WebPlain.html("No such entry", error.detail, link: true))
            }
        case .timer(let action): return await timer(action, request, form, signed, now: now)
        case .edit(let id): return await edit(id, form, signed, request, now: now)
        case .delete(let id):
            return await change(request, signed, now: now) { () throws(Problem) in
                _ = try api.storing { try api.store.deleteEntries([id], now: now) }
            }
        case .undo:
            return await change(request, signed, now: now) { () throws(Problem) in
                _ = try api.storing { try api.store.undo(now: now) }
            }
        case .signIn, .asset, .unknown, .wrongMethod: return Self.redirect("/")
        }
    }

    // MARK: signing in

    private func signIn(_ request: APIRequest, _ form: WebForm, secure: Bool, now: Instant) -> APIResponse {
        let days = sessionLifetime / 86_400
        let secret = form.text("token") ?? ""
        let principal: APIPrincipal?
        do throws(Problem) {
            principal = try api.signIn(secret: secret, request)
        } catch {
            var answer = Self.page(error.status, WebPlain.signIn(alert: error.detail, days: days))
            answer.headers += error.headers
            return answer
        }
        guard let principal else {
            return Self.page(401, WebPlain.signIn(
                alert: "That is not a token of this trackee, or it was revoked: check it with `trackee tokens list`.", days: days))
        }
        guard principal.scopes.contains(.read) else {
            return Self.page(403, WebPlain.signIn(
                alert: "The token \(principal.device) may not read (its scopes are "
                    + TokenScope.ordered(Array(principal.scopes)).map(\.rawValue).joined(separator: ",")
                    + "); the page needs read, and start, stop and cancel for its buttons.", days: days))
        }
        let session: String
        do {
            // A browser that signs in again gets a new session; the one
            // its cookie held ends, so no secret it had stays valid.
            if let old = WebGuard.cookie(request) { _ = try api.store.endSession(secretHash: SHA256.hex(old.utf8)) }
            session = try api.store.startSession(token: principal.device, now: now, lifetime: sessionLifetime)
        } catch {
            return Self.page(500, WebPlain.signIn(alert: "The session could not be kept: \(error).", days: days))
        }
        api.changed()
        var answer = Self.redirect("/")
        answer.headers.append(("Set-Cookie", WebGuard.setCookie(session, seconds: sessionLifetime, secure: secure)))
        return answer
    }

    // MARK: the page

    private func home(_ request: APIRequest, _ signed: WebGuard.SignedIn, now: Instant, alert: String?, status: Int) async -> APIResponse {
        do {
            let home = try await read(request, signed, now: now)
            return Self.page(status, home.html(alert: alert))
        } catch {
            api.log?.unchecked(error)
            return Self.page(500, WebPlain.html("Trouble", "The store could not be read: \(error).", link: false))
        }
    }

    /// The query parameters the week takes: the report's filters and the
    /// day whose week it is.
    static let weekParameters = ["project", "client", "tag", "description", "billable", "date"]

    private func read(_ request: APIRequest, _ signed: WebGuard.SignedIn, now: Instant) async throws -> WebHome {
        let store = api.store
        let zone = api.zone
        let date = zone.localDate(now)
        let today = Timespan(start: zone.startOfDay(date), end: zone.startOfDay(date.adding(days: 1)))
        let filters = request.query.filter { Self.weekParameters.contains($0.0) && !$0.1.isEmpty }
        let week: Result<Report, Problem>
        do throws(Problem) {
            week = .success(try api.buildReport(.weekly, query: APIRequest(
                method: "GET", path: "/", query: filters + [("period", "week")])))
        } catch {
            week = .failure(error)
        }
        let running = try store.running()
        var recent: [(project: String, client: String?)] = []
        let past = try store.entries(overlapping: Timespan(start: now - 30 * 86_400, end: now + 1))
        for entry in past.sorted(by: { $0.start > $1.start }) {
            guard let project = entry.project, recent.count < 6 else { continue }
            if recent.contains(where: { $0.project == project && $0.client == entry.client }) { continue }
            if running?.project == project && running?.client == entry.client { continue }
            recent.append((project, entry.client))
        }
        let undoable = try store.steps(limit: 20).first { $0.undoes == nil && $0.undoneBy == nil }
        return WebHome(
            device: signed.device, csrf: signed.csrf, scopes: signed.scopes, zone: zone, now: now, running: running,
            today: today, entries: try store.entries(overlapping: today).sorted { ($0.start, $0.id) < ($1.start, $1.id) },
            recent: recent, projects: try store.projects(), week: week, filters: filters,
            history: try store.intentHistory(limit: 12), traces: try store.latestTraces(limit: 20),
            outlook: await rules.outlook(count: 20), undoable: undoable)
    }

    // MARK: changes

    private func timer(_ action: WebRoute.TimerAction, _ request: APIRequest, _ form: WebForm, _ signed: WebGuard.SignedIn,
                       now: Instant) async -> APIResponse {
        let scope: TokenScope = switch action {
        case .start: .start
        case .stop: .stop
        case .cancel: .cancel
        }
        guard signed.scopes.contains(scope) else {
            return await home(request, signed, now: now, alert: "The token \(signed.device) may not \(action.rawValue) the timer "
                + "(it lacks the scope \(scope.rawValue)).", status: 403)
        }
        let key = form.text("key")
        if let key, key.utf8.count > 200 || key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return await home(request, signed, now: now, alert: "The form's key is not one the page made; reload the page.", status: 400)
        }
        let fingerprint = IdempotencyKey.fingerprint(method: request.method, path: request.path, body: request.body)
        let parameters = TimerParameters(
            project: form.text("project"), client: form.text("client"), description: form.text("description") ?? "",
            tags: WebForm.tags(form["tags"]))
        let made: Intent.Action = switch action {
        case .start: .start(parameters)
        case .stop: .stop
        case .cancel: .cancel
        }
        if case .start = made, parameters.project == nil, parameters.client != nil {
            return await home(request, signed, now: now, alert: "A client needs a project: give the project too.", status: 422)
        }
        // A second submit of the same form while the first is still on
        // its way (a double click without the script) waits for the
        // first, then gets its answer.
        var waited = 0
        while true {
            do throws(Problem) {
                _ = try await api.applyTimer(key: key, fingerprint: fingerprint, source: .web(device: signed.device)) { now in
                    (made, now)
                }
                api.changed()
                return Self.redirect("/")
            } catch where error.kind == "idempotency-key-in-flight" && waited < 50 {
                waited += 1
                try? await Task.sleep(nanoseconds: 100_000_000)
            } catch {
                return await home(request, signed, now: now, alert: error.detail, status: error.status)
            }
        }
    }

    private func edit(_ id: Int64, _ form: WebForm, _ signed: WebGuard.SignedIn, _ request: APIRequest, now: Instant) async -> APIResponse {
        guard signed.scopes.isSuperset(of: Self.editScopes) else {
            return Self.page(403, WebPlain.html("Refused", Self.editRefusal(signed), link: true))
        }
        let entry: Entry
        do throws(Problem) {
            entry = try api.storing { try api.store.entry(id: id) }
        } catch {
            return Self.page(404, WebPlain.html("No such entry", error.detail, link: true))
        }
        do throws(Problem) {
            let changes = try WebEntryForm.changes(form, entry: entry, zone: api.zone)
            let newProjects: NewProjects = api.createsProjects ? .create : .refuse
            _ = try api.storing { try api.store.edit(id, changes, now: now, newProjects: newProjects) }
            api.changed()
            return Self.redirect("/#today")
        } catch {
            return Self.page(error.status, WebEntryForm.html(entry, zone: api.zone, device: signed.device, csrf: signed.csrf,
                                                            alert: error.detail))
        }
    }

    /// A delete or an undo: one journal step, then back to today.
    private func change(_ request: APIRequest, _ signed: WebGuard.SignedIn, now: Instant,
                        _ body: () throws(Problem) -> Void) async -> APIResponse {
        guard signed.scopes.isSuperset(of: Self.editScopes) else {
            return await home(request, signed, now: now, alert: Self.editRefusal(signed), status: 403)
        }
        do throws(Problem) {
            try body()
            api.changed()
            return Self.redirect("/#today")
        } catch {
            return await home(request, signed, now: now, alert: error.detail, status: error.status)
        }
    }

    static func editRefusal(_ signed: WebGuard.SignedIn) -> String {
        "The token \(signed.device) may not change entries: that needs the scopes start, stop and cancel."
    }

    // MARK: answers

    static func page(_ status: Int, _ html: String) -> APIResponse {
        APIResponse(
            status: status, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")],
            body: Array(html.utf8))
    }

    /// 303 See Other: after a form's post, the browser asks for `location`.
    static func redirect(_ location: String) -> APIResponse {
        APIResponse(status: 303, headers: [("Location", location), ("Cache-Control", "no-store")])
    }
}
