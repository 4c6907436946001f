import Foundation
import TrackeeCore

/// One time service's JSON API as a token sees it: where it is, how to
/// authenticate, and how its answers become values or a `ServiceFailure`.
/// Clockify and Toggl Track share this; what differs (paths, bodies) is
/// theirs.
///
/// Every error text passes through `redacted`, so the token cannot reach a
/// log or the outbox even when a server echoes it.
struct ServiceAPI {
    /// How error texts name the service: `Clockify`, `Toggl Track`.
    let name: String
    /// Without a trailing slash; paths start with one.
    let baseURL: String
    let authorization: (String, String)
    let token: String
    let timeout: Double
    let http: HTTPClient
    /// Counts every request against the service's hourly quota.
    let quota: RequestQuota
    /// Paths under this prefix count against the user quota (Toggl's
    /// `/me`); nil: every request counts against the workspace's.
    var userPaths: String?

    /// Sends one request and returns the 2xx answer; anything else throws.
    /// `entry` says the path names one time entry, so a 404 means the
    /// service no longer has it. `fresh` is for creates (see
    /// `HTTPRequest.fresh`).
    func call(_ method: String, _ path: String, query: [(String, String)] = [], body: [UInt8]? = nil,
              fresh: Bool = false, entry: Bool = false) throws(ServiceFailure) -> HTTPResponse {
        var headers = [authorization, ("Accept", "application/json")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        let request = HTTPRequest(method: method, url: baseURL + path + queryString(query), headers: headers,
                                  body: body, timeout: timeout, fresh: fresh)
        let scope: RequestQuota.Scope = userPaths.map { path == $0 || path.hasPrefix($0 + "/") } == true ? .user : .workspace
        try quota.take(scope)
        let response: HTTPResponse
        do {
            response = try http.send(request)
        } catch {
            throw .transient(redacted("\(name) did not answer \(method) \(path): \(error)"))
        }
        let resetsIn = response.headers["x-toggl-quota-resets-in"].flatMap { Int($0.trimmingWhitespace()) }
        quota.heard(scope, left: response.headers["x-toggl-quota-remaining"].flatMap { Int($0.trimmingWhitespace()) },
                    resetsIn: resetsIn)
        if response.status == 402 {
            // Toggl's answer to a used-up quota: the request was not applied.
            throw .quota(quota.exhausted(scope, resetsIn: resetsIn))
        }
        guard (200..<300).contains(response.status) else {
            throw failure(response, method, path, entry: entry)
        }
        return response
    }

    /// GET `path` and decode its JSON.
    func get<Answer: Decodable>(_ type: Answer.Type, _ path: String,
                                query: [(String, String)] = []) throws(ServiceFailure) -> Answer {
        try decode(type, try call("GET", path, query: query), "GET", path)
    }

    /// GET one time entry at `path` and decode it; nil on 404.
    func entry<Answer: Decodable>(_ type: Answer.Type, _ path: String) throws(ServiceFailure) -> Answer? {
        do {
            return try decode(type, try call("GET", path, entry: true), "GET", path)
        } catch .notFound {
            return nil
        }
    }

    /// Sends `body` as JSON and decodes the answer.
    func send<Answer: Decodable>(_ type: Answer.Type, _ method: String, _ path: String, _ body: some Encodable,
                                 fresh: Bool = false, entry: Bool = false) throws(ServiceFailure) -> Answer {
        let response = try call(method, path, body: json(body), fresh: fresh, entry: entry)
        return try decode(type, response, method, path)
    }

    /// Every item of a paged listing: pages 1, 2, … of `size` items until
    /// a shorter one.
    func pages<Item: Decodable>(_ type: Item.Type, _ path: String, query: [(String, String)] = [],
                                sizeName: String, size: Int) throws(ServiceFailure) -> [Item] {
        var items: [Item] = []
        var page = 1
        while true {
            let batch = try get([Item]?.self, path, query: query + [("page", "\(page)"), (sizeName, "\(size)")]) ?? []
            items += batch
            if batch.count < size { return items }
            page += 1
        }
    }

    /// A request body. Encoding these plain structs cannot fail.
    func json(_ body: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(body) else { preconditionFailure("a request body that is not JSON") }
        return Array(data)
    }

    func decode<Answer: Decodable>(_ type: Answer.Type, _ response: HTTPResponse, _ method: String,
                                   _ path: String) throws(ServiceFailure) -> Answer {
        do {
            return try JSONDecoder().decode(type, from: Data(response.body))
        } catch {
            // Transient: for a create, the service has stored the entry,
            // and the pusher must look for it before sending it again.
            throw .transient(redacted("\(name) answered \(method) \(path) with JSON trackee cannot read (\(unreadable(error)))"))
        }
    }

    /// The failure an answer other than 2xx stands for.
    func failure(_ response: HTTPResponse, _ method: String, _ path: String, entry: Bool) -> ServiceFailure {
        let status = response.status
        let message = errorMessage(response.body).map(redacted)
        let said = message.map { ": " + $0 } ?? ""
        switch status {
        case 401, 403:
            return .unauthorized("\(name) did not accept the token (HTTP \(status)\(said))")
        case 404 where entry:
            return .notFound
        case 429:
            return .rateLimited(retryAfter: response.headers["retry-after"].flatMap { Int($0.trimmingWhitespace()) })
        case 300..<400:
            let target = response.headers["location"].map { " to \($0)" } ?? ""
            return .rejected(status: status, message: redacted("\(method) \(path) was redirected\(target); check the service's URL"))
        case 400..<500:
            return .rejected(status: status, message: message ?? "\(method) \(path) failed")
        default:
            return .transient("\(name) had a server error on \(method) \(path) (HTTP \(status)\(said))")
        }
    }

    /// `text` with every occurrence of the token replaced.
    func redacted(_ text: String) -> String {
        token.isEmpty ? text : text.replacingOccurrences(of: token, with: "(token)")
    }

    private func queryString(_ query: [(String, String)]) -> String {
        query.isEmpty ? "" : "?" + query.map { escaped($0.0) + "=" + escaped($0.1) }.joined(separator: "&")
    }
}

/// The service's own words in an error body: a JSON string (Toggl), the
/// `message` or `error` of a JSON object (Clockify), or short plain text.
/// Nil for an HTML page (a load balancer's 502) or an empty body.
func errorMessage(_ body: [UInt8]) -> String? {
    let text: String
    if let value = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) {
        if let string = value as? String {
            text = string
        } else if let object = value as? [String: Any], let string = (object["message"] ?? object["error"]) as? String {
            text = string
        } else {
            return nil
        }
    } else {
        text = String(decoding: body, as: UTF8.self)
        if text.trimmingWhitespace().hasPrefix("<") { return nil }
    }
    let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingWhitespace()
    if line.isEmpty { return nil }
    return line.count > 300 ? String(line.prefix(300)) + "…" : line
}

/// Where JSON did not have the expected shape: `no .id`, `unexpected [3].timeInterval.start`.
private func unreadable(_ error: any Error) -> String {
    func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
    }
    switch error as? DecodingError {
    case .keyNotFound(let key, let context): return "no " + path(context.codingPath + [key])
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
        return "unexpected " + (context.codingPath.isEmpty ? "value" : path(context.codingPath))
    case .dataCorrupted(let context) where !context.codingPath.isEmpty: return "unexpected " + path(context.codingPath)
    default: return "not JSON"
    }
}

/// `text` percent-encoded for a path segment or a query value: all but
/// RFC 3986's unreserved characters.
func escaped(_ text: String) -> String {
    var result = ""
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "~"):
            result.unicodeScalars.append(Unicode.Scalar(byte))
        default:
            let hex = Array("0123456789ABCDEF".unicodeScalars)
            result.unicodeScalars.append(contentsOf: ["%", hex[Int(byte >> 4)], hex[Int(byte & 15)]])
        }
    }
    return result
}

/// An RFC 3339 date-time as both services write it: `2026-11-23T08:00:00Z`
/// or `2026-11-23T08:00:00+00:00`, fractions of a second dropped. Nil for
/// anything else.
func instant(rfc3339 text: String) -> Instant? {
    let b = Array(text.utf8)
    func number(_ range: Range<Int>) -> Int? {
        guard range.upperBound <= b.count else { return nil }
        var n = 0
        for i in range {
            guard b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") else { return nil }
            n = n * 10 + Int(b[i] - UInt8(ascii: "0"))
        }
        return n
    }
    guard b.count >= 20, let year = number(0..<4), b[4] == UInt8(ascii: "-"), let month = number(5..<7),
          b[7] == UInt8(ascii: "-"), let day = number(8..<10), b[10] | 0x20 == UInt8(ascii: "t"),
          let hour = number(11..<13), b[13] == UInt8(ascii: ":"), let minute = number(14..<16),
          b[16] == UInt8(ascii: ":"), let second = number(17..<19)
    else { return nil }
    var i = 19
    if b[i] == UInt8(ascii: ".") {
        i += 1
        while i < b.count, number(i..<i + 1) != nil { i += 1 }
    }
    guard i < b.count else { return nil }
    let offset: Int
    if b[i] | 0x20 == UInt8(ascii: "z"), i + 1 == b.count {
        offset = 0
    } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), i + 6 == b.count,
              let hours = number(i + 1..<i + 3), b[i + 3] == UInt8(ascii: ":"), let minutes = number(i + 4..<i + 6) {
        offset = (b[i] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    } else {
        return nil
    }
    let date = LocalDate(year: year, month: month, day: day)
    guard date.isValid, hour < 24, minute < 60, second < 61 else { return nil }
    let local = LocalDateTime(date: date, hour: hour, minute: minute, second: second)
    return Instant(seconds: local.secondsSinceEpoch - Int64(offset))
}

// MARK: - Names in a workspace

/// A project as a service lists it; `clientID` nil when it has no client.
struct ListedProject: Codable, Equatable {
    var id: String
    var name: String
    var clientID: String?
}

/// A client or a tag as a service lists it.
struct ListedName: Codable, Equatable {
    var id: String
    var name: String
}

/// The item called `name`, ignoring case; the exact spelling wins when
/// names differ only in case.
func pick<Item>(_ items: [Item], named name: String, _ nameOf: (Item) -> String) -> Item? {
    let folded = name.lowercased()
    let same = items.filter { nameOf($0).lowercased() == folded }
    return same.first { nameOf($0) == name } ?? same.first
}

extension RemoteProjectName {
    /// The listed project this name means. With a client: the project of
    /// that name under that client. Without: the project of that name
    /// that has no client, or else the only project of that name under any
    /// client, so a setting need not repeat a client the service already
    /// knows. Names match ignoring case.
    func match(in projects: [ListedProject], clients: [ListedName]) -> ListedProject? {
        let folded = name.lowercased()
        let named = projects.filter { $0.name.lowercased() == folded }
        if let client {
            let clientIDs = Set(clients.filter { $0.name.lowercased() == client.lowercased() }.map(\.id))
            return pick(named.filter { $0.clientID.map(clientIDs.contains) ?? false }, named: name, \.name)
        }
        if let loose = pick(named.filter { $0.clientID == nil }, named: name, \.name) { return loose }
        return named.count == 1 ? named[0] : nil
    }

    /// How messages name it: `"Website"`, or `"Website" of client "Acme"`.
    var quoted: String {
        "\"\(name)\"" + (client.map { " of client \"\($0)\"" } ?? "")
    }
}

extension ServiceFailure {
    /// The refusal for a project or tag that is missing while
    /// `create_missing` is off.
    static func missing(_ what: String, in workspace: String) -> ServiceFailure {
        .rejected(status: 400, message: "\(what) does not exist in workspace \"\(workspace)\" (create_missing is off)")
    }

    /// The refusal for a workspace setting the account has no match for.
    static func noWorkspace(_ wanted: String, among names: [String]) -> ServiceFailure {
        .rejected(status: 404, message: "no workspace \"\(wanted)\" for this account (it has: \(names.joined(separator: ", ")))")
    }
}

/// What a workspace has, as far as pushing needs it, listed once and kept:
/// projects and clients, with how to create each at the service.
struct ProjectCatalog {
    var projects: [ListedProject]?
    var clients: [ListedName]?

    /// The id of the project `wanted` names in the listed catalog; when it
    /// is missing and `createMissing` allows, its client (if missing too)
    /// and then the project are created there.
    mutating func id(of wanted: RemoteProjectName, createMissing: Bool, workspace: String,
                     createClient: (String) throws(ServiceFailure) -> ListedName,
                     createProject: (String, String?) throws(ServiceFailure) -> ListedProject) throws(ServiceFailure) -> String {
        let listedClients = clients ?? []
        if let project = wanted.match(in: projects ?? [], clients: listedClients) { return project.id }
        guard createMissing else { throw .missing("project " + wanted.quoted, in: workspace) }
        do throws(ServiceFailure) {
            var clientID: String?
            if let name = wanted.client {
                if let client = pick(listedClients, named: name, \.name) {
                    clientID = client.id
                } else {
                    let client = try createClient(name)
                    clients?.append(client)
                    clientID = client.id
                }
            }
            let project = try createProject(wanted.name, clientID)
            projects?.append(project)
            return project.id
        } catch {
            // A create that got no answer may have happened: list again next time.
            projects = nil
            clients = nil
            throw error
        }
    }
}
