import Foundation
import Testing
import TrackeeTestSupport
import Yams

/// The HTTP recipes against a real `trackee run`: the requests each one
/// makes, sent with curl, do what the recipe says; the waybar script
/// prints the line for a start made with the CLI; the README's curl
/// examples answer as shown.
@Suite struct ServedRecipeTests {
    /// The requests of the Home Assistant, HTTP Shortcuts, iOS Shortcuts
    /// and Tasker recipes, in the order a day might send them.
    @Test func theRecipesRequestsStartSwitchStopAndReadTheTimer() async throws {
        let s = try await ServingSandbox()
        let auth = ["--header", "Authorization: Bearer \(s.token)", "--header", "Content-Type: application/json"]
        let minute = "2026-11-23T09:41"

        // Home Assistant: rest_command.trackee_start with project Docs, twice.
        let root = try #require(try Yams.compose(yaml: HTTPRecipeTests.text("home-assistant.yaml")))
        let haStart = try HomeAssistantTemplate.render(
            try #require(root["rest_command"]?["trackee_start"]?["payload"]?.string), ["project": "Docs"])
        let first = try curl(auth + ["--data", haStart], s.url + "/v1/start", in: s.sandbox.root)
        #expect(first.status == 200, "\(first)")
        #expect(try first.json()["outcome"] == "started")
        #expect(try first.json()["entry"]["project"] == "Docs")
        #expect(try first.json()["key"] == "home-assistant-start-Docs-2026-11-23T09:41")
        let again = try curl(auth + ["--data", haStart], s.url + "/v1/start", in: s.sandbox.root)
        #expect(again.status == 200)
        #expect(again.body == first.body)

        // HTTP Shortcuts: Start Office switches.
        let export = HTTPShortcutsExport(try HTTPRecipeTests.json("http-shortcuts.json"), url: s.url, token: s.token,
                                         minute: minute)
        let shortcuts = try export.requests()
        let office = try curl(["--request", "POST", "--header", shortcuts[0].headers[0], "--header",
                               "Content-Type: application/json", "--data", shortcuts[0].body ?? ""],
                              shortcuts[0].url, in: s.sandbox.root)
        #expect(office.status == 200, "\(office)")
        #expect(try office.json()["outcome"] == "switched")
        #expect(try office.json()["entry"]["project"] == "Office")
        #expect(try office.json()["previous"]["project"] == "Docs")

        // iOS Shortcuts: Start Office, with the fields the recipe lists,
        // leaves the running Office alone.
        let ios = try curl(auth + ["--data", #"{"project": "Office", "idempotency_key": "shortcuts-start-Office-\#(minute)"}"#],
                           s.url + "/v1/start", in: s.sandbox.root)
        #expect(ios.status == 200, "\(ios)")
        #expect(try ios.json()["outcome"] == "unchanged")

        // Tasker: Trackee Stop.
        let tasker = try TaskerTasks.bodies(HTTPRecipeTests.text("tasker.md"), minute: minute)
        let stop = try curl(auth + ["--data", tasker[1]], s.url + "/v1/stop", in: s.sandbox.root)
        #expect(stop.status == 200, "\(stop)")
        #expect(try stop.json()["outcome"] == "stopped")
        #expect(try stop.json()["entry"]["project"] == "Office")

        // HTTP Shortcuts: Status, as the Home Assistant sensor reads it.
        let status = try curl(["--header", shortcuts[2].headers[0]], shortcuts[2].url, in: s.sandbox.root)
        #expect(status.status == 200, "\(status)")
        let state = try #require(root["sensor"]?.sequence?.first?["value_template"]?.string)
        #expect(try HomeAssistantTemplate.render(state, [:], valueJSON: status.body) == "idle")

        let log = try s.trackee("log", "--json")
        #expect(log.status == 0, "\(log)")
        let projects = try log.json()["days"].elements.flatMap(\.["entries"].elements).map(\.["project"])
        #expect(projects == ["Office", "Docs"])
    }

    /// A location as the OwnTracks app posts it, with the recipe's
    /// settings: Basic credentials, user = the token's name.
    @Test func theOwnTracksSettingsAuthenticateAsTheirDevice() async throws {
        let s = try await ServingSandbox()
        let settings = try HTTPRecipeTests.json("owntracks.otrc")
        let user = try #require(settings["username"].string)
        let add = try s.trackee("tokens", "add", user, "--scope", "owntracks")
        let token = try #require(add.lines.first)
        let url = s.url + (apiPath(settings["url"].string ?? "") ?? "")
        let location = #"{"_type":"location","tid":"ph","lat":50.0875,"lon":14.4213,"acc":12,"tst":1795420800}"#
        let answer = try curl(["--user", "\(user):\(token)", "--header", "Content-Type: application/json",
                               "--data", location], url, in: s.sandbox.root)
        #expect(answer.status == 200, "\(answer)")
        #expect(answer.body == "[]")
        // The password is the token: another token is refused.
        let wrong = try curl(["--user", "\(user):\(s.token)", "--data", location], url, in: s.sandbox.root)
        #expect(wrong.status == 401, "\(wrong)")
    }

    /// The curl lines of the README's "From your phone and your home", run
    /// by sh with the token in TRACKEE_TOKEN, as the README says.
    @Test func theReadmeCurlExamplesAnswerAsDescribed() async throws {
        let s = try await ServingSandbox()
        let readme = try String(contentsOf: RecipeTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n## ").first { $0.hasPrefix("From your phone and your home") })
        let commands = section.components(separatedBy: "\n").filter { $0.hasPrefix("curl ") }
        #expect(commands.count == 3)
        func run(_ command: String, _ extra: String = "") throws -> (status: Int32, stdout: String, stderr: String) {
            let line = command.replacingOccurrences(of: "http://127.0.0.1:7777", with: s.url) + extra
            return try runProgram("/bin/sh", ["-c", line], environment: ["PATH": "/usr/bin:/bin", "TRACKEE_TOKEN": s.token],
                                  in: s.sandbox.root)
        }
        let start = try run(commands[0], " --silent")
        #expect(start.status == 0, "\(start)")
        let report = try JSONDecoder().decode(JSONValue.self, from: Data(start.stdout.utf8))
        #expect(report["outcome"] == "started")
        #expect(report["key"] == "docs-morning")
        #expect(report["entry"]["project"] == "Docs")
        #expect(report["entry"]["source"] == "http:recipes")
        let status = try run(commands[1], " --silent")
        #expect(status.status == 0, "\(status)")
        let reading = try JSONDecoder().decode(JSONValue.self, from: Data(status.stdout.utf8))
        #expect(reading["running"]["project"] == "Docs")
        #expect(Set(reading.keys) == (try APIReference.load()).statusFields)
        // The stream stays open; curl gives up after two seconds (status 28).
        let stream = try run(commands[2], " --silent --max-time 2")
        #expect(stream.status == 28, "\(stream)")
        #expect(stream.stdout.hasPrefix(": trackee "), "\(stream.stdout)")
    }

    @Test func theWaybarScriptPrintsTheStatusThenACLIStartThenOffline() async throws {
        let s = try await ServingSandbox()
        let tokenFile = try s.sandbox.write(s.token + "\n", to: "home/.config/trackee/waybar.token")
        let output = s.sandbox.path("waybar.out")
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        let script = Process()
        // In a session of its own, whose leader (the script, once exec'd)
        // says its pid, so the test can end the script and its curl
        // together, as waybar does when it stops.
        let pidFile = s.sandbox.path("waybar.pid")
        script.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        script.arguments = ["/bin/sh", "-c", "echo $$ > \"$0\"; exec /bin/sh \"$1\"", pidFile,
                            HTTPRecipeTests.folder.appendingPathComponent("waybar/trackee-waybar.sh").path]
        script.environment = [
            "PATH": "/usr/bin:/bin", "HOME": s.sandbox.path("home"), "TRACKEE_URL": s.url, "TRACKEE_TOKEN_FILE": tokenFile,
        ]
        script.standardOutput = out
        script.standardError = out
        script.standardInput = FileHandle.nullDevice
        try script.run()
        try out.close()
        var group: pid_t = 0
        #expect(await eventually(within: 30) {
            group = pid_t((try? String(contentsOfFile: pidFile, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
            return group > 0
        })
        defer { if group > 0 { kill(-group, SIGKILL) } }
        func lines() -> [String] {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        #expect(await eventually(within: 30) { lines().count >= 1 })
        #expect(lines() == [#"{"text":"idle","alt":"status","class":"idle","tooltip":"no timer runs"}"#])
        // The start must come once the script follows the stream: its curl
        // holds the only established connection to trackee's port.
        #expect(await eventually(within: 30) { establishedConnections(toPort: s.port) == 1 },
                "\(establishedConnections(toPort: s.port)) connections to \(s.port)")
        // The connection is up before trackee has read the request and
        // taken the stream's place in the store; a second covers that
        // under the whole suite's load.
        await pause(1)
        let start = try s.trackee("start", "-p", "Docs")
        #expect(start.status == 0, "\(start)")
        let since = try #require(start.lines.last?.split(separator: " ").last)
        #expect(await eventually(within: 10) { lines().count >= 2 })
        #expect(lines().dropFirst().first
            == #"{"text":"Docs","alt":"started","class":"running","tooltip":"Docs since \#(since)"}"#)
        let stop = try s.trackee("stop")
        #expect(stop.status == 0, "\(stop)")
        #expect(await eventually(within: 10) { lines().count >= 3 })
        #expect(lines().dropFirst(2).first == #"{"text":"idle","alt":"stopped","class":"idle","tooltip":"no timer runs"}"#)

        let ended = try await s.stop()
        #expect(ended.status == 0, "\(ended)")
        #expect(await eventually(within: 10) { lines().count >= 4 })
        #expect(lines().dropFirst(3).first
            == #"{"text":"off","alt":"offline","class":"offline","tooltip":"trackee does not answer at \#(s.url)"}"#)
        #expect(kill(-group, SIGTERM) == 0)
        #expect(await eventually(within: 10) { kill(group, 0) != 0 })
        await script.ended()
    }
}

/// Connections to `port` on loopback that are established, as the kernel
/// lists them in /proc/net/tcp (client ends only: remote port `port`).
func establishedConnections(toPort port: Int) -> Int {
    // Read to the end: the kernel reports no size for the file, and it is
    // long when many tests hold connections.
    let data = FileHandle(forReadingAtPath: "/proc/net/tcp").map { $0.readDataToEndOfFile() } ?? Data()
    let table = String(decoding: data, as: UTF8.self)
    let hex = String(format: "%04X", port)
    return table.split(separator: "\n").dropFirst().filter { row in
        let fields = row.split(separator: " ")
        return fields.count > 3 && fields[2].hasSuffix(":" + hex) && fields[3] == "01"
    }.count
}
