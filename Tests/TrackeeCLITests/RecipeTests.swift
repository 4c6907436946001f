import Foundation
import Testing

/// Every file in recipes/ works with the trackee it ships with.
@Suite struct RecipeTests {
    static let recipes = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("recipes")

    /// Runs a recipe script with the built trackee first on PATH.
    private func runRecipe(_ t: Sandbox, _ script: String, _ arguments: [String]) throws -> (Int32, String) {
        let bin = t.path("bin")
        if !FileManager.default.fileExists(atPath: bin) {
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(atPath: bin + "/trackee", withDestinationPath: TrackeeBinary.path())
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [Self.recipes.appendingPathComponent(script).path] + arguments
        var env = t.environment
        env["PATH"] = bin + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func theCronWorkdayRecipeIsSafeToRunTwice() throws {
        let t = try Sandbox(now: "2026-11-20 09:00")
        let first = try runRecipe(t, "shell/cron-workday.sh", ["start"])
        #expect(first.0 == 0)
        #expect(first.1 == "created project \"Work\"\nstarted Work at 09:00\n")
        let again = try runRecipe(t, "shell/cron-workday.sh", ["start"])
        #expect(again.0 == 0)
        #expect(again.1.hasPrefix("started Work at 09:00 — key \"cron-workday-start-"))
        #expect(again.1.hasSuffix("\" was applied before; nothing changed\n"))
        let stop = try runRecipe(t, "shell/cron-workday.sh", ["stop"])
        #expect(stop.0 == 0)
        #expect(stop.1 == "stopped Work at 09:00 after 0:00\n")
        let stopAgain = try runRecipe(t, "shell/cron-workday.sh", ["stop"])
        #expect(stopAgain.0 == 0)
        let log = try t.run("log", "--json").json()
        #expect(log["days"][0]["entries"].elements.count == 1)
        let usage = try runRecipe(t, "shell/cron-workday.sh", [])
        #expect(usage.0 == 64)
    }

    @Test func everyRecipeFileIsCoveredByATest() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.recipes.path)
            .filter { [".sh", ".yaml", ".service"].contains(where: $0.hasSuffix) }
            .sorted()
        #expect(files == ["shell/cron-workday.sh"])
    }
}
