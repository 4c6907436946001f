import Foundation
import Testing
import TrackeeCore
import TrackeePush
import TrackeeTestSupport

/// The token every fake server accepts. Distinctive, so that finding it in
/// an error text cannot be a coincidence.
let secretToken = "tok-3f9c1e77-secret"

/// 2026-11-23T08:00:00Z, a Monday, and `minutes` after it.
func monday(minutes: Int64 = 0) -> Instant { Instant(seconds: 1_795_420_800 + minutes * 60) }

/// The `ServiceFailure` that `body` throws, checked for the token (every
/// failure in these tests goes through here or `httpFailure`); nil, with
/// an issue, when it succeeds or throws something else.
func serviceFailure<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) -> ServiceFailure? {
    caught(ServiceFailure.self, "a ServiceFailure", body, sourceLocation)
}

/// The `HTTPFailure` that `body` throws, checked for the token likewise.
func httpFailure<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) -> HTTPFailure? {
    caught(HTTPFailure.self, "an HTTPFailure", body, sourceLocation)
}

private func caught<Failure: Error & CustomStringConvertible, T>(
    _ type: Failure.Type, _ name: String, _ body: () throws -> T, _ sourceLocation: SourceLocation
) -> Failure? {
    do {
        _ = try body()
        Issue.record("expected a failure", sourceLocation: sourceLocation)
    } catch let failure as Failure {
        expectNoToken(failure.description, sourceLocation: sourceLocation)
        return failure
    } catch {
        Issue.record("expected \(name), not \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

func expectNoToken(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!text.contains(secretToken), "the token is in \(text.debugDescription)", sourceLocation: sourceLocation)
}

/// A finished entry as trackee pushes it.
func pushed(_ description: String, _ start: Instant, _ end: Instant, project: RemoteProjectName? = nil,
            tags: [String] = [], billable: Bool = false) -> PushedEntry {
    PushedEntry(start: start, end: end, description: description, project: project, tags: tags, billable: billable)
}

/// A JSON value from the fake's state or log as compact text, keys sorted.
func json(_ value: Any?) -> String {
    guard let value, let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    else { return "?" }
    return String(decoding: data, as: UTF8.self)
}

extension FakeTimeServiceProcess {
    /// One list of the control state, such as `time_entries` or `projects`.
    func stored(_ key: String) throws -> [[String: Any]] {
        try state()[key] as? [[String: Any]] ?? []
    }

    /// The request log as `METHOD /path-without-base STATUS` lines, the
    /// query left out.
    func log(since: Int = 0) throws -> [String] {
        try requests(since: since).map { record in
            let path = (record["path"] as? String ?? "").split(separator: "?")[0]
                .replacingOccurrences(of: "/api/v1", with: "").replacingOccurrences(of: "/api/v9", with: "")
            return "\(record["method"] ?? "") \(path) \(record["status"] ?? "")"
        }
    }

    /// The highest request sequence number so far (0: none).
    func lastRequest() throws -> Int {
        try requests().last?["seq"] as? Int ?? 0
    }
}

/// A clock that moves only when a test moves it.
final class ManualTime: @unchecked Sendable {
    private(set) var now: Instant

    init(_ start: Instant) { now = start }

    var seconds: Int64 { now.seconds }

    func advance(_ seconds: Int64) { now = now + seconds }

    func set(_ instant: Instant) { now = instant }

    /// The clock as the code under test takes it.
    var read: () -> Instant { { self.now } }
}
