import Foundation
import TrackeeTestSupport
import GRDB

/// `trackee run` as a real process on a ``MockedDesk``: the built binary
/// (`$TRACKEE_BIN`, else `.build/debug/trackee` of this package), a
/// temporary directory of its own for the rules, the store and HOME, the
/// real clock, and UTC. Its stderr goes to a file the tests read.
///
/// `stop()` ends the process and removes the directory.
final class TrackeeRunProcess {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A finished one-shot command.
    struct Ran {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// An entry of the store as the tests compare them: whole seconds.
    struct Stored: Equatable, CustomStringConvertible {
        var project: String?
        var start: Int64
        var end: Int64?
        var source: String

        var description: String { "\(project ?? "-") \(start)..\(end.map(String.init) ?? "") \(source)" }
    }

    /// A rule firing: the rule and the time of the event that fired it.
    struct Firing: Equatable, CustomStringConvertible {
        var rule: String
        var occurred: Int64

        init(_ rule: String, _ occurred: Int64) {
            self.rule = rule
            self.occurred = occurred
        }

        var description: String { "\(rule)@\(occurred)" }
    }

    let root: URL
    let binary: String
    /// The desk's buses and session (``MockedDesk/environment``); set
    /// before the first command.
    var desk: [String: String] = [:]
    private var process: Process?

    /// A directory with `rules` as the rules file.
    init(rules: String) throws {
        binary = try TrackeeBinary.path()
        root = FileManager.default.temporaryDirectory.appendingPathComponent("trackee-desk-run-\(UUID().uuidString)")
        for directory in ["config/trackee", "data", "home", "bin"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(directory),
                                                    withIntermediateDirectories: true)
        }
        try rules.write(to: root.appendingPathComponent("config/trackee/rules.yaml"), atomically: true, encoding: .utf8)
        try "create_projects: always\n".write(
            to: root.appendingPathComponent("config/trackee/config.yaml"), atomically: true, encoding: .utf8)
    }

    /// Nothing inherited: the directory's own, the desk's, the real clock, UTC.
    var environment: [String: String] {
        desk.merging([
            // An empty directory: a `notify` is logged the same way on
            // every machine, whether notify-send is installed or not.
            "PATH": root.appendingPathComponent("bin").path,
            "HOME": root.appendingPathComponent("home").path,
            "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
            "XDG_DATA_HOME": root.appendingPathComponent("data").path,
            "TRACKEE_STORE": storePath,
            "TZ": "UTC",
            "LANG": "C.UTF-8",
            "NO_COLOR": "1",
        ]) { _, own in own }
    }

    var storePath: String { root.appendingPathComponent("trackee.sqlite3").path }
    private var logURL: URL { root.appendingPathComponent("run.log") }

    /// Runs a one-shot `trackee` command to its end.
    @discardableResult
    func trackee(_ arguments: String...) throws -> Ran {
        let id = UUID().uuidString
        let out = root.appendingPathComponent("\(id).out")
        let err = root.appendingPathComponent("\(id).err")
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        let process = try launch(arguments, stdout: out, stderr: err)
        process.waitUntilExit()
        return Ran(status: process.terminationStatus,
                   stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                   stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    /// Starts `trackee run` with `options` (again after it ended: the log
    /// starts afresh).
    func start(_ options: String...) throws {
        process = try launch(["run"] + options, stdout: root.appendingPathComponent("run.out"), stderr: logURL)
    }

    private func launch(_ arguments: [String], stdout: URL, stderr: URL) throws -> Process {
        try startProgram(binary, arguments, environment: environment, in: root, stdout: stdout, stderr: stderr)
    }

    /// What `trackee run` wrote to stderr so far, line by line.
    var log: [String] {
        String(decoding: (try? Data(contentsOf: logURL)) ?? Data(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }

    /// Where Tests/Fixtures/dbusmock/logind_ordered.py logs, when told to.
    var orderLogURL: URL { root.appendingPathComponent("order.log") }

    /// What logind_ordered.py logged, line by line.
    var orderLog: [String] {
        String(decoding: (try? Data(contentsOf: orderLogURL)) ?? Data(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }

    /// The log's lines that contain `text`.
    func logLines(containing text: String) -> [String] { log.filter { $0.contains(text) } }

    var isRunning: Bool { process?.isRunning ?? false }

    /// Waits up to `seconds` for `condition`, checking every 20 ms, without
    /// holding the test pool's thread.
    func eventually(_ seconds: Double = 30, _ condition: () throws -> Bool) async rethrows -> Bool {
        try await TrackeeTestSupport.eventually(within: seconds, every: .milliseconds(20), condition)
    }

    /// Waits for the line `desk: …` that says what attached, and returns it
    /// without its `trackee run: info: ` prefix.
    func deskLine() async -> String? {
        _ = await eventually { !logLines(containing: "info: desk: ").isEmpty }
        return logLines(containing: "info: desk: ").first.map { line in
            String(line[line.range(of: "info: ")!.upperBound...])
        }
    }

    /// SIGTERM, then the exit status (nil if it did not end within 30 s,
    /// when it is killed).
    func terminate() async -> Int32? {
        guard let process, process.isRunning else { return process?.terminationStatus }
        kill(process.processIdentifier, SIGTERM)
        let ended = await eventually { !process.isRunning }
        if !ended {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// SIGKILL, as a crash would end it, and waits for its end.
    func crash() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Kills `trackee run` if it still runs and removes the directory.
    func stop() {
        crash()
        try? FileManager.default.removeItem(at: root)
    }

    // MARK: - The store

    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: storePath, configuration: configuration).read(body)
    }

    func entries() throws -> [Stored] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT p.name, e.start, e."end", e.source FROM entry e LEFT JOIN project p ON p.id = e.project_id
                ORDER BY e.id
                """).map { Stored(project: $0[0], start: $0[1], end: $0[2], source: $0[3]) }
        }
    }

    func firings() throws -> [Firing] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT rule, occurred FROM rule_firing ORDER BY occurred, rule")
                .map { Firing($0[0], $0[1]) }
        }
    }

    /// The keys of the firings of `rules` (the rule and the event's
    /// occurrence), in the order of ``firings()``.
    func firingKeys(of rules: [String]) throws -> [String] {
        try read { db in
            try String.fetchAll(db, sql: "SELECT key FROM rule_firing ORDER BY occurred, rule")
                .filter { key in rules.contains { key.hasPrefix($0 + "@") } }
        }
    }
}

/// Sleeps until just past the next whole second and returns it (seconds
/// since the epoch): what a desk source stamps a change sent now with.
func nextSecond() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var wait = timespec(tv_sec: 0, tv_nsec: 1_000_000_000 - now.tv_nsec + 20_000_000)
    if wait.tv_nsec >= 1_000_000_000 {
        wait.tv_sec = 1
        wait.tv_nsec -= 1_000_000_000
    }
    nanosleep(&wait, nil)
    return Int64(now.tv_sec) + 1
}
