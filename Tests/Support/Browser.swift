import Foundation
import Glibc

/// What the tests that drive headless Chromium share: the Debian
/// packages they need, and a run of their Python script (Debian's
/// python3 and python3-selenium; Tests/Browser/chromium.py starts the
/// browser) that prints what it saw as JSON.
public enum BrowserTools {
    /// What the browser tests need: Debian's chromium, chromium-driver,
    /// python3 and python3-selenium.
    public static let needed = [
        ("/usr/bin/chromium", "chromium"), ("/usr/bin/chromedriver", "chromium-driver"),
        ("/usr/lib/python3/dist-packages/selenium", "python3-selenium"), ("/usr/bin/python3", "python3"),
    ]

    /// The packages of `needed` and `more` (paths and the packages that
    /// hold them) that are not installed, as a sentence; nil with all of
    /// them (`make test` installs them).
    public static func missing(_ more: [(String, String)] = []) -> String? {
        let lacking = (needed + more).filter { !FileManager.default.fileExists(atPath: $0.0) }.map(\.1)
        return lacking.isEmpty ? nil : "needs the Debian packages " + lacking.joined(separator: ", ")
    }

    /// How a browser script ended: its exit status (77: Chromium could not
    /// start, and `stderr` says why), what it printed on stdout (the JSON
    /// of what it saw) and on stderr; `ended` is false when it ran out of
    /// time and was killed with its browser.
    public struct Run {
        public var ended: Bool
        public var status: Int32
        public var stdout: Data
        public var stderr: String
    }

    /// Runs `/usr/bin/python3 -B script arguments` in `work` with
    /// `environment` and a short temporary folder of its own (TMPDIR: the
    /// browser's socket's path must fit in 108 bytes, which one under
    /// `work` does not), removed after. The script makes itself the leader
    /// of its own process group, so a run that takes over `seconds` is
    /// ended with its browser (and whatever else it started).
    public static func run(_ script: String, _ arguments: [String], work: String, environment: [String: String],
                           within seconds: Double = 300) async throws -> Run {
        var template = Array("/tmp/trh-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TemporaryFolderFailed(errno: errno) }
        let tmp = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        var environment = environment
        environment["TMPDIR"] = tmp
        let out = URL(fileURLWithPath: work + "/browser.json")
        let err = URL(fileURLWithPath: work + "/browser.err")
        let process = try startProgram(
            "/usr/bin/python3", ["-B", script] + arguments, environment: environment, in: URL(fileURLWithPath: work),
            stdout: out, stderr: err)
        let ended = await eventually(within: seconds, every: .milliseconds(100)) { !process.isRunning }
        if !ended { kill(-process.processIdentifier, SIGKILL) }
        await process.ended()
        return Run(ended: ended, status: process.terminationStatus, stdout: try Data(contentsOf: out),
                   stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    public struct TemporaryFolderFailed: Error {
        public var errno: Int32
    }
}
