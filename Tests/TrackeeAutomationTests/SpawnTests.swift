import Foundation
import Testing
@testable import TrackeeAutomation

@Suite struct SpawnTests {
    /// A program that records its arguments, one per line, and the
    /// TRACKEE_ variables it was given.
    private func recorder(_ directory: String) throws -> String {
        let path = directory + "/record"
        try """
            #!/bin/sh
            out="$(dirname "$0")/out"
            for a in "$@"; do printf '%s\\n' "$a"; done > "$out"
            env | grep '^TRACKEE_' | sort >> "$out"
            read -r line && echo "stdin: $line" >> "$out"
            exit 3
            """.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.path + "/trackee-spawn-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func shellSyntaxInAnArgumentIsJustText() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pwned = dir + "/pwned"
        let hostile = "$(touch \(pwned)); rm -rf \(dir)/x `touch \(pwned)` && touch \(pwned)"
        let status = try Spawn.run(
            [try recorder(dir), hostile, "two words"],
            environment: ["TRACKEE_TRIGGER_MODE": hostile, "PATH": "/usr/bin:/bin"])
        #expect(status == 3)
        #expect(try String(contentsOfFile: dir + "/out", encoding: .utf8)
            == "\(hostile)\ntwo words\nTRACKEE_TRIGGER_MODE=\(hostile)\n")
        #expect(!FileManager.default.fileExists(atPath: pwned))
    }

    @Test func aMissingProgramIsOneClearError() {
        #expect(throws: Spawn.Failure(program: "no-such-program-trackee", reason: "No such file or directory")) {
            try Spawn.run(["no-such-program-trackee"], environment: ["PATH": "/usr/bin:/bin"])
        }
        #expect(throws: Spawn.Failure(program: "(nothing)", reason: "the argv list is empty")) {
            try Spawn.run([], environment: [:])
        }
    }

    @Test func programsAreFoundOnThePath() {
        #expect(Spawn.find("sh", in: "/nonexistent:/bin") == "/bin/sh")
        #expect(Spawn.find("no-such-program-trackee", in: "/usr/bin:/bin") == nil)
    }

    @Test func aSignalEndsWith128PlusItsNumber() throws {
        #expect(try Spawn.run(["/bin/sh", "-c", "kill -TERM $$"], environment: [:]) == 128 + 15)
    }
}
