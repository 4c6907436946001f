import Foundation
import GRDB
import Glibc
import TrackeeTestSupport

/// `trackee run` serving the HTTP API from a sandbox of its own: the
/// settings say `http:` (listening on port 0 unless told otherwise), the
/// commands use the real clock as the daemon does, and the port is read
/// from the daemon's "listening on" line.
///
/// ```swift
/// let d = try await ServingDaemon.start()
/// defer { d.stop() }
/// let phone = try d.token("phone")
/// let answer = try await d.curl("GET", "/v1/status", token: phone)
/// ```
final class ServingDaemon {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let sandbox: Sandbox
    let process: RunningTrackee
    let port: Int
    /// Every output of every client run against this daemon, for the
    /// test that looks for tokens in them.
    private(set) var outputs: [String] = []

    /// The settings file's `http:` lines; `listen` defaults to
    /// 127.0.0.1:0. `settings` are more top-level lines, `rules` the
    /// rule file's text.
    static func start(
        http: [String] = [], settings: [String] = ["create_projects: always"], rules: String? = nil,
        tokens: (Sandbox) throws -> Void = { _ in }
    ) async throws -> ServingDaemon {
        let t = try Sandbox()
        t.now = ""
        let listen = http.contains { $0.hasPrefix("listen:") } ? [] : ["listen: 127.0.0.1:0"]
        let lines = settings + ["http:"] + (listen + http).map { "  " + $0 }
        try t.write(lines.joined(separator: "\n") + "\n", to: "config/trackee/config.yaml")
        if let rules { try t.write(rules, to: "config/trackee/rules.yaml") }
        try tokens(t)
        return try await ServingDaemon(t)
    }

    /// Starts `trackee run` in `sandbox` and waits for its listening line.
    init(_ sandbox: Sandbox) async throws {
        self.sandbox = sandbox
        let launched = try sandbox.launch(["run"])
        var found: Int?
        _ = await eventually(within: 60) {
            found = ServingDaemon.listening(in: launched.stderrSoFar)
            return found != nil || !launched.process.isRunning
        }
        guard let found else {
            launched.stop()
            let r = try await launched.finish()
            throw Failure(description: "trackee run did not say where it listens: \(r)")
        }
        process = launched
        port = found
    }

    /// The port of "trackee run: http: listening on http://127.0.0.1:41234"
    /// (or of the warning for plain HTTP beyond the loopback, which names
    /// the address without a scheme).
    static func listening(in stderr: String) -> Int? {
        for line in stderr.split(separator: "\n") {
            guard let range = line.range(of: "http: listening on ") else { continue }
            var rest = line[range.upperBound...]
            if rest.hasPrefix("http://") { rest = rest.dropFirst("http://".count) }
            let address = rest.prefix { $0 != " " }
            guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...])
            else { continue }
            return port
        }
        return nil
    }

    var stderrSoFar: String { process.stderrSoFar }

    /// Kills the daemon if it still runs (for `defer`); the sandbox goes
    /// with the last reference.
    func stop() { process.stop() }

    /// Stops the daemon as systemd does and returns what it did.
    func terminate() async throws -> TrackeeRun {
        process.signal(SIGTERM)
        let r = try await process.finish()
        outputs += [r.stdout, r.stderr]
        return r
    }

    /// `trackee tokens add NAME [--scope scopes]`: the token it prints.
    func token(_ name: String, scopes: String? = nil) throws -> String {
        try Self.token(sandbox, name, scopes: scopes)
    }

    static func token(_ t: Sandbox, _ name: String, scopes: String? = nil) throws -> String {
        let r = try t.run(["tokens", "add", name] + (scopes.map { ["--scope", $0] } ?? []))
        guard r.status == 0, let secret = r.lines.first, secret.hasPrefix("trk_") else {
            throw Failure(description: "no token: \(r)")
        }
        return secret
    }

    /// Runs a one-shot `trackee` command beside the daemon, on its store.
    func run(_ arguments: String...) throws -> TrackeeRun {
        let r = try sandbox.run(arguments)
        outputs += [r.stdout, r.stderr]
        return r
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// One request with curl; `body` is sent as JSON.
    func curl(
        _ method: String, _ path: String, token: String? = nil, body: String? = nil, headers: [String] = [],
        options: [String] = []
    ) async throws -> Answer {
        var arguments = ["-X", method]
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
        for header in headers { arguments += ["-H", header] }
        let answer = try await Curl.run(arguments + options + [url(path)], in: sandbox)
        outputs += [answer.text, answer.headerText, answer.stderr]
        return answer
    }

    /// Runs a client script of Clients/ with python3, its arguments after
    /// the port; its standard output is one JSON document.
    func python(_ script: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> JSONValue {
        let run = try await Python.run(script, [String(port)] + arguments, in: sandbox, environment: environment)
        outputs += [run.stdout, run.stderr]
        return try parsedJSON(run.stdout)
    }

    /// Rows of the store, read with SQLite directly.
    func rows(_ sql: String) throws -> [Row] { try Self.rows(sandbox.storePath, sql) }

    static func rows(_ store: String, _ sql: String) throws -> [Row] {
        var config = Configuration()
        config.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: store, configuration: config)
        defer { try? queue.close() }
        return try queue.read { try Row.fetchAll($0, sql: sql) }
    }
}

extension ServingDaemon {
    /// The store's entries, one line each: "id project source", and
    /// "running" for the one without an end.
    func storedEntries() throws -> [String] {
        try rows("""
            SELECT e.id, ifnull(p.name, '-'), e.source, e."end" IS NULL FROM entry e
            LEFT JOIN project p ON p.id = e.project_id ORDER BY e.id
            """).map { row in
            "\(row[0] as Int64) \(row[1] as String) \(row[2] as String)" + ((row[3] as Bool) ? " running" : "")
        }
    }

    /// The intent log: "source action outcome key" for each intent.
    func intents() throws -> [String] {
        try rows("SELECT source, action, outcome, ifnull(key, '-') FROM intent_log ORDER BY id").map { row in
            "\(row[0] as String) \(row[1] as String) \(row[2] as String) \(row[3] as String)"
        }
    }
}
