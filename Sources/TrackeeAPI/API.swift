import Synchronization
import TrackeeAutomation
import TrackeeCore
import TrackeeStore

/// The HTTP API (version 1) as a function from a parsed request to its
/// answer: no sockets here, so the server is a thin adapter and every
/// route is testable in-process on a real store.
///
/// State-changing routes accept an idempotency key (the `Idempotency-Key`
/// header, or an `idempotency_key` field for clients that send static
/// bodies). The key is the intent's key, one key space with
/// `trackee start --key`. The first answer is stored with the intent and
/// repeated byte for byte; answers are kept 30 days.
///
/// ```swift
/// let api = API(store: store, zone: .local(), createsProjects: false, now: { SystemClock.now() },
///               credentials: tokens, daemon: daemon)
/// let answer = await api.answer(APIRequest(method: "GET", path: "/v1/status", headers: [("Authorization", "Bearer …")]))
/// ```
public final class API: Sendable {
    package let store: Store
    package let zone: Zone
    package let createsProjects: Bool
    package let weekStart: Weekday
    /// The settings' `currency:`, which reports show amounts in.
    package let currency: String?
    /// Writes PDF and XLSX reports; nil: they are answered 406.
    let reportFiles: ReportFileWriter?
    package let now: @Sendable () -> Instant
    let credentials: any APICredentials
    let daemon: any APIDaemon
    let keysInFlight = KeysInFlight()
    /// The timer requests on their way to the store.
    let batches: IntentBatches
    let rateLimit: RateLimit?
    /// Failed authentications per address, a limit that is always on.
    let failures = RateLimit(perMinute: HTTPSettings.failedAuthenticationsPerMinute)
    /// The settings' `trusted_proxies`, as ``ClientAddress`` writes them.
    package let trustedProxies: Set<String>
    package let log: APILog?
    /// Given, the status is read once per store change and second.
    package let generation: StoreGeneration?
    let statusCache = GenerationCache<Int64, [UInt8]>(limit: 4)

    /// `createsProjects` is the `create_projects: always` setting: a start
    /// naming a project that does not exist creates it; otherwise it is
    /// refused (no one can be asked over HTTP). `weekStart` is the
    /// settings' `week_start`, for the status's week total. `perMinute`
    /// limits each token's requests (nil: no limit). `generation`, when
    /// the caller watches the store for changes, lets reads be kept until
    /// the next one; the API advances it after its own writes.
    /// `trustedProxies` are the addresses whose `X-Forwarded-For` names
    /// the client (see ``ClientAddress``); `log` is where failed
    /// authentications and, if asked, each request are logged. `currency`
    /// and `reportFiles` serve `GET /v1/reports/{kind}`.
    public init(
        store: Store, zone: Zone, createsProjects: Bool, weekStart: Weekday = .monday,
        now: @escaping @Sendable () -> Instant, credentials: any APICredentials, daemon: any APIDaemon,
        perMinute: Int? = nil, generation: StoreGeneration? = nil, trustedProxies: [String] = [], log: APILog? = nil,
        currency: String? = nil, reportFiles: ReportFileWriter? = nil
    ) {
        self.currency = currency
        self.reportFiles = reportFiles
        self.generation = generation
        batches = IntentBatches(store: store, clock: now)
        rateLimit = perMinute.map { RateLimit(perMinute: $0) }
        self.trustedProxies = Set(trustedProxies.compactMap { ClientAddress($0)?.text })
        self.log = log
        self.store = store
        self.zone = zone
        self.createsProjects = createsProjects
        self.weekStart = weekStart
        self.now = now
        self.credentials = credentials
        self.daemon = daemon
    }

    /// The answer to `request`. Failures are `application/problem+json`
    /// answers; this never throws.
    ///
    /// The request is authenticated before it is routed, so a caller
    /// without credentials gets the same 401 whatever it asks for (no 404
    /// or 405 tells it which routes exist); an address that failed too
    /// often lately gets 429 before its credentials are looked at.
    public func answer(_ request: APIRequest) async -> APIResponse {
        let started = request.arrived ?? log?.ticks() ?? 0
        var device: String?
        let response: APIResponse
        do {
            let caller = try authenticate(request)
            device = caller.principal.device
            response = try await answer(request, from: caller)
        } catch {
            // Every step throws a Problem only (typed throws), so every
            // failure has its status and sentence.
            response = error.response
        }
        log?.served(method: request.method, path: request.path, status: response.status, device: device, started: started)
        return response
    }

    /// The caller, or the problem: 429 for an address over its failures,
    /// the one 401 for credentials missing or wrong (counted against the
    /// address and logged with it).
    ///
    /// A failure is taken from the address before the check and given
    /// back when the check succeeds, so checks under way at the same time
    /// count as well: however many requests arrive together, no more of
    /// them are checked than the address may fail.
    private func authenticate(_ request: APIRequest) throws(Problem) -> Authentication.Caller {
        let checked = try limitingFailures(of: request, unchecked: "The credentials could not be checked; the daemon's log says why.") {
            try Authentication.caller(of: request, credentials: credentials)
        } failed: { failure, address in
            log?.failed(failure, from: address)
        }
        guard let caller = checked else { throw Problem.unauthenticated }
        return caller
    }

    /// Checks credentials under the limit of failures per address, which
    /// authenticating a request and signing in on the web page share: 429
    /// for an address over its failures; `check`'s failure counted and
    /// handed to `failed` with the address (nil returned); a throw, which
    /// is the store's failure and not the caller's, given back and a 500
    /// with `detail`.
    func limitingFailures<T, F: Error>(
        of request: APIRequest, unchecked detail: String, _ check: () throws -> Result<T, F>,
        failed: (F, ClientAddress) -> Void
    ) throws(Problem) -> T? {
        let address = ClientAddress.of(request, trusting: trustedProxies)
        if let wait = failures.take(address.key, now: Double(now().seconds)) {
            throw Problem.failuresLimited(perMinute: failures.perMinute, retryAfter: wait)
        }
        let checked: Result<T, F>
        do {
            checked = try check()
        } catch {
            failures.giveBack(address.key)
            log?.unchecked(error)
            throw Problem.internalError(detail)
        }
        switch checked {
        case .failure(let failure):
            failed(failure, address)
            return nil
        case .success(let value):
            failures.giveBack(address.key)
            return value
        }
    }

    /// The answer to an authenticated request: 429 for a token over its
    /// rate, then the route's.
    private func answer(_ request: APIRequest, from caller: Authentication.Caller) async throws(Problem) -> APIResponse {
        let device = caller.principal.device
        if let rateLimit, let wait = rateLimit.take(device, now: Double(now().seconds)) {
            throw Problem.rateLimited(device: device, perMinute: rateLimit.perMinute, retryAfter: wait)
        }
        let route = try Route.find(method: request.method, path: request.path)
        try Authentication.authorize(caller, for: route)
        let principal = caller.principal
        // A write here is known at once, not only when inotify tells.
        defer { if route.method != "GET" { generation?.advance() } }
        switch route.endpoint {
        case .start, .stop, .cancel:
            return try await timer(route, request, principal)
        case .status:
            return try status()
        case .entries:
            return try entries(request)
        case .report(let kind):
            return try report(kind, request)
        case .focus:
            let (fields, bodyKey) = try FocusRequest.fields(request.body)
            return try await event(request, principal, key: idempotencyKey(request, bodyKey: bodyKey)) {
                FocusRequest.decode(fields, now: now(), zone: zone)
            }
        case .events:
            let line = try EventsRequest.line(request.body)
            return try await event(request, principal, key: idempotencyKey(request, bodyKey: nil)) {
                EventInput.decode(line: line, now: now(), zone: zone)
            }
        case .ownTracks:
            return try await ownTracks(request, principal)
        case .eventStream:
            let cursor = try storing { try EventStream.end(of: store) }
            return APIResponse(
                status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")],
                eventCursor: cursor)
        case .openAPI:
            return APIResponse(
                status: 200, headers: [("Content-Type", "application/json")], body: PackageResources.openapi_json)
        }
    }

    /// The access line of a request the server refused itself before the
    /// API saw it (413, 408, 503), when the settings ask for access lines.
    public func refused(method: String, path: String, status: Int, arrived: UInt64?) {
        guard let log else { return }
        log.served(method: method, path: path, status: status, device: nil, started: arrived ?? log.ticks())
    }

    /// The clock of the access log's times, for the server to stamp a
    /// request's arrival with.
    public func ticks() -> UInt64? { log?.ticks() }

    /// Runs a store call, turning its failures into problems: what the
    /// request asked that cannot be done is 422; a store that fails is 500.
    package func storing<T>(_ body: () throws -> T) throws(Problem) -> T {
        do {
            return try body()
        } catch let problem as Problem {
            throw problem
        } catch let error as StoreError {
            switch error {
            case .noSuchProject:
                throw Problem.unprocessable(
                    "unknown-project",
                    "The field \"project\": \(error); create it with `trackee projects add`, or set create_projects: always.")
            case .directoryMissing, .notWritable, .notADatabase, .corrupt, .tooNew, .database:
                throw Problem.internalError("The store failed: \(error).")
            default:
                throw Problem.unprocessable("refused", "\(error).")
            }
        } catch {
            throw Problem.internalError("The store failed: \(error).")
        }
    }
}
