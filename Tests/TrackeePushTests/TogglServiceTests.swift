import Foundation
import Testing
import TrackeeCore
@testable import TrackeePush
import TrackeeTestSupport

/// `TogglService` against the fake Toggl Track v9, one server per test.
///
/// The fake's ids: workspaces 7654321 (My Company) and 7654322 (Side
/// Project); projects from 203000001, clients from 61000001, tags from
/// 17000001, time entries from 3500000001.
@Suite struct TogglServiceTests {
    func start() throws -> FakeTimeServiceProcess {
        try FakeTimeServiceProcess(service: "toggl", token: secretToken, workspaces: ["My Company", "Side Project"])
    }

    func toggl(_ fake: FakeTimeServiceProcess, workspace: String = "My Company", createMissing: Bool = true,
               token: String = secretToken) -> TogglService {
        TogglService(baseURL: fake.baseURL, token: token, workspace: workspace, createMissing: createMissing, timeout: 10)
    }

    /// The stored entries as `description start stop duration workspace project tags billable`.
    func stored(_ fake: FakeTimeServiceProcess) throws -> [String] {
        try fake.stored("time_entries").map { entry in
            let tags = (entry["tags"] as? [String]).flatMap { $0.isEmpty ? nil : $0.joined(separator: ",") } ?? "-"
            return "\(entry["description"] as? String ?? "?") \(entry["start"] as? String ?? "-") "
                + "\(entry["stop"] as? String ?? "-") \(entry["duration"] as? Int ?? 0) ws=\(entry["workspace_id"] as? Int ?? 0) "
                + "project=\((entry["project_id"] as? Int).map(String.init) ?? "-") tags=\(tags) "
                + (entry["billable"] as? Bool == true ? "billable" : "unbillable")
        }
    }

    func names(_ fake: FakeTimeServiceProcess, _ key: String) throws -> [String] {
        try fake.stored(key).map { item in
            "\(item["id"] as? Int ?? 0) \(item["name"] as? String ?? "?")"
                + ((item["client_id"] as? Int).map { " client=\($0)" } ?? "")
        }
    }

    // MARK: - Identity

    @Test func identityNamesTheUserAndTheWorkspaceChosenByNameInAnyCaseOrById() throws {
        let fake = try start()
        #expect(try toggl(fake).identity()
            == ServiceIdentity(userName: "Ada Lovelace", email: "ada@example.com", workspaceID: "7654321", workspaceName: "My Company"))
        #expect(try toggl(fake, workspace: "SIDE project").identity()
            == ServiceIdentity(userName: "Ada Lovelace", email: "ada@example.com", workspaceID: "7654322", workspaceName: "Side Project"))
        #expect(try toggl(fake, workspace: "7654322").identity().workspaceName == "Side Project")
        #expect(try fake.log() == ["GET /me 200", "GET /me/workspaces 200", "GET /me 200", "GET /me/workspaces 200",
                                   "GET /me 200", "GET /me/workspaces 200"])
    }

    @Test func anUnknownWorkspaceIsRejectedWithTheAccountsWorkspaces() throws {
        let fake = try start()
        #expect(serviceFailure { try toggl(fake, workspace: "7654323").identity() }
            == .rejected(status: 404, message: "no workspace \"7654323\" for this account (it has: My Company, Side Project)"))
    }

    // MARK: - Create

    @Test func createMakesTheMissingClientAndProjectAndSendsTagsByName() throws {
        let fake = try start()
        let service = toggl(fake)
        let first = try service.create(pushed("Docs", monday(), monday(minutes: 90), project: RemoteProjectName(name: "Website", client: "Acme"),
                                              tags: ["deep", "review", "deep"], billable: true))
        #expect(first == "3500000001")
        #expect(try names(fake, "clients") == ["61000001 Acme"])
        #expect(try names(fake, "projects") == ["203000001 Website client=61000001"])
        #expect(try names(fake, "tags") == ["17000001 deep", "17000002 review"])
        let ws = "/workspaces/7654321"
        #expect(try fake.log() == [
            "GET /me 200", "GET /me/workspaces 200", "GET \(ws)/projects 200", "GET \(ws)/clients 200",
            "POST \(ws)/clients 200", "POST \(ws)/projects 200", "GET \(ws)/tags 200", "POST \(ws)/time_entries 200",
        ])
        let log = try fake.requests()
        for post in log where post["method"] as? String == "POST" {
            #expect(log.filter { $0["connection"] as? Int == post["connection"] as? Int }.count == 1)
        }
        #expect(json(log.last?["body"]) == #"{"billable":true,"created_with":"trackee","description":"Docs","duration":5400,"#
            + #""project_id":203000001,"start":"2026-11-23T08:00:00Z","stop":"2026-11-23T09:30:00Z","tags":["deep","review"],"#
            + #""workspace_id":7654321}"#)

        // The project is kept; the tags Toggl created are listed again, and
        // found in any case.
        let seen = try fake.lastRequest()
        let second = try service.create(pushed("More", monday(minutes: 90), monday(minutes: 120),
                                               project: RemoteProjectName(name: "website", client: "ACME"), tags: ["Review"]))
        #expect(second == "3500000002")
        #expect(try fake.log(since: seen) == ["GET \(ws)/tags 200", "POST \(ws)/time_entries 200"])
        #expect(try stored(fake) == [
            "Docs 2026-11-23T08:00:00+00:00 2026-11-23T09:30:00+00:00 5400 ws=7654321 project=203000001 tags=deep,review billable",
            "More 2026-11-23T09:30:00+00:00 2026-11-23T10:00:00+00:00 1800 ws=7654321 project=203000001 tags=review unbillable",
        ])
    }

    @Test func aMissingProjectOrTagIsRejectedWhenCreateMissingIsOff() throws {
        let fake = try start()
        let service = toggl(fake, createMissing: false)
        #expect(serviceFailure {
            try service.create(pushed("Docs", monday(), monday(minutes: 30), project: RemoteProjectName(name: "Website", client: "Acme")))
        } == .rejected(status: 400,
                       message: "project \"Website\" of client \"Acme\" does not exist in workspace \"My Company\" (create_missing is off)"))
        #expect(serviceFailure {
            try service.create(pushed("Docs", monday(), monday(minutes: 30), project: RemoteProjectName(name: "Website", client: nil)))
        } == .rejected(status: 400, message: "project \"Website\" does not exist in workspace \"My Company\" (create_missing is off)"))
        // Toggl would create the tag itself.
        #expect(serviceFailure { try service.create(pushed("Docs", monday(), monday(minutes: 30), tags: ["deep"])) }
            == .rejected(status: 400, message: "tag \"deep\" does not exist in workspace \"My Company\" (create_missing is off)"))
        #expect(try fake.log().filter { $0.hasPrefix("POST") } == [])
        #expect(try stored(fake) == [])
        #expect(try fake.stored("tags").isEmpty)
    }

    @Test func missingProjectsPagesThroughTheWorkspacesProjects() throws {
        let fake = try start()
        let setup = toggl(fake)
        for (n, name) in ["Alpha", "Beta", "Gamma"].enumerated() {
            _ = try setup.create(pushed("\(n)", monday(), monday(minutes: 10), project: RemoteProjectName(name: name, client: nil)))
        }
        let service = toggl(fake, createMissing: false)
        service.pageSize = 2
        let seen = try fake.lastRequest()
        #expect(try service.missingProjects([
            RemoteProjectName(name: "gamma", client: nil), RemoteProjectName(name: "Delta", client: nil),
            RemoteProjectName(name: "Alpha", client: "Acme"),
        ]) == [RemoteProjectName(name: "Delta", client: nil), RemoteProjectName(name: "Alpha", client: "Acme")])
        #expect(try fake.requests(since: seen).map { $0["path"] as? String ?? "" } == [
            "/api/v9/me", "/api/v9/me/workspaces", "/api/v9/workspaces/7654321/projects?page=1&per_page=2",
            "/api/v9/workspaces/7654321/projects?page=2&per_page=2", "/api/v9/workspaces/7654321/clients",
        ])
    }

    // MARK: - Listing

    @Test func entriesAreThoseOfTheWorkspaceStartingInTheRangeBothEndsIncluded() throws {
        let fake = try start()
        let service = toggl(fake)
        let from = monday(), to = monday(minutes: 600)
        _ = try service.create(pushed("before", from - 1, from + 600))
        let first = try service.create(pushed("first", from, from + 600))
        let middle = try service.create(pushed("middle \"quoted\" ünïcode", from + 3600, from + 7200))
        let last = try service.create(pushed("last", to, to + 60))
        _ = try service.create(pushed("after", to + 1, to + 60))
        let running = try HTTPClient().send(HTTPRequest(
            method: "POST", url: fake.baseURL + "/workspaces/7654321/time_entries",
            headers: [("Authorization", "Basic " + Data("\(secretToken):api_token".utf8).base64EncodedString())],
            body: Array(#"{"created_with":"test","start":"2026-11-23T12:00:00Z","duration":-1}"#.utf8), fresh: true))
        #expect(running.status == 200)
        _ = try toggl(fake, workspace: "Side Project").create(pushed("elsewhere", from + 60, from + 120))

        let listed = try service.entries(from: from, to: to).sorted { $0.start < $1.start }
        #expect(listed == [
            RemoteTimeEntry(id: first, start: from, end: from + 600, description: "first"),
            RemoteTimeEntry(id: middle, start: from + 3600, end: from + 7200, description: "middle \"quoted\" ünïcode"),
            RemoteTimeEntry(id: "3500000006", start: monday(minutes: 240), end: nil, description: ""),
            RemoteTimeEntry(id: last, start: to, end: to + 60, description: "last"),
        ])
        #expect(try fake.requests().last?["path"] as? String
            == "/api/v9/me/time_entries?start_date=2026-11-23T08%3A00%3A00Z&end_date=2026-11-23T18%3A00%3A01Z")
    }

    // MARK: - Update and delete

    @Test func updateSendsEveryFieldSoItReplacesTheWholeEntry() throws {
        let fake = try start()
        let service = toggl(fake)
        let id = try service.create(pushed("Docs", monday(), monday(minutes: 90), project: RemoteProjectName(name: "Website", client: nil),
                                           tags: ["deep"], billable: true))
        try service.update(id: id, pushed("Docs, reviewed", monday(minutes: 15), monday(minutes: 45)))
        #expect(try stored(fake) == [
            "Docs, reviewed 2026-11-23T08:15:00+00:00 2026-11-23T08:45:00+00:00 1800 ws=7654321 project=- tags=- unbillable",
        ])
        #expect(json(try fake.requests().last?["body"]) == #"{"billable":false,"description":"Docs, reviewed","duration":1800,"#
            + #""project_id":null,"start":"2026-11-23T08:15:00Z","stop":"2026-11-23T08:45:00Z","tags":[],"workspace_id":7654321}"#)
        try service.update(id: id, pushed("Back", monday(), monday(minutes: 60), project: RemoteProjectName(name: "website", client: nil),
                                          tags: ["Deep"], billable: true))
        #expect(try stored(fake) == [
            "Back 2026-11-23T08:00:00+00:00 2026-11-23T09:00:00+00:00 3600 ws=7654321 project=203000001 tags=deep billable",
        ])
    }

    @Test func deleteRemovesTheEntryAndAnUnknownEntryIsNotFound() throws {
        let fake = try start()
        let service = toggl(fake)
        let id = try service.create(pushed("Docs", monday(), monday(minutes: 90)))
        try service.delete(id: id)
        #expect(try stored(fake) == [])
        #expect(serviceFailure { try service.delete(id: id) } == .notFound)
        #expect(serviceFailure { try service.update(id: id, pushed("Docs", monday(), monday(minutes: 90))) } == .notFound)
        #expect(try fake.log().suffix(3) == [
            "DELETE /workspaces/7654321/time_entries/\(id) 200", "DELETE /workspaces/7654321/time_entries/\(id) 404",
            "PUT /workspaces/7654321/time_entries/\(id) 404",
        ])
    }

    // MARK: - Failures

    @Test func aWrongTokenIsUnauthorized() throws {
        let fake = try start()
        let service = toggl(fake, token: "wrong-" + secretToken)
        #expect(serviceFailure { try service.identity() }
            == .unauthorized("Toggl Track did not accept the token (HTTP 403: Incorrect username and/or password)"))
        try fake.fail(["match": "^GET .*/me$", "mode": "status", "status": 401])
        #expect(serviceFailure { try toggl(fake).identity() } == .unauthorized("Toggl Track did not accept the token (HTTP 401: Unauthorized)"))
    }

    @Test func tooManyRequestsCarriesRetryAfter() throws {
        let fake = try start()
        try fake.fail(["match": "^GET .*/me/workspaces$", "mode": "retry_after", "retry_after": 7])
        let service = toggl(fake)
        #expect(serviceFailure { try service.identity() } == .rateLimited(retryAfter: 7))
        #expect(try service.identity().workspaceID == "7654321")
    }

    @Test func serverErrorsAndHTMLPagesAreTransient() throws {
        let fake = try start()
        let service = toggl(fake)
        _ = try service.identity()
        try fake.fail([
            ["match": "^POST .*/time_entries$", "mode": "status", "status": 500],
            ["match": "^POST .*/time_entries$", "mode": "status", "status": 502],
        ])
        let entry = pushed("Docs", monday(), monday(minutes: 30))
        #expect(serviceFailure { try service.create(entry) }
            == .transient("Toggl Track had a server error on POST /workspaces/7654321/time_entries (HTTP 500: Internal Server Error)"))
        #expect(serviceFailure { try service.create(entry) }
            == .transient("Toggl Track had a server error on POST /workspaces/7654321/time_entries (HTTP 502)"))
        #expect(try stored(fake) == [])
    }

    @Test func aCreateDroppedAfterItWasStoredIsTransientAndStoredOnce() throws {
        let fake = try start()
        let service = toggl(fake)
        try fake.fail(["match": "^POST .*/time_entries$", "mode": "drop_after_store"])
        let dropped = serviceFailure { try service.create(pushed("Docs", monday(), monday(minutes: 30))) }
        #expect(dropped == .transient("Toggl Track did not answer POST /workspaces/7654321/time_entries: "
            + "the connection closed without an answer (Empty reply from server)"))
        #expect(try stored(fake) == ["Docs 2026-11-23T08:00:00+00:00 2026-11-23T08:30:00+00:00 1800 ws=7654321 project=- tags=- unbillable"])
        #expect(try fake.log().filter { $0.hasPrefix("POST") } == ["POST /workspaces/7654321/time_entries dropped"])
    }

    @Test func anotherRefusalCarriesTheServicesMessageWithoutTheToken() throws {
        let fake = try start()
        let service = toggl(fake)
        try fake.fail(["match": "^POST .*/time_entries$", "mode": "status", "status": 409,
                       "message": "token \(secretToken) is not welcome"])
        #expect(serviceFailure { try service.create(pushed("Docs", monday(), monday(minutes: 30))) }
            == .rejected(status: 409, message: "token (token) is not welcome"))
    }

    @Test func a402IsTheQuotaWithTheWaitItsHeadersGive() throws {
        let fake = try start()
        let now = ManualTime(monday())
        try fake.setClock(now.seconds)
        try fake.setQuota(workspace: 2, user: nil)
        // Counted by the fake only: trackee's own count allows more.
        let quota = RequestQuota(service: "Toggl Track", limits: [.workspace: 100, .user: 30], clock: now.read)
        let service = TogglService(baseURL: fake.baseURL, token: secretToken, workspace: "My Company", createMissing: false,
                                   quota: quota)
        _ = try service.identity()
        _ = try service.create(pushed("one", monday(), monday(minutes: 30)))
        #expect(quota.left(.workspace) == 1)
        now.advance(600)
        try fake.setClock(now.seconds)
        _ = try service.create(pushed("two", monday(minutes: 30), monday(minutes: 60)))
        // The headers said none is left: the next create does not go out.
        #expect(quota.left(.workspace) == 0)
        let before = try fake.lastRequest()
        #expect(serviceFailure { try service.create(pushed("three", monday(minutes: 60), monday(minutes: 90))) }
            == .quota(QuotaWait(service: "Toggl Track", until: monday() + 3000 + 600, left: 0, limit: 100)))
        #expect(try fake.lastRequest() == before)
        // A 402 itself (another program used the quota) waits as long as the fake says.
        let other = TogglService(baseURL: fake.baseURL, token: secretToken, workspace: "My Company", createMissing: false,
                                 quota: RequestQuota(service: "Toggl Track", limits: [:], clock: now.read))
        #expect(serviceFailure { try other.create(pushed("three", monday(minutes: 60), monday(minutes: 90))) }
            == .quota(QuotaWait(service: "Toggl Track", until: monday() + 3600, left: 0, limit: 0)))
        #expect(try fake.log(since: before) == ["GET /me 200", "GET /me/workspaces 200", "POST /workspaces/7654321/time_entries 402"])
    }
}
