import Foundation
import TrackeeCore

/// Toggl Track's API v9 (https://engineering.toggl.com/docs/), one
/// workspace of one account.
///
/// The token is sent as HTTP Basic `TOKEN:api_token`. Entries refer to
/// projects by id, looked up (and, with `createMissing`, created with their
/// client) on first need and kept for the life of the value. Tags go by
/// name; Toggl creates a tag it does not know, so with `createMissing` off
/// the workspace's tags are checked first.
///
/// ```swift
/// let toggl = TogglService(token: token, workspace: "7654321", createMissing: true)
/// let id = try toggl.create(entry)
/// ```
public final class TogglService: TimeService {
    public static let defaultBaseURL = "https://api.track.toggl.com/api/v9"

    private let api: ServiceAPI
    private let workspace: String
    private let createMissing: Bool
    /// Projects asked for per page; Toggl allows up to 200.
    var pageSize = 200

    private var account: (identity: ServiceIdentity, workspaceID: Int64)?
    private var catalogue = ProjectCatalog()
    /// The account and catalog came from an earlier run (``KeptIDs``).
    private var remembered = false
    private var tags: [ListedName]?

    /// `workspace` is the workspace's name (any case) or id, as the user
    /// wrote it in the settings; `timeout` is in seconds, per request.
    public init(baseURL: String = TogglService.defaultBaseURL, token: String, workspace: String,
                createMissing: Bool, timeout: Double = 30, http: HTTPClient = HTTPClient(), quota: RequestQuota? = nil) {
        let credentials = Data((token + ":api_token").utf8).base64EncodedString()
        api = ServiceAPI(name: "Toggl Track", baseURL: baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL,
                         authorization: ("Authorization", "Basic " + credentials), token: token, timeout: timeout,
                         http: http, quota: quota ?? RequestQuota(service: "Toggl Track", limits: [:], clock: SystemClock.now),
                         userPaths: "/me")
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
        let wid = try found().workspaceID
        // Toggl's end_date is exclusive; `to` is meant inclusive.
        let listed = try api.get([Entry]?.self, "/me/time_entries",
                                 query: [("start_date", from.description), ("end_date", (to + 1).description)]) ?? []
        var result: [RemoteTimeEntry] = []
        for entry in listed where entry.workspace_id == wid { result.append(try entry.remote()) }
        return result
    }

    public func entry(id: String) throws(ServiceFailure) -> RemoteTimeEntry? {
        try api.entry(Entry.self, "/me/time_entries/\(escaped(id))")?.remote()
    }

    public func create(_ entry: PushedEntry) throws(ServiceFailure) -> String {
        var body = try body(for: entry)
        body.createdWith = "trackee"
        let created = try api.send(Created.self, "POST", "/workspaces/\(body.workspaceID)/time_entries", body, fresh: true)
        if !body.newTags.isEmpty { tags = nil }
        return String(created.id)
    }

    public func update(id: String, _ entry: PushedEntry) throws(ServiceFailure) {
        let body = try body(for: entry)
        _ = try api.call("PUT", "/workspaces/\(body.workspaceID)/time_entries/\(escaped(id))", body: api.json(body), entry: true)
        if !body.newTags.isEmpty { tags = nil }
    }

    public func delete(id: String) throws(ServiceFailure) {
        let wid = try found().workspaceID
        // Fresh, as creates: libcurl would resend a DELETE whose reused
        // connection died, and the repeat would answer 404 (a false conflict).
        _ = try api.call("DELETE", "/workspaces/\(wid)/time_entries/\(escaped(id))", fresh: true, entry: true)
    }

    public var keptIDs: String? {
        guard let account else { return nil }
        return KeptIDs(identity: account.identity, userID: nil, projects: catalogue.projects,
                       clients: catalogue.clients).text
    }

    public func remember(keptIDs text: String) {
        guard let kept = KeptIDs(text: text), let wid = Int64(kept.workspaceID) else { return }
        account = (kept.identity, wid)
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

    private func found() throws(ServiceFailure) -> (identity: ServiceIdentity, workspaceID: Int64) {
        if let account { return account }
        let me = try api.get(Me.self, "/me")
        let workspaces = try api.get([Workspace]?.self, "/me/workspaces") ?? []
        guard let chosen = workspaces.first(where: { String($0.id) == workspace }) ?? pick(workspaces, named: workspace, \.name)
        else {
            throw .noWorkspace(workspace, among: workspaces.map(\.name))
        }
        let identity = ServiceIdentity(userName: me.fullname ?? "", email: me.email ?? "", workspaceID: String(chosen.id),
                                       workspaceName: chosen.name)
        account = (identity, chosen.id)
        return (identity, chosen.id)
    }

    private func catalog() throws(ServiceFailure) -> (projects: [ListedProject], clients: [ListedName]) {
        let wid = try found().workspaceID
        if catalogue.projects == nil {
            catalogue.projects = try api.pages(Project.self, "/workspaces/\(wid)/projects", sizeName: "per_page", size: pageSize)
                .map(\.listed)
        }
        if catalogue.clients == nil {
            // Not paged: the endpoint returns every client.
            catalogue.clients = (try api.get([Named]?.self, "/workspaces/\(wid)/clients") ?? []).map(\.listed)
        }
        return (catalogue.projects ?? [], catalogue.clients ?? [])
    }

    /// The id of the project `wanted` names, created (with its client)
    /// when missing and allowed.
    private func projectID(_ wanted: RemoteProjectName) throws(ServiceFailure) -> Int64 {
        _ = try catalog()
        let (identity, wid) = try found()
        let api = api
        let id = try catalogue.id(
            of: wanted, createMissing: createMissing, workspace: identity.workspaceName,
            createClient: { name throws(ServiceFailure) in
                try api.send(Named.self, "POST", "/workspaces/\(wid)/clients", NewName(name: name), fresh: true).listed
            },
            createProject: { name, clientID throws(ServiceFailure) in
                try api.send(Project.self, "POST", "/workspaces/\(wid)/projects",
                             NewProject(name: name, client_id: clientID.flatMap { Int64($0) }, active: true), fresh: true).listed
            })
        guard let number = Int64(id) else { throw .transient("Toggl Track gave the project a non-numeric id \"\(id)\"") }
        return number
    }

    /// `names` as the workspace spells them, in order without repeats, and
    /// which of them it does not have yet (Toggl creates those).
    private func tagNames(_ names: [String]) throws(ServiceFailure) -> (all: [String], new: [String]) {
        guard !names.isEmpty else { return ([], []) }
        let (identity, wid) = try found()
        if tags == nil {
            tags = (try api.get([Named]?.self, "/workspaces/\(wid)/tags") ?? []).map(\.listed)
        }
        var all: [String] = []
        var new: [String] = []
        for name in names {
            var spelled = name
            if let tag = pick(tags ?? [], named: name, \.name) {
                spelled = tag.name
            } else {
                guard createMissing else { throw .missing("tag \"\(name)\"", in: identity.workspaceName) }
                new.append(name)
            }
            if !all.contains(spelled) { all.append(spelled) }
        }
        return (all, new)
    }

    private func body(for entry: PushedEntry) throws(ServiceFailure) -> EntryBody {
        let wid = try found().workspaceID
        let projectID: Int64? = if let project = entry.project { try projectID(project) } else { nil }
        let tags = try tagNames(entry.tags)
        return EntryBody(workspaceID: wid, start: entry.start.description, stop: entry.end.description,
                         duration: entry.end - entry.start, description: entry.description, projectID: projectID,
                         tags: tags.all, billable: entry.billable, newTags: tags.new)
    }
}

// MARK: - What Toggl sends and takes

extension TogglService {
    private struct Me: Decodable {
        var fullname: String?
        var email: String?
    }

    private struct Workspace: Decodable {
        var id: Int64
        var name: String
    }

    private struct Named: Decodable {
        var id: Int64
        var name: String
        var listed: ListedName { ListedName(id: String(id), name: name) }
    }

    private struct Project: Decodable {
        var id: Int64
        var name: String
        var client_id: Int64?
        var listed: ListedProject { ListedProject(id: String(id), name: name, clientID: client_id.map { String($0) }) }
    }

    private struct Entry: Decodable {
        var id: Int64
        var workspace_id: Int64
        var start: String
        /// Nil while it runs.
        var stop: String?
        var description: String?

        func remote() throws(ServiceFailure) -> RemoteTimeEntry {
            guard let begun = instant(rfc3339: start) else {
                throw .transient("Toggl Track gave time entry \(id) a start trackee cannot read")
            }
            return RemoteTimeEntry(id: String(id), start: begun, end: stop.flatMap { instant(rfc3339: $0) },
                                   description: description ?? "")
        }
    }

    private struct Created: Decodable {
        var id: Int64
    }

    private struct NewName: Encodable {
        var name: String
    }

    private struct NewProject: Encodable {
        var name: String
        var client_id: Int64?
        var active: Bool
    }

    /// A create's body, and a PUT's. Toggl's PUT changes only the fields it
    /// is sent, so every field goes out, a missing project as an explicit
    /// null and the tags as the whole list (no `tag_action`): together a
    /// whole replacement.
    private struct EntryBody: Encodable {
        var createdWith: String?
        var workspaceID: Int64
        var start: String
        var stop: String
        var duration: Int64
        var description: String
        var projectID: Int64?
        var tags: [String]
        var billable: Bool
        /// Tags Toggl will create; not sent.
        var newTags: [String]

        enum CodingKeys: String, CodingKey {
            case createdWith = "created_with", workspaceID = "workspace_id", start, stop, duration, description
            case projectID = "project_id", tags, billable
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(createdWith, forKey: .createdWith)
            try c.encode(workspaceID, forKey: .workspaceID)
            try c.encode(start, forKey: .start)
            try c.encode(stop, forKey: .stop)
            try c.encode(duration, forKey: .duration)
            try c.encode(description, forKey: .description)
            try c.encode(projectID, forKey: .projectID)
            try c.encode(tags, forKey: .tags)
            try c.encode(billable, forKey: .billable)
        }
    }
}
