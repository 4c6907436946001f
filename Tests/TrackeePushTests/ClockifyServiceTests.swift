import Foundation
import Testing
import TrackeeCore
@testable import TrackeePush
import TrackeeTestSupport

/// `ClockifyService` against the fake Clockify v1, one server per test.
///
/// The fake hands out ids in one sequence: the user `…01`, the workspaces
/// `…02` (My Company) and `…03` (Side Project), then whatever is created.
@Suite struct ClockifyServiceTests {
    static func id(_ n: Int) -> String { "6650a1b2c3d4e5f6000000" + (n < 10 ? "0" : "") + "\(n)" }
    let company = id(2)
    let side = id(3)

    func start() throws -> FakeTimeServiceProcess {
        try FakeTimeServiceProcess(service: "clockify", token: secretToken, workspaces: ["My Company", "Side Project"])
    }

    func clockify(_ fake: FakeTimeServiceProcess, workspace: String = "My Company", createMissing: Bool = true,
                  token: String = secretToken, timeout: Double = 10) -> ClockifyService {
        ClockifyService(baseURL: fake.baseURL, token: token, workspace: workspace, createMissing: createMissing,
                        timeout: timeout)
    }

    /// The stored entries as `description start end project tags billable`.
    func stored(_ fake: FakeTimeServiceProcess) throws -> [String] {
        try fake.stored("time_entries").map { entry in
            let interval = entry["timeInterval"] as? [String: Any] ?? [:]
            let tags = (entry["tagIds"] as? [String])?.joined(separator: ",") ?? "-"
            return "\(entry["description"] as? String ?? "?") \(interval["start"] as? String ?? "-") "
                + "\(interval["end"] as? String ?? "-") project=\(entry["projectId"] as? String ?? "-") tags=\(tags) "
                + (entry["billable"] as? Bool == true ? "billable" : "unbillable")
        }
    }

    func names(_ fake: FakeTimeServiceProcess, _ key: String) throws -> [String] {
        try fake.stored(key).map { item in
            let client = (item["clientId"] as? String).map { $0.isEmpty ? "" : " client=\($0)" } ?? ""
            return "\(item["id"] as? String ?? "?") \(item["name"] as? String ?? "?")" + client
        }
    }

    // MARK: - Identity

    @Test func identityNamesTheUserAndTheWorkspaceChosenByNameInAnyCaseOrById() throws {
        let fake = try start()
        #expect(try clockify(fake).identity()
            == ServiceIdentity(userName: "Ada Lovelace", email: "ada@example.com", workspaceID: company, workspaceName: "My Company"))
        #expect(try clockify(fake, workspace: "side PROJECT").identity()
            == ServiceIdentity(userName: "Ada Lovelace", email: "ada@example.com", workspaceID: side, workspaceName: "Side Project"))
        #expect(try clockify(fake, workspace: side).identity().workspaceName == "Side Project")
        #expect(try fake.log() == ["GET /user 200", "GET /workspaces 200", "GET /user 200", "GET /workspaces 200",
                                   "GET /user 200", "GET /workspaces 200"])
    }

    @Test func anUnknownWorkspaceIsRejectedWithTheAccountsWorkspaces() throws {
        let fake = try start()
        #expect(serviceFailure { try clockify(fake, workspace: "Nope").identity() }
            == .rejected(status: 404, message: "no workspace \"Nope\" for this account (it has: My Company, Side Project)"))
    }

    // MARK: - Create

    @Test func createMakesTheMissingClientProjectAndTagsOnceAndKeepsThem() throws {
        let fake = try start()
        let service = clockify(fake)
        let website = RemoteProjectName(name: "Website", client: "Acme")
        let first = try service.create(pushed("Docs", monday(), monday(minutes: 90), project: website,
                                              tags: ["deep", "review", "deep"], billable: true))
        #expect(first == Self.id(8))
        #expect(try names(fake, "clients") == ["\(Self.id(4)) Acme"])
        #expect(try names(fake, "projects") == ["\(Self.id(5)) Website client=\(Self.id(4))"])
        #expect(try names(fake, "tags") == ["\(Self.id(6)) deep", "\(Self.id(7)) review"])
        let ws = "/workspaces/\(company)"
        #expect(try fake.log() == [
            "GET /user 200", "GET /workspaces 200", "GET \(ws)/projects 200", "GET \(ws)/clients 200",
            "POST \(ws)/clients 201", "POST \(ws)/projects 201", "GET \(ws)/tags 200", "POST \(ws)/tags 201",
            "POST \(ws)/tags 201", "POST \(ws)/time-entries 201",
        ])
        // Every create went out on a connection of its own.
        let log = try fake.requests()
        for post in log where post["method"] as? String == "POST" {
            #expect(log.filter { $0["connection"] as? Int == post["connection"] as? Int }.count == 1)
        }

        // Found again from what the value keeps, in any case.
        let seen = try fake.lastRequest()
        let second = try service.create(pushed("More", monday(minutes: 90), monday(minutes: 120),
                                               project: RemoteProjectName(name: "website", client: "ACME"), tags: ["Review"]))
        #expect(second == Self.id(9))
        #expect(try fake.log(since: seen) == ["POST \(ws)/time-entries 201"])
        #expect(try stored(fake) == [
            "Docs 2026-11-23T08:00:00Z 2026-11-23T09:30:00Z project=\(Self.id(5)) tags=\(Self.id(6)),\(Self.id(7)) billable",
            "More 2026-11-23T09:30:00Z 2026-11-23T10:00:00Z project=\(Self.id(5)) tags=\(Self.id(7)) unbillable",
        ])
    }

    @Test func anEntryWithoutProjectOrTagsNeedsNoLookups() throws {
        let fake = try start()
        #expect(try clockify(fake, createMissing: false).create(pushed("Plain", monday(), monday(minutes: 30))) == Self.id(4))
        #expect(try fake.log() == ["GET /user 200", "GET /workspaces 200", "POST /workspaces/\(company)/time-entries 201"])
        #expect(try stored(fake) == ["Plain 2026-11-23T08:00:00Z 2026-11-23T08:30:00Z project=- tags=- unbillable"])
    }

    @Test func aMissingProjectOrTagIsRejectedWhenCreateMissingIsOff() throws {
        let fake = try start()
        let service = clockify(fake, createMissing: false)
        #expect(serviceFailure {
            try service.create(pushed("Docs", monday(), monday(minutes: 30), project: RemoteProjectName(name: "Website", client: "Acme")))
        } == .rejected(status: 400,
                       message: "project \"Website\" of client \"Acme\" does not exist in workspace \"My Company\" (create_missing is off)"))
        #expect(serviceFailure {
            try service.create(pushed("Docs", monday(), monday(minutes: 30), project: RemoteProjectName(name: "Website", client: nil)))
        } == .rejected(status: 400, message: "project \"Website\" does not exist in workspace \"My Company\" (create_missing is off)"))
        #expect(serviceFailure { try service.create(pushed("Docs", monday(), monday(minutes: 30), tags: ["deep"])) }
            == .rejected(status: 400, message: "tag \"deep\" does not exist in workspace \"My Company\" (create_missing is off)"))
        #expect(try fake.log().filter { $0.hasPrefix("POST") } == [])
        #expect(try stored(fake) == [])
    }

    @Test func aProjectWithoutClientInTheSettingsIsTheOnlyProjectOfThatName() throws {
        let fake = try start()
        let setup = clockify(fake)
        _ = try setup.create(pushed("a", monday(), monday(minutes: 10), project: RemoteProjectName(name: "Website", client: "Acme")))
        _ = try setup.create(pushed("b", monday(), monday(minutes: 10), project: RemoteProjectName(name: "Intranet", client: "Acme")))
        _ = try setup.create(pushed("c", monday(), monday(minutes: 10), project: RemoteProjectName(name: "Intranet", client: "Initech")))
        let service = clockify(fake, createMissing: false)
        #expect(try service.missingProjects([
            RemoteProjectName(name: "WEBSITE", client: nil),
            RemoteProjectName(name: "Intranet", client: nil),
            RemoteProjectName(name: "Intranet", client: "initech"),
            RemoteProjectName(name: "Website", client: "Initech"),
            RemoteProjectName(name: "Shop", client: nil),
        ]) == [
            RemoteProjectName(name: "Intranet", client: nil),
            RemoteProjectName(name: "Website", client: "Initech"),
            RemoteProjectName(name: "Shop", client: nil),
        ])
        _ = try service.create(pushed("d", monday(), monday(minutes: 10), project: RemoteProjectName(name: "website", client: nil)))
        #expect(try stored(fake).last == "d 2026-11-23T08:00:00Z 2026-11-23T08:10:00Z project=\(Self.id(5)) tags=- unbillable")
    }

    // MARK: - Listing

    @Test func entriesAreThoseStartingInTheRangeBothEndsIncluded() throws {
        let fake = try start()
        let service = clockify(fake)
        let from = monday(), to = monday(minutes: 600)
        _ = try service.create(pushed("before", from - 1, from + 600))
        let first = try service.create(pushed("first", from, from + 600))
        let middle = try service.create(pushed("middle \"quoted\" ünïcode", from + 3600, from + 7200))
        let last = try service.create(pushed("last", to, to + 60))
        _ = try service.create(pushed("after", to + 1, to + 60))
        // A timer running on the service lists without an end.
        let running = try HTTPClient().send(HTTPRequest(
            method: "POST", url: fake.baseURL + "/workspaces/\(company)/time-entries", headers: [("X-Api-Key", secretToken)],
            body: Array(#"{"start":"2026-11-23T12:00:00Z","description":"running"}"#.utf8), fresh: true))
        #expect(running.status == 201)

        let listed = try service.entries(from: from, to: to).sorted { $0.start < $1.start }
        #expect(listed == [
            RemoteTimeEntry(id: first, start: from, end: from + 600, description: "first"),
            RemoteTimeEntry(id: middle, start: from + 3600, end: from + 7200, description: "middle \"quoted\" ünïcode"),
            RemoteTimeEntry(id: Self.id(9), start: monday(minutes: 240), end: nil, description: "running"),
            RemoteTimeEntry(id: last, start: to, end: to + 60, description: "last"),
        ])
        #expect(try fake.requests().last?["path"] as? String
            == "/api/v1/workspaces/\(company)/user/\(Self.id(1))/time-entries?start=2026-11-23T08%3A00%3A00Z&end=2026-11-23T18%3A00%3A00Z&page=1&page-size=5000")
    }

    @Test func entriesArePagedUntilAShortPage() throws {
        let fake = try start()
        let service = clockify(fake)
        service.pageSize = 2
        for n in 0..<5 { _ = try service.create(pushed("e\(n)", monday(minutes: Int64(n)), monday(minutes: Int64(n) + 1))) }
        let seen = try fake.lastRequest()
        #expect(try service.entries(from: monday(), to: monday(minutes: 60)).map(\.description).sorted()
            == ["e0", "e1", "e2", "e3", "e4"])
        #expect(try fake.requests(since: seen).map { ($0["path"] as? String ?? "").split(separator: "&").suffix(2).joined(separator: "&") }
            == ["page=1&page-size=2", "page=2&page-size=2", "page=3&page-size=2"])
    }

    // MARK: - Update and delete

    @Test func updateReplacesTheWholeEntry() throws {
        let fake = try start()
        let service = clockify(fake)
        let id = try service.create(pushed("Docs", monday(), monday(minutes: 90), project: RemoteProjectName(name: "Website", client: nil),
                                           tags: ["deep"], billable: true))
        try service.update(id: id, pushed("Docs, reviewed", monday(minutes: 15), monday(minutes: 45)))
        #expect(try stored(fake) == ["Docs, reviewed 2026-11-23T08:15:00Z 2026-11-23T08:45:00Z project=- tags=- unbillable"])
        try service.update(id: id, pushed("Back", monday(), monday(minutes: 60), project: RemoteProjectName(name: "Website", client: nil),
                                          tags: ["Deep"], billable: true))
        #expect(try stored(fake) == [
            "Back 2026-11-23T08:00:00Z 2026-11-23T09:00:00Z project=\(Self.id(4)) tags=\(Self.id(5)) billable",
        ])
        #expect(try fake.log().filter { $0.hasPrefix("PUT") }.count == 2)
    }

    @Test func deleteRemovesTheEntryAndAnUnknownEntryIsNotFound() throws {
        let fake = try start()
        let service = clockify(fake)
        let id = try service.create(pushed("Docs", monday(), monday(minutes: 90)))
        try service.delete(id: id)
        #expect(try stored(fake) == [])
        #expect(serviceFailure { try service.delete(id: id) } == .notFound)
        #expect(serviceFailure { try service.update(id: id, pushed("Docs", monday(), monday(minutes: 90))) } == .notFound)
        #expect(serviceFailure { try service.delete(id: "no/such id") } == .notFound)
        #expect(try fake.log().suffix(3) == [
            "DELETE /workspaces/\(company)/time-entries/\(id) 404", "PUT /workspaces/\(company)/time-entries/\(id) 404",
            "DELETE /workspaces/\(company)/time-entries/no%2Fsuch%20id 404",
        ])
    }

    // MARK: - Failures

    @Test func aWrongTokenIsUnauthorized() throws {
        let fake = try start()
        let service = clockify(fake, token: "wrong-" + secretToken)
        #expect(serviceFailure { try service.identity() }
            == .unauthorized("Clockify did not accept the token (HTTP 401: Full authentication is required to access this resource)"))
        #expect(serviceFailure { try service.create(pushed("Docs", monday(), monday(minutes: 30))) }
            == .unauthorized("Clockify did not accept the token (HTTP 401: Full authentication is required to access this resource)"))
        try fake.fail(["match": "^GET .*/workspaces$", "mode": "status", "status": 403])
        #expect(serviceFailure { try clockify(fake).identity() }
            == .unauthorized("Clockify did not accept the token (HTTP 403: Access Denied)"))
    }

    @Test func tooManyRequestsCarriesRetryAfter() throws {
        let fake = try start()
        try fake.fail(["match": "^GET .*/user$", "mode": "retry_after", "retry_after": 7])
        let service = clockify(fake)
        #expect(serviceFailure { try service.identity() } == .rateLimited(retryAfter: 7))
        #expect(try service.identity().workspaceID == company)
    }

    @Test func serverErrorsAndHTMLPagesAreTransient() throws {
        let fake = try start()
        let service = clockify(fake)
        _ = try service.identity()
        try fake.fail([
            ["match": "^POST .*/time-entries$", "mode": "status", "status": 500],
            ["match": "^POST .*/time-entries$", "mode": "status", "status": 502],
        ])
        let entry = pushed("Docs", monday(), monday(minutes: 30))
        #expect(serviceFailure { try service.create(entry) }
            == .transient("Clockify had a server error on POST /workspaces/\(company)/time-entries (HTTP 500: Internal Server Error)"))
        #expect(serviceFailure { try service.create(entry) }
            == .transient("Clockify had a server error on POST /workspaces/\(company)/time-entries (HTTP 502)"))
        #expect(try stored(fake) == [])
    }

    @Test func aCreateDroppedAfterItWasStoredIsTransientAndStoredOnce() throws {
        let fake = try start()
        let service = clockify(fake)
        try fake.fail(["match": "^POST .*/time-entries$", "mode": "drop_after_store"])
        let dropped = serviceFailure { try service.create(pushed("Docs", monday(), monday(minutes: 30))) }
        #expect(dropped == .transient("Clockify did not answer POST /workspaces/\(company)/time-entries: "
            + "the connection closed without an answer (Empty reply from server)"))
        #expect(dropped?.mayHaveApplied == true)
        #expect(try stored(fake) == ["Docs 2026-11-23T08:00:00Z 2026-11-23T08:30:00Z project=- tags=- unbillable"])
        #expect(try fake.log().filter { $0.hasPrefix("POST") } == ["POST /workspaces/\(company)/time-entries dropped"])
    }

    @Test func anotherRefusalCarriesTheServicesMessageWithoutTheToken() throws {
        let fake = try start()
        let service = clockify(fake)
        try fake.fail(["match": "^POST .*/time-entries$", "mode": "status", "status": 400,
                       "message": "key \(secretToken) may not write here"])
        #expect(serviceFailure { try service.create(pushed("Docs", monday(), monday(minutes: 30))) }
            == .rejected(status: 400, message: "key (token) may not write here"))
    }

    @Test func anUnreachableServiceIsTransient() throws {
        let fake = try start()
        let service = clockify(fake)
        try fake.down(mode: "refuse")
        let refused = serviceFailure { try service.identity() }
        #expect(refused?.description.hasPrefix("Clockify did not answer GET /user: could not connect (") == true)
        #expect(refused?.mayHaveApplied == true)
    }
}
