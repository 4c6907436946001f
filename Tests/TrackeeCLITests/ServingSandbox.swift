import Foundation
import Testing
import TrackeeTestSupport

/// A sandbox whose `trackee run` serves the HTTP API on a free loopback
/// port, with a token holding every scope. It runs on the real clock
/// (TRACKEE_NOW unset), as do the commands the tests give it, so the CLI
/// and the server agree on what "now" is.
final class ServingSandbox {
    let sandbox: Sandbox
    let daemon: RunningTrackee
    /// `http://127.0.0.1:PORT`, as `trackee run` logged it.
    let url: String
    let token: String

    /// What every command here runs with: the real clock.
    static let realClock: [String: String?] = ["TRACKEE_NOW": nil]

    /// `http` are more lines of the settings' `http:` section.
    init(http: [String] = []) async throws {
        let sandbox = try Sandbox()
        let section = (["listen: 127.0.0.1:0"] + http).map { "  \($0)\n" }.joined()
        try sandbox.write("create_projects: always\nhttp:\n" + section, to: "config/trackee/config.yaml")
        let add = try sandbox.run(["tokens", "add", "recipes"], environment: Self.realClock)
        guard add.status == 0, let token = add.lines.first else {
            throw Failure("trackee tokens add failed: \(add)")
        }
        let daemon = try sandbox.launch(["run"], environment: Self.realClock)
        var found: String?
        // "trackee run: info: http: listening on http://127.0.0.1:41234"
        let marker = "http: listening on "
        _ = await eventually(within: 60) {
            guard let line = daemon.stderrSoFar.split(separator: "\n").first(where: { $0.contains(marker) }),
                  let at = line.range(of: marker)
            else { return !daemon.process.isRunning }
            found = String(line[at.upperBound...])
            return true
        }
        guard let found else {
            daemon.stop()
            throw Failure("trackee run did not say where it listens: \(daemon.stderrSoFar)")
        }
        self.sandbox = sandbox
        self.token = token
        self.daemon = daemon
        url = found
    }

    deinit { daemon.stop() }

    /// The port trackee listens on.
    var port: Int { Int(url.split(separator: ":").last ?? "") ?? 0 }

    /// `trackee ARGUMENTS` on the real clock.
    func trackee(_ arguments: String...) throws -> TrackeeRun {
        try sandbox.run(arguments, environment: Self.realClock)
    }

    /// Stops the daemon with SIGTERM and waits for it.
    func stop() async throws -> TrackeeRun {
        daemon.signal(SIGTERM)
        return try await daemon.finish()
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// One HTTP exchange made with curl: the status and the body.
struct CurlAnswer: CustomStringConvertible {
    var status: Int
    var body: String

    func json() throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: Data(body.utf8)) }

    var description: String { "\(status) \(body)" }
}

/// Sends one request with curl (`arguments` go before the URL) and reads
/// the status it printed after the body.
func curl(_ arguments: [String], _ url: String, in directory: URL) throws -> CurlAnswer {
    let r = try runProgram("/usr/bin/curl", ["--silent", "--show-error", "--write-out", "\n%{http_code}"] + arguments + [url],
                           environment: ["PATH": "/usr/bin:/bin"], in: directory)
    var lines = r.stdout.components(separatedBy: "\n")
    let status = Int(lines.popLast() ?? "") ?? -1
    return CurlAnswer(status: status, body: lines.joined(separator: "\n"))
}
