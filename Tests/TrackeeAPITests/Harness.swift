import Foundation
import Logging
import Synchronization
import TrackeeAPI
import TrackeeAutomation
import TrackeeCore
import TrackeeStore

/// 2026-11-20T09:00:00Z, a Friday.
let nine = Instant(seconds: 1_795_165_200)

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let instant: Mutex<Instant>
    init(_ start: Instant) { instant = Mutex(start) }
    var now: Instant { instant.withLock { $0 } }
    func advance(seconds: Int64) { instant.withLock { $0 = $0 + seconds } }
}

/// Log records as lines, "level: message", for tests to compare whole.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    func removeAll() { lines.withLock { $0.removeAll() } }

    /// A logger whose every record (metadata left out) lands here.
    var logger: Logger {
        Logger(label: "test") { _ in Handler(lines: self) }
    }

    struct Handler: LogHandler {
        let lines: LogLines
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            lines.append("\(event.level): \(event.message)")
        }
    }
}

/// The access log's clock in tests: a fixed reading, 2.345678 ms after
/// the `arrived` that ``Harness/send`` stamps requests with.
let arrival: UInt64 = 1_000_000_000
let answered: UInt64 = 1_002_345_678

/// Tokens by secret, as the store's token table would answer.
struct FakeCredentials: APICredentials {
    static let all = Set(TokenScope.allCases)
    let bearers: [String: APIPrincipal] = [
        "secret-all": APIPrincipal(device: "phone", scopes: all),
        "secret-read": APIPrincipal(device: "dashboard", scopes: [.read]),
        "secret-start": APIPrincipal(device: "button", scopes: [.start]),
    ]

    /// A store that cannot be read.
    struct Broken: Error {}

    func principal(bearer secret: String) throws -> APIPrincipal? {
        if secret == "secret-broken" { throw Broken() }
        return bearers[secret]
    }

    func principal(basicUser: String, password: String) throws -> APIPrincipal? {
        guard basicUser == "phone", password == "ot-secret" else { return nil }
        return APIPrincipal(device: "phone", scopes: [.owntracks])
    }
}

/// A daemon that records what it is given and, when gated, holds each
/// request's events until the test opens.
final class FakeDaemon: APIDaemon {
    private let taken = Mutex<[(EventInput, ChangeSource)]>([])
    private let closed: Mutex<Bool>

    init(gated: Bool = false) {
        closed = Mutex(gated)
    }

    /// Lets the events held at the gate through.
    func open() { closed.withLock { $0 = false } }

    var inputs: [EventInput] { taken.withLock { $0.map(\.0) } }
    var sources: [ChangeSource] { taken.withLock { $0.map(\.1) } }

    func take(_ inputs: [EventInput], source: ChangeSource) async {
        taken.withLock { $0 += inputs.map { ($0, source) } }
        while closed.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
    }
}

/// An API on a real store in a fresh temporary directory, removed when
/// the harness is released.
final class Harness: Sendable {
    let directory: URL
    let store: Store
    let clock = ManualClock(nine)
    let daemon: FakeDaemon
    let api: API
    /// What the API logged.
    let log = LogLines()

    /// `accessLog` is the setting `access_log`; `trustedProxies` the
    /// setting `trusted_proxies`. With `storeTokens`, the credentials are
    /// the store's own tokens (`StoreCredentials`), not ``FakeCredentials``.
    init(
        createsProjects: Bool = true, daemon: FakeDaemon = FakeDaemon(), perMinute: Int? = nil,
        generation: StoreGeneration? = nil, accessLog: Bool = false, trustedProxies: [String] = [],
        currency: String? = nil, reportFiles: ReportFileWriter? = nil, storeTokens: Bool = false
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackee-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try Store(path: directory.appendingPathComponent("t.sqlite3").path)
        self.daemon = daemon
        let clock = self.clock
        api = API(
            store: store, zone: .utc, createsProjects: createsProjects, now: { clock.now },
            credentials: storeTokens ? StoreCredentials(store: store, now: { clock.now }) : FakeCredentials(), daemon: daemon, perMinute: perMinute, generation: generation,
            trustedProxies: trustedProxies, log: APILog(logger: log.logger, access: accessLog, ticks: { answered }),
            currency: currency, reportFiles: reportFiles)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Sends a request with the all-scopes token unless `token` says
    /// otherwise (nil: no Authorization header), from `peer` (nil: a
    /// request without one), arrived at ``arrival``.
    func send(
        _ method: String, _ path: String, _ body: String = "", token: String? = "secret-all",
        headers: [(String, String)] = [], query: [(String, String)] = [], peer: String? = nil
    ) async -> APIResponse {
        var all = headers
        if let token { all.append(("Authorization", "Bearer " + token)) }
        return await api.answer(APIRequest(
            method: method, path: path, query: query, headers: all, body: Array(body.utf8), peer: peer, arrived: arrival))
    }

    /// The store's files, to show a request changed nothing. The `-shm`
    /// file is left out: it is SQLite's shared-memory index of the WAL, in
    /// which every reader writes a read mark, and holds nothing stored.
    func files() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where !name.hasSuffix("-shm") {
            files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return files
    }
}

extension APIResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// The problem body the API writes, keys sorted.
func problem(_ status: Int, _ kind: String, _ title: String, _ detail: String) -> String {
    let escaped = detail.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    return #"{"detail":"\#(escaped)","status":\#(status),"title":"\#(title)","type":"urn:trackee:problem:\#(kind)"}"#
}
