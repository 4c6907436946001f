import TrackeeCore

/// Clockify's REST API v1 (https://docs.clockify.me/), one workspace of one
/// account.
///
/// The token goes in the `X-Api-Key` header. Entries refer to projects and
/// tags by id, so names are looked up (and, with `createMissing`, created)
/// on first need and kept for the life of the value, as are the user's id
/// and the workspace's.
///
/// ```swift
/// let clockify = ClockifyService(token: token, workspace: "My Company", createMissing: false)
/// let id = try clockify.create(entry)
/// ```
public final class ClockifyService: TimeService {
    public static let defaultBaseURL = "https://api.clockify.me/api/v1"

    private let api: ServiceAPI
    private let workspace: String
    private let createMissing: Bool
    /// Items asked for per page of a listing; Clockify allows up to 5000.
    var pageSize = 5000

    private var account: (identity: ServiceIdentity, userID: String)?
    private var catalogue = ProjectCatalog()
    /// The account and catalog came from an earlier run (``KeptIDs``).
    private var remembered = false
    private var tags: [ListedName]?

    /// `workspace` is the workspace's name (any case) or id, as the user
    /// wrote it in the settings; `timeout` is in seconds, per request.
    public init(baseURL: String = ClockifyService.defaultBaseURL, token: String, workspace: String,
                createMissing: Bool, timeout: Double = 30, http: HTTPClient = HTTPClient(), quota: RequestQuota? = nil) {
        api = ServiceAPI(name: "Clockify", baseURL: baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL,
                         authorization: ("X-Api-Key", token), token: token, timeout: timeout, http: http,
                         quota: quota ?? RequestQuota(service: "Clockify", limits: [:], clock: SystemClock.now))
        self.workspace = workspace
        self.createMissing = createMissing
    }

    public func identity() throws(ServiceFailure) -> ServiceIdentity {
        try found().identity
    }

    public func missingProjects(_ projects: [RemoteProjectName]) throws(ServiceFailure) -> [RemoteProjectName] {
        let (listed, clients) = try catalog()
        return projects.filter { $0.match(in: listed, clients: clients) == nil }
    }

    public func entries(from: Instant, to: Instant) throws(ServiceFailure) -> [RemoteTimeEntry] {
        let (identity, userID) = try found()
        // Both ends bound the entry's start and are inclusive.
        let listed = try api.pages(Entry.self, "/workspaces/\(identity.workspaceID)/user/\(escaped(userID))/time-entries",
                                   query: [("start", from.description), ("end", to.description)],
                                   sizeName: "page-size", size: pageSize)
        var result: [RemoteTimeEntry] = []
        for entry in listed { result.append(try entry.remote()) }
        return result
    }

    public func entry(id: String) throws(ServiceFailure) -> RemoteTimeEntry? {
        let path = "/workspaces/\(try found().identity.workspaceID)/time-entries/\(escaped(id))"
        return try api.entry(Entry.self, path)?.remote()
    }

    public func create(_ entry: PushedEntry) throws(ServiceFailure) -> String {
        let body = try body(for: entry)
        let path = "/workspaces/\(try found().identity.workspaceID)/time-entries"
        return try api.send(Created.self, "POST", path, body, fresh: true).id
    }

    public func update(id: String, _ entry: PushedEntry) throws(ServiceFailure) {
        let body = try body(for: entry)
        let path = "/workspaces/\(try found().identity.workspaceID)/time-entries/\(escaped(id))"
        _ = try api.call("PUT", path, body: api.json(body), entry: true)
    }

    public func delete(id: String) throws(ServiceFailure) {
        let path = "/workspaces/\(try found().identity.workspaceID)/time-entries/\(escaped(id))"
        // Fresh, as creates: libcurl would resend a DELETE whose reused
        // connection died, and the repeat would answer 404 (a false conflict).
        _ = try api.call("DELETE", path, fresh: true, entry: true)
    }

    public var keptIDs: String? {
        guard let account else { return nil }
        return KeptIDs(identity: account.identity, userID: account.userID, projects: catalogue.projects,
                       clients: catalogue.clients).text
    }

    public func remember(keptIDs text: String) {
        guard let kept = KeptIDs(text: text), let userID = kept.userID else { return }
        account = (kept.identity, userID)
        catalogue = ProjectCatalog(projects: kept.projects, clients: kept.clients)
        remembered = true
    }

    public func forgetKeptIDs() -> Bool {
        guard remembered else { return false }
        remembered = false
        account = nil
        catalogue = ProjectCatalog()
        tags = nil
        return true
    }

    // MARK: - Looking names up

    private func found() throws(ServiceFailure) -> (identity: ServiceIdentity, userID: String) {
        if let account { return account }
        let user = try api.get(User.self, "/user")
        let workspaces = try api.get([Workspace].self, "/workspaces")
        guard let chosen = workspaces.first(where: { $0.id == workspace }) ?? pick(workspaces, named: workspace, \.name) else {
            throw .noWorkspace(workspace, among: workspaces.map(\.name))
        }
        let identity = ServiceIdentity(userName: user.name ?? "", email: user.email ?? "", workspaceID: chosen.id,
                                       workspaceName: chosen.name)
        account = (identity, user.id)
        return (identity, user.id)
    }

    private func catalog() throws(ServiceFailure) -> (projects: [ListedProject], clients: [ListedName]) {
        let ws = try found().identity.workspaceID
        if catalogue.projects == nil {
            catalogue.projects = try api.pages(Project.self, "/workspaces/\(ws)/projects", sizeName: "page-size", size: pageSize)
                .map(\.listed)
        }
        if catalogue.clients == nil {
            catalogue.clients = try api.pages(Named.self, "/workspaces/\(ws)/clients", sizeName: "page-size", size: pageSize)
                .map(\.listed)
        }
        return (catalogue.projects ?? [], catalogue.clients ?? [])
    }

    /// The id of the project `wanted` names, created (with its client)
    /// when missing and allowed.
    private func projectID(_ wanted: RemoteProjectName) throws(ServiceFailure) -> String {
        _ = try catalog()
        let identity = try found().identity
        let (api, ws) = (api, identity.workspaceID)
        return try catalogue.id(
            of: wanted, createMissing: createMissing, workspace: identity.workspaceName,
            createClient: { name throws(ServiceFailure) in
                try api.send(Named.self, "POST", "/workspaces/\(ws)/clients", NewName(name: name), fresh: true).listed
            },
            createProject: { name, clientID throws(ServiceFailure) in
                try api.send(Project.self, "POST", "/workspaces/\(ws)/projects", NewProject(name: name, clientId: clientID),
                             fresh: true).listed
            })
    }

    /// The ids of `names`, in order without repeats, creating missing tags
    /// when allowed.
    private func tagIDs(_ names: [String]) throws(ServiceFailure) -> [String] {
        guard !names.isEmpty else { return [] }
        let identity = try found().identity
        let ws = identity.workspaceID
        if tags == nil {
            tags = try api.pages(Named.self, "/workspaces/\(ws)/tags", sizeName: "page-size", size: pageSize).map(\.listed)
        }
        var ids: [String] = []
        for name in names {
            var id = pick(tags ?? [], named: name, \.name)?.id
            if id == nil {
                guard createMissing else { throw .missing("tag \"\(name)\"", in: identity.workspaceName) }
                do throws(ServiceFailure) {
                    let tag = try api.send(Named.self, "POST", "/workspaces/\(ws)/tags", NewName(name: name), fresh: true)
                    tags?.append(tag.listed)
                    id = tag.id
                } catch {
                    tags = nil
                    throw error
                }
            }
            if let id, !ids.contains(id) { ids.append(id) }
        }
        return ids
    }

    private func body(for entry: PushedEntry) throws(ServiceFailure) -> EntryBody {
        let projectID: String? = if let project = entry.project { try projectID(project) } else { nil }
        return EntryBody(start: entry.start.description, end: entry.end.description, description: entry.description,
                         projectId: projectID, tagIds: try tagIDs(entry.tags), billable: entry.billable)
    }
}

// MARK: - What Clockify sends and takes

extension ClockifyService {
    private struct User: Decodable {
        var id: String
        var name: String?
        var email: String?
    }

    private struct Workspace: Decodable {
        var id: String
        var name: String
    }

    private struct Named: Decodable {
        var id: String
        var name: String
        var listed: ListedName { ListedName(id: id, name: name) }
    }

    private struct Project: Decodable {
        var id: String
        var name: String
        /// Empty or missing when the project has no client.
        var clientId: String?
        var listed: ListedProject {
            ListedProject(id: id, name: name, clientID: clientId.flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    private struct Entry: Decodable {
        struct Interval: Decodable {
            var start: String
            var end: String?
        }

        var id: String
        var description: String?
        var timeInterval: Interval

        func remote() throws(ServiceFailure) -> RemoteTimeEntry {
            guard let start = instant(rfc3339: timeInterval.start) else {
                throw .transient("Clockify gave time entry \(id) a start trackee cannot read")
            }
            return RemoteTimeEntry(id: id, start: start, end: timeInterval.end.flatMap { instant(rfc3339: $0) },
                                   description: description ?? "")
        }
    }

    private struct Created: Decodable {
        var id: String
    }

    private struct NewName: Encodable {
        var name: String
    }

    private struct NewProject: Encodable {
        var name: String
        var clientId: String?
    }

    /// A create's body, and a PUT's: the PUT replaces the whole entry, so
    /// every field is sent, a missing project as an explicit null.
    private struct EntryBody: Encodable {
        var start: String
        var end: String
        var description: String
        var projectId: String?
        var tagIds: [String]
        var billable: Bool

        enum CodingKeys: String, CodingKey {
            case start, end, description, projectId, tagIds, billable
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(start, forKey: .start)
            try c.encode(end, forKey: .end)
            try c.encode(description, forKey: .description)
            try c.encode(projectId, forKey: .projectId)
            try c.encode(tagIds, forKey: .tagIds)
            try c.encode(billable, forKey: .billable)
        }
    }
}
