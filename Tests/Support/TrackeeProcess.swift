import Foundation

/// The built `trackee` executable: `$TRACKEE_BIN` if set, else
/// `.build/debug/trackee` in this package.
public enum TrackeeBinary {
    public struct Missing: Error, CustomStringConvertible {
        public var path: String
        public var description: String {
            "the trackee binary is missing at \(path); run `swift build` first or set TRACKEE_BIN to the executable"
        }
    }

    public static func path() throws -> String {
        let path: String
        if let explicit = ProcessInfo.processInfo.environment["TRACKEE_BIN"], !explicit.isEmpty {
            path = explicit
        } else {
            // #filePath is <root>/Tests/Support/TrackeeProcess.swift.
            path = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/debug/trackee").path
        }
        guard FileManager.default.isExecutableFile(atPath: path) else { throw Missing(path: path) }
        return path
    }
}

/// What one finished `trackee` process did.
public struct TrackeeRun: CustomStringConvertible {
    public var arguments: [String]
    public var status: Int32
    public var stdoutData: Data
    public var stderr: String

    public var stdout: String { String(decoding: stdoutData, as: UTF8.self) }

    /// Standard output split into lines, without the final newline.
    public var lines: [String] {
        var text = stdout
        if text.hasSuffix("\n") { text.removeLast() }
        return text.isEmpty ? [] : text.components(separatedBy: "\n")
    }

    /// Standard output parsed as one JSON document.
    public func json() throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: stdoutData)
    }

    public var description: String {
        "trackee \(arguments.joined(separator: " ")) → \(status)\nstdout: \(stdout)\nstderr: \(stderr)"
    }
}

/// A started `trackee` process whose output goes to files, so any number
/// can run at once without pipes filling up.
public final class RunningTrackee {
    public let process: Process
    public let arguments: [String]
    public let stdoutURL: URL
    public let stderrURL: URL

    public init(process: Process, arguments: [String], stdoutURL: URL, stderrURL: URL) {
        self.process = process
        self.arguments = arguments
        self.stdoutURL = stdoutURL
        self.stderrURL = stderrURL
    }

    /// What the process wrote to stderr so far.
    public var stderrSoFar: String {
        String(decoding: (try? Data(contentsOf: stderrURL)) ?? Data(), as: UTF8.self)
    }

    public func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Kills the process if it still runs, so a failed test leaves none.
    public func stop() {
        if process.isRunning { signal(SIGKILL) }
    }

    /// Waits for the process to end, holding the thread: for commands,
    /// which work the whole time.
    public func wait() throws -> TrackeeRun {
        process.waitUntilExit()
        let out = try Data(contentsOf: stdoutURL)
        let err = try Data(contentsOf: stderrURL)
        try? FileManager.default.removeItem(at: stdoutURL)
        try? FileManager.default.removeItem(at: stderrURL)
        return TrackeeRun(arguments: arguments, status: process.terminationStatus, stdoutData: out,
                          stderr: String(decoding: err, as: UTF8.self))
    }
}

extension RunningTrackee {
    /// Waits for the process to end without holding a thread: for daemons
    /// and feeds, which mostly wait themselves.
    public func finish() async throws -> TrackeeRun {
        await process.ended()
        return try wait()
    }
}

/// A private temporary directory for one test: its own store, HOME and
/// XDG directories, so nothing from the user's account leaks in. The
/// clock and zone are pinned; the directory is removed when the sandbox
/// goes away. Its settings file says `create_projects: always`, so tests
/// name new projects as they did before the setting (its default refuses
/// them off a terminal); `createProjects: nil` leaves no settings file.
///
/// ```swift
/// let t = try Sandbox(now: "2026-11-20 10:00")
/// let r = try t.run("start", "-p", "Docs")
/// #expect(r.lines == ["created project \"Docs\"", "started Docs at 10:00"])
/// ```
public final class Sandbox {
    public let root: URL
    public let zone: String
    public var now: String
    private let binary: String
    private let io: URL

    public init(zone: String = "Europe/Prague", now: String = "2026-11-20 12:00", createProjects: String? = "always") throws {
        binary = try TrackeeBinary.path()
        self.zone = zone
        self.now = now
        root = FileManager.default.temporaryDirectory.appendingPathComponent("trackee-cli-\(UUID().uuidString)")
        io = root.appendingPathComponent("io")
        for dir in ["home", "config/trackee", "data", "store", "io"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(dir), withIntermediateDirectories: true)
        }
        if let createProjects {
            try "create_projects: \(createProjects)\n".write(
                to: root.appendingPathComponent("config/trackee/config.yaml"), atomically: true, encoding: .utf8)
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The store every command uses unless told otherwise (via TRACKEE_STORE).
    public var storePath: String { root.appendingPathComponent("store/trackee.sqlite3").path }

    public func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// The environment every run starts from; nothing is inherited.
    public var environment: [String: String] {
        [
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": path("home"),
            "XDG_CONFIG_HOME": path("config"),
            "XDG_DATA_HOME": path("data"),
            "TRACKEE_STORE": storePath,
            "TRACKEE_NOW": now,
            "TZ": zone,
            "NO_COLOR": "1",
            "LANG": "C.UTF-8",
        ]
    }

    /// Runs `trackee` with `arguments` and waits for it. `now` overrides
    /// the sandbox clock for this run; `environment` entries set to nil
    /// are removed.
    public func run(_ arguments: String..., now: String? = nil, environment: [String: String?] = [:]) throws -> TrackeeRun {
        try launch(arguments, now: now, environment: environment).wait()
    }

    public func run(_ arguments: [String], now: String? = nil, environment: [String: String?] = [:],
             via prefix: [String] = []) throws -> TrackeeRun {
        try launch(arguments, now: now, environment: environment, via: prefix).wait()
    }

    /// Starts `trackee` without waiting; `prefix` runs it through another
    /// program such as setpriv.
    public func launch(_ arguments: [String], now: String? = nil, environment overrides: [String: String?] = [:],
                via prefix: [String] = [], input: Pipe? = nil) throws -> RunningTrackee {
        var env = environment
        if let now { env["TRACKEE_NOW"] = now }
        for (key, value) in overrides { env[key] = value }
        let command = prefix + [binary] + arguments
        let id = UUID().uuidString
        let outURL = io.appendingPathComponent("\(id).out")
        let errURL = io.appendingPathComponent("\(id).err")
        let process = try startProgram(
            command[0], Array(command.dropFirst()), environment: env, in: root, stdout: outURL, stderr: errURL, input: input)
        return RunningTrackee(process: process, arguments: arguments, stdoutURL: outURL, stderrURL: errURL)
    }

    /// The whole content of a file.
    public func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// What a store looks like on disk: the names in its directory and the
    /// bytes of the database and its write-ahead log. The -shm index is
    /// left out: SQLite rewrites it on every read.
    public struct StoreFiles: Equatable {
        public var names: [String]
        public var database: Data?
        public var wal: Data?
    }

    public func storeFiles(_ path: String? = nil) -> StoreFiles {
        let path = path ?? storePath
        return StoreFiles(
            names: listing((path as NSString).deletingLastPathComponent),
            database: try? bytes(path), wal: try? bytes(path + "-wal"))
    }

    /// The names in a directory of the sandbox (or anywhere), sorted.
    public func listing(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    /// The permission bits of a file or directory.
    public func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}

/// `trackee: <sentence>\n`, the one line a failing command writes.
public func failure(_ sentence: String) -> String { "trackee: \(sentence)\n" }

/// Starts a program with its standard output and error in the files
/// `stdout` and `stderr` (made empty first), so neither pipe can fill up,
/// and its standard input empty unless `input` is given.
public func startProgram(
    _ executable: String, _ arguments: [String], environment: [String: String], in directory: URL,
    stdout: URL, stderr: URL, input: Pipe? = nil
) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    process.currentDirectoryURL = directory
    _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
    _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
    let out = try FileHandle(forWritingTo: stdout)
    let err = try FileHandle(forWritingTo: stderr)
    defer {
        try? out.close()
        try? err.close()
    }
    process.standardInput = input ?? FileHandle.nullDevice
    process.standardOutput = out
    process.standardError = err
    try process.run()
    return process
}

/// Runs another program (khal, make) to its end, its output through files
/// so neither pipe can fill up.
public func runProgram(_ executable: String, _ arguments: [String], environment: [String: String], in directory: URL)
    throws -> (status: Int32, stdout: String, stderr: String)
{
    let out = directory.appendingPathComponent("run-\(UUID().uuidString).out")
    let err = directory.appendingPathComponent("run-\(UUID().uuidString).err")
    defer {
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.removeItem(at: err)
    }
    let process = try startProgram(executable, arguments, environment: environment, in: directory, stdout: out, stderr: err)
    process.waitUntilExit()
    return (process.terminationStatus,
            String(decoding: try Data(contentsOf: out), as: UTF8.self),
            String(decoding: try Data(contentsOf: err), as: UTF8.self))
}
