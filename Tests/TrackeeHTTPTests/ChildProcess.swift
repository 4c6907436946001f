import Foundation
import Glibc
import TrackeeTestSupport

/// The client scripts of Clients/, run with Debian's python3.
enum Python {
    static let executable = "/usr/bin/python3"

    static func script(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/\(name)").path
    }

    static func run(_ name: String, _ arguments: [String], in t: Sandbox, environment: [String: String] = [:])
        async throws -> ChildProcess.Ran
    {
        try await ChildProcess.run(executable, [script(name)] + arguments, in: t, environment: environment)
    }
}

/// Another program started from a test, its output through files so no
/// pipe fills up; waited for without holding a thread.
final class ChildProcess {
    struct Ran {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    let process = Process()
    let stdoutPath: String
    let stderrPath: String

    /// Starts `executable` with the sandbox's environment and `environment`
    /// on top.
    init(_ executable: String, _ arguments: [String], in t: Sandbox, environment: [String: String] = [:]) throws {
        let id = UUID().uuidString
        stdoutPath = try t.write("", to: "io-child/\(id).out")
        stderrPath = try t.write("", to: "io-child/\(id).err")
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = t.environment.merging(environment) { $1 }
        process.currentDirectoryURL = t.root
        process.standardInput = FileHandle.nullDevice
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardOutput = out
        process.standardError = err
        try process.run()
    }

    var stdoutSoFar: String {
        String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: stdoutPath))) ?? Data(), as: UTF8.self)
    }

    /// Waits for the end and takes the output, removing its files.
    func finish() async throws -> Ran {
        await process.ended()
        let out = try Data(contentsOf: URL(fileURLWithPath: stdoutPath))
        let err = try Data(contentsOf: URL(fileURLWithPath: stderrPath))
        try? FileManager.default.removeItem(atPath: stdoutPath)
        try? FileManager.default.removeItem(atPath: stderrPath)
        return Ran(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                   stderr: String(decoding: err, as: UTF8.self))
    }

    /// Kills the program if it still runs, so a failed test leaves none.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    static func run(_ executable: String, _ arguments: [String], in t: Sandbox, environment: [String: String] = [:])
        async throws -> Ran
    {
        try await ChildProcess(executable, arguments, in: t, environment: environment).finish()
    }
}
