import TrackeeCore

/// A Clockify or Toggl Track workspace, as the outbox pusher sees it: who
/// the token belongs to, and the time entries of one workspace.
///
/// Implementations resolve names to the service's ids (projects, clients,
/// tags), creating what is missing when the target allows it, and keep
/// what they found for the life of the value. Every call is one or more
/// HTTP requests; none is retried here: the pusher decides, because only
/// it knows whether a create may have reached the service.
public protocol TimeService {
    /// The account and workspace the token and settings name, checked
    /// against the service. Throws `.unauthorized` for a bad token and
    /// `.rejected` for a workspace the account cannot see.
    func identity() throws(ServiceFailure) -> ServiceIdentity

    /// Projects (with their client, `create_missing` off) that entries
    /// would need and the workspace does not have, by name.
    func missingProjects(_ projects: [RemoteProjectName]) throws(ServiceFailure) -> [RemoteProjectName]

    /// The workspace's time entries of this account whose start lies in
    /// `[from, to]` (both ends included), in any order.
    func entries(from: Instant, to: Instant) throws(ServiceFailure) -> [RemoteTimeEntry]

    /// Entry `id` as the service holds it now; nil when it no longer has it.
    func entry(id: String) throws(ServiceFailure) -> RemoteTimeEntry?

    /// Creates a finished entry and returns its id there. Sent on a new
    /// connection, never on one used before, so that no HTTP layer can
    /// send it twice.
    func create(_ entry: PushedEntry) throws(ServiceFailure) -> String

    /// Replaces the whole entry `id` with `entry`. `.notFound` when the
    /// service no longer has it.
    func update(id: String, _ entry: PushedEntry) throws(ServiceFailure)

    /// Deletes entry `id`, on a new connection as a create is (a DELETE
    /// resent by the HTTP layer would answer 404). `.notFound` when the
    /// service no longer has it.
    func delete(id: String) throws(ServiceFailure)

    /// The ids looked up so far that do not change (user, workspace,
    /// projects, clients), as text to keep in the store; nil when none were.
    var keptIDs: String? { get }

    /// Takes ids an earlier run kept, so they are not looked up again.
    func remember(keptIDs: String)

    /// Forgets ids taken from an earlier run, so they are looked up again;
    /// false when none were in use (a refusal then is not theirs).
    func forgetKeptIDs() -> Bool
}

extension TimeService {
    public var keptIDs: String? { nil }
    public func remember(keptIDs: String) {}
    public func forgetKeptIDs() -> Bool { false }
}

/// Who a token authenticates as, in which workspace.
public struct ServiceIdentity: Sendable, Equatable {
    public var userName: String
    public var email: String
    public var workspaceID: String
    public var workspaceName: String

    public init(userName: String, email: String, workspaceID: String, workspaceName: String) {
        self.userName = userName
        self.email = email
        self.workspaceID = workspaceID
        self.workspaceName = workspaceName
    }
}

/// A project as the service names it, with its client (nil: none).
public struct RemoteProjectName: Sendable, Hashable {
    public var name: String
    public var client: String?

    public init(name: String, client: String?) {
        self.name = name
        self.client = client
    }
}

/// What trackee sends for one finished entry (names already renamed by
/// the target's `projects:` map).
public struct PushedEntry: Sendable, Equatable {
    public var start: Instant
    public var end: Instant
    public var description: String
    public var project: RemoteProjectName?
    public var tags: [String]
    public var billable: Bool

    public init(start: Instant, end: Instant, description: String, project: RemoteProjectName?, tags: [String],
                billable: Bool) {
        self.start = start
        self.end = end
        self.description = description
        self.project = project
        self.tags = tags
        self.billable = billable
    }
}

/// A time entry as the service lists it: enough to recognise one trackee
/// created (adopting it after a create whose answer was lost).
public struct RemoteTimeEntry: Sendable, Equatable {
    public var id: String
    public var start: Instant
    /// Nil while it runs.
    public var end: Instant?
    public var description: String

    public init(id: String, start: Instant, end: Instant?, description: String) {
        self.id = id
        self.start = start
        self.end = end
        self.description = description
    }
}

/// Why a call to the service did not succeed.
public enum ServiceFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request may not have been answered: no connection, a timeout,
    /// the connection closed before an answer, or a 5xx. Worth retrying.
    /// For a create, the service may have stored it.
    case transient(String)
    /// 429; the seconds of `Retry-After` when given.
    case rateLimited(retryAfter: Int?)
    /// The hourly request quota is used up (Toggl's 402, or trackee's own
    /// count): nothing goes to the service before the wait ends. Not the
    /// entry's fault, so never a reason to set it aside.
    case quota(QuotaWait)
    /// 401 or 403 (or Toggl's 403 on login): the token is not accepted.
    case unauthorized(String)
    /// 404 on an entry: the service no longer has it.
    case notFound
    /// Another 4xx: the service refused this one request, with its message.
    case rejected(status: Int, message: String)

    public var description: String {
        switch self {
        case .transient(let why): why
        case .rateLimited(let after): "the service asks to slow down (429" + (after.map { ", retry after \($0) s)" } ?? ")")
        case .unauthorized(let why): why
        case .quota(let wait): "\(wait.service)'s hourly quota of \(wait.limit) requests is used up until \(wait.until)"
        case .notFound: "the service no longer has this entry (404)"
        case .rejected(let status, let message): "the service refused it (\(status)): \(message)"
        }
    }

    /// Whether the request may have reached the service and been applied.
    public var mayHaveApplied: Bool {
        if case .transient = self { return true }
        return false
    }
}
