import Foundation
import Testing
import TrackeeCore
@testable import TrackeeAutomation

/// recipes/shell/swayidle-events.sh: swayidle cannot run here (no
/// Wayland), so each of its commands is run through /bin/sh as swayidle
/// runs it, and what it prints must read as the very change a D-Bus
/// source reports for the same thing.
@Suite struct SwayidleRecipeTests {
    static let recipe = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("recipes/shell/swayidle-events.sh").path

    /// The swayidle events of the recipe and their commands, in order:
    /// lines such as `    timeout 60 'echo …' \`.
    static func commands() throws -> [(event: String, command: String)] {
        try String(contentsOfFile: recipe, encoding: .utf8).split(separator: "\n").compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasSuffix("' \\"), let open = text.firstIndex(of: "'") else { return nil }
            let event = text[..<open].trimmingCharacters(in: .whitespaces)
            let command = text[text.index(after: open)..<text.index(text.endIndex, offsetBy: -3)]
            return (event, String(command))
        }
    }

    /// What `sh -c command` prints.
    static func output(of command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    @Test func eachCommandPrintsTheLineOfTheSameChange() throws {
        let read = Instant(seconds: 1_795_683_060)
        let zone = try Zone(identifier: "Europe/Prague")
        let expected: [(String, DeskEvent)] = [
            ("timeout 60", .idle(since: read - 60)),
            ("resume", .active(since: nil)),
            ("lock", .session(.locked)),
            ("unlock", .session(.unlocked)),
            ("before-sleep", .sleep(.suspend)),
            ("after-resume", .sleep(.resume)),
        ]
        let commands = try Self.commands()
        #expect(commands.map(\.event) == expected.map(\.0))
        for ((event, command), (_, change)) in zip(commands, expected) {
            let printed = try Self.output(of: command)
            #expect(printed.filter { $0 == "\n" }.count == 1, "\(event)")
            #expect(try EventLine.parse(printed, line: 1, now: read, zone: zone) == .desk(change, time: nil), "\(event)")
        }
    }

    /// The idle line goes through the same idle source: a 10-minute rule
    /// fires ten minutes after the last key press, not after the timeout.
    @Test func theIdleLineCountsFromTheLastKeyPress() throws {
        let read = Instant(seconds: 1_795_683_060)
        let command = try #require(try Self.commands().first { $0.event == "timeout 60" }?.command)
        guard case .desk(let change, _)? = try EventLine.parse(try Self.output(of: command), line: 1, now: read, zone: .utc)
        else { Issue.record("not a desk line"); return }
        let report = try #require(change.report as? IdleReport)
        var idle = IdleRuntime(thresholds: [600])
        #expect(idle.take(report, at: read) == [])
        #expect(idle.nextDeadline == read - 60 + 600)
    }
}
