import Foundation
import TrackeeTestSupport
import Testing
import Yams

/// The recipes for the HTTP API in recipes/http/ have the shape their apps
/// read, call only routes that openapi.json describes with the method it
/// names, and send only the fields those routes take.
@Suite struct HTTPRecipeTests {
    static let folder = RecipeTests.recipes.appendingPathComponent("http")

    static func text(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    static func json(_ name: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text(name).utf8))
    }

    /// What every request a recipe makes must be: a documented operation,
    /// with body fields the operation takes.
    static func expectDocumented(_ method: String, _ url: String, fields: Set<String> = [], _ recipe: String,
                                 _ api: APIReference) {
        guard let path = apiPath(url) else {
            Issue.record("\(recipe): \(url) is no API path")
            return
        }
        #expect(api.operations.contains("\(method) \(path)"), "\(recipe): \(method) \(path) is not in openapi.json")
        let unknown = fields.subtracting(api.bodyFields(method, path))
        #expect(unknown.isEmpty, "\(recipe): \(method) \(path) takes no field \(unknown.sorted())")
    }

    // MARK: Home Assistant

    @Test func homeAssistantCommandsAndSensorHaveTheKeysHomeAssistantReads() throws {
        let api = try APIReference.load()
        let root = try #require(try Yams.compose(yaml: Self.text("home-assistant.yaml")))
        #expect(root.mapping?.keys.compactMap(\.string).sorted() == ["rest_command", "sensor"])
        let commands = try #require(root["rest_command"])
        #expect(commands.mapping?.keys.compactMap(\.string).sorted() == ["trackee_start", "trackee_stop"])
        for (name, path) in [("trackee_start", "/v1/start"), ("trackee_stop", "/v1/stop")] {
            let command = try #require(commands[name])
            #expect(command["url"]?.string == "http://127.0.0.1:7777" + path)
            #expect(command["method"]?.string == "post")
            #expect(command["content_type"]?.string == "application/json")
            let authorization = try #require(command["headers"]?["Authorization"])
            #expect(authorization.tag.description == "!secret")
            #expect(authorization.string == "trackee_authorization")
            Self.expectDocumented("POST", path, "home-assistant.yaml \(name)", api)
        }
        let sensors = try #require(root["sensor"]?.sequence)
        #expect(sensors.count == 1)
        let sensor = try #require(sensors.first)
        #expect(sensor["platform"]?.string == "rest")
        #expect(sensor["resource"]?.string == "http://127.0.0.1:7777/v1/status")
        #expect(sensor["method"]?.string == "GET")
        #expect(sensor["headers"]?["Authorization"]?.tag.description == "!secret")
        #expect(sensor["headers"]?["Authorization"]?.string == "trackee_authorization")
        Self.expectDocumented("GET", "/v1/status", "home-assistant.yaml sensor", api)
        let attributes = Set(sensor["json_attributes"]?.array().compactMap(\.string) ?? [])
        #expect(attributes == api.statusFields)
    }

    /// The payloads, rendered by Jinja2 (the template engine of Home
    /// Assistant) with its `to_json` filter and `now()`, are the JSON
    /// bodies the routes take; the sensor's state is the running project.
    @Test func homeAssistantTemplatesRenderToBodiesAndStates() throws {
        let api = try APIReference.load()
        let root = try #require(try Yams.compose(yaml: Self.text("home-assistant.yaml")))
        let start = try #require(root["rest_command"]?["trackee_start"]?["payload"]?.string)
        let stop = try #require(root["rest_command"]?["trackee_stop"]?["payload"]?.string)
        let startBody = try JSONDecoder().decode(JSONValue.self, from: Data(HomeAssistantTemplate.render(start, ["project": "Client \"A\""]).utf8))
        #expect(startBody == .object([
            "project": .string("Client \"A\""),
            "idempotency_key": .string("home-assistant-start-Client \"A\"-2026-11-23T09:41"),
        ]))
        Self.expectDocumented("POST", "/v1/start", fields: Set(startBody.keys), "home-assistant.yaml trackee_start", api)
        let stopBody = try JSONDecoder().decode(JSONValue.self, from: Data(HomeAssistantTemplate.render(stop, [:]).utf8))
        #expect(stopBody == .object(["idempotency_key": .string("home-assistant-stop-2026-11-23T09:41")]))
        Self.expectDocumented("POST", "/v1/stop", fields: Set(stopBody.keys), "home-assistant.yaml trackee_stop", api)

        let state = try #require(root["sensor"]?.sequence?.first?["value_template"]?.string)
        let idle = #"{"today_seconds":0,"week_seconds":0}"#
        let null = #"{"running":null,"today_seconds":0,"week_seconds":0}"#
        let docs = #"{"running":{"id":1,"project":"Docs","running":true},"elapsed_seconds":60,"today_seconds":60,"week_seconds":60}"#
        let none = #"{"running":{"id":1,"project":null,"running":true},"elapsed_seconds":60,"today_seconds":60,"week_seconds":60}"#
        #expect(try HomeAssistantTemplate.render(state, [:], valueJSON: idle) == "idle")
        #expect(try HomeAssistantTemplate.render(state, [:], valueJSON: null) == "idle")
        #expect(try HomeAssistantTemplate.render(state, [:], valueJSON: docs) == "Docs")
        #expect(try HomeAssistantTemplate.render(state, [:], valueJSON: none) == "(no project)")
    }

    // MARK: HTTP Shortcuts

    @Test func httpShortcutsExportHasTheAppsFormatAndKnownVariables() throws {
        let api = try APIReference.load()
        let export = try Self.json("http-shortcuts.json")
        #expect(export["version"].int == 81)
        #expect(export["compatibilityVersion"].int == 78)
        let variables = export["variables"].elements
        #expect(variables.map { $0["key"] } == [.string("trackee_url"), .string("trackee_token"), .string("trackee_minute")])
        // The app's variable ids: a UUID (version 4) or digits.
        let uuid = try Regex("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
        for variable in variables {
            #expect(variable["id"].string.map { $0.wholeMatch(of: uuid) != nil } == true, "\(variable)")
        }
        // The token is left out of any export the user makes later (flag 8).
        #expect(variables[1]["type"] == "constant")
        #expect(variables[1]["value"] == "")
        #expect(variables[1]["flags"].int == 8)
        #expect(variables[2]["type"] == "timestamp")
        #expect(variables[2]["data"] == .string(#"{"timestamp": {"format": "yyyy-MM-dd'T'HH:mm"}}"#))

        let shortcuts = export["categories"][0]["shortcuts"].elements
        #expect(shortcuts.map { $0["name"] } == [.string("Start Office"), .string("Stop"), .string("Status")])
        let rendered = HTTPShortcutsExport(export, url: "http://127.0.0.1:7777", token: "trk_t", minute: "2026-11-23T09:41")
        let requests = try rendered.requests()
        #expect(requests.map(\.method) == ["POST", "POST", "GET"])
        #expect(requests.map(\.url) == [
            "http://127.0.0.1:7777/v1/start", "http://127.0.0.1:7777/v1/stop", "http://127.0.0.1:7777/v1/status",
        ])
        #expect(requests.map(\.headers) == Array(repeating: ["Authorization: Bearer trk_t"], count: 3))
        #expect(requests.map(\.body) == [
            #"{"project": "Office", "idempotency_key": "http-shortcuts-start-Office-2026-11-23T09:41"}"#,
            #"{"idempotency_key": "http-shortcuts-stop-2026-11-23T09:41"}"#,
            nil,
        ])
        for request in requests {
            let fields = try request.body.map { try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)).keys } ?? []
            Self.expectDocumented(request.method, request.url, fields: Set(fields), "http-shortcuts.json", api)
        }
    }

    // MARK: OwnTracks

    @Test func ownTracksSettingsUseHTTPModeWithTheDeviceAsUser() throws {
        let api = try APIReference.load()
        let settings = try Self.json("owntracks.otrc")
        #expect(settings["_type"] == "configuration")
        #expect(settings["mode"].int == 3)
        #expect(settings["url"] == "https://trackee.example.org/v1/owntracks")
        #expect(settings["auth"] == .bool(true))
        #expect(settings["username"] == "phone")
        #expect(settings["deviceId"] == settings["username"])
        #expect(settings["password"].string?.hasPrefix("trk_") == true)
        Self.expectDocumented("POST", settings["url"].string ?? "", "owntracks.otrc", api)
        #expect(api.document["paths"]["/v1/owntracks"]["post"]["security"][0].keys == ["basic"])
    }

    // MARK: Step-by-step recipes

    /// Each request a step-by-step recipe describes, as (method, URL).
    static func describedRequests(_ text: String) -> [(method: String, url: String)] {
        var found: [(method: String, url: String)] = []
        var method: String?
        var url: String?
        for line in text.components(separatedBy: "\n") {
            let words = line.trimmingCharacters(in: .whitespaces)
            if words.hasPrefix("- Method: **") {
                method = String(words.dropFirst("- Method: **".count).prefix { $0 != "*" })
            } else if words.hasPrefix("- URL: `") {
                url = String(words.dropFirst("- URL: `".count).prefix { $0 != "`" })
            }
            if let m = method, let u = url {
                found.append((m, u))
                method = nil
                url = nil
            }
        }
        return found
    }

    @Test func theIOSShortcutsCallDocumentedRoutesWithTheirFields() throws {
        let api = try APIReference.load()
        let text = try Self.text("ios-shortcut.md")
        let requests = Self.describedRequests(text)
        #expect(requests.map { "\($0.method) \($0.url)" } == [
            "POST https://trackee.example.org/v1/start", "POST https://trackee.example.org/v1/stop",
            "GET https://trackee.example.org/v1/status",
        ])
        for request in requests { Self.expectDocumented(request.method, request.url, "ios-shortcut.md", api) }
        // The JSON body fields, as listed: "- `project` (Text): ...".
        let fields = text.components(separatedBy: "\n").compactMap { line -> String? in
            let words = line.trimmingCharacters(in: .whitespaces)
            guard words.hasPrefix("- `"), words.contains("` (Text)") else { return nil }
            return String(words.dropFirst(3).prefix { $0 != "`" })
        }
        #expect(fields == ["project", "idempotency_key", "idempotency_key"])
        Self.expectDocumented("POST", "/v1/start", fields: Set(fields), "ios-shortcut.md", api)
    }

    @Test func theTaskerTasksCallDocumentedRoutesWithJSONBodies() throws {
        let api = try APIReference.load()
        let text = try Self.text("tasker.md")
        let requests = Self.describedRequests(text)
        #expect(requests.map { "\($0.method) \($0.url)" } == [
            "POST %TRACKEE_URL/v1/start", "POST %TRACKEE_URL/v1/stop", "GET %TRACKEE_URL/v1/status",
        ])
        let bodies = try TaskerTasks.bodies(text, minute: "2026-11-23T09:41")
        #expect(bodies == [
            #"{"project": "Office", "idempotency_key": "tasker-start-Office-2026-11-23T09:41"}"#,
            #"{"idempotency_key": "tasker-stop-2026-11-23T09:41"}"#,
        ])
        for (request, body) in zip(requests, bodies + [nil]) {
            let fields = try body.map { try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)).keys } ?? []
            Self.expectDocumented(request.method, request.url, fields: Set(fields), "tasker.md", api)
        }
        #expect(text.contains("`Authorization:Bearer %TRACKEE_TOKEN`"))
    }

    // MARK: waybar

    @Test func theWaybarModuleRunsTheScriptWithJSONOutput() throws {
        // waybar's config is JSON with // comments.
        let lines = try Self.text("waybar/config.jsonc").components(separatedBy: "\n")
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
        let config = try JSONDecoder().decode(JSONValue.self, from: Data(lines.joined(separator: "\n").utf8))
        #expect(config["modules-right"] == .array(["custom/trackee"]))
        let module = config["custom/trackee"]
        #expect(module["exec"] == "$HOME/.local/bin/trackee-waybar")
        #expect(module["return-type"] == "json")
        #expect(module["on-click"] == "trackee stop")
        let check = try runProgram("/bin/sh", ["-n", Self.folder.appendingPathComponent("waybar/trackee-waybar.sh").path],
                                   environment: ["PATH": "/usr/bin:/bin"], in: Self.folder)
        #expect(check.status == 0, "\(check.stderr)")
        let script = try Self.text("waybar/trackee-waybar.sh")
        let api = try APIReference.load()
        Self.expectDocumented("GET", "/v1/status", "trackee-waybar.sh", api)
        Self.expectDocumented("GET", "/v1/events/stream", "trackee-waybar.sh", api)
        #expect(script.contains("fetch /v1/status"))
        #expect(script.contains("fetch /v1/events/stream"))
    }

    // MARK: Caddy

    /// Caddy is not in Debian 12, so its recipe is checked for shape only:
    /// one site block that proxies /v1/ to trackee's default address and
    /// flushes at once (the event stream), braces balanced.
    @Test func theCaddyfileProxiesTheAPIWithoutBuffering() throws {
        let lines = try Self.text("caddy/Caddyfile").components(separatedBy: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        #expect(lines.first == "trackee.example.org {")
        #expect(lines.contains("reverse_proxy 127.0.0.1:7777 {"))
        #expect(lines.contains("flush_interval -1"))
        #expect(lines.contains("max_size 64KB"))
        var depth = 0
        for line in lines {
            depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
            #expect(depth >= 0)
        }
        #expect(depth == 0)
    }
}

/// Home Assistant's templates rendered by Jinja2 (Debian's python3-jinja2)
/// with what Home Assistant adds that these recipes use: the `to_json`
/// filter and `now()`, here 2026-11-23 09:41:07.
enum HomeAssistantTemplate {
    static let program = """
        import datetime, json, sys, jinja2
        environment = jinja2.Environment()
        environment.filters["to_json"] = lambda value: json.dumps(value, ensure_ascii=False)
        environment.globals["now"] = lambda: datetime.datetime(2026, 11, 23, 9, 41, 7)
        variables = json.loads(sys.argv[2])
        if len(sys.argv) > 3:
            variables["value_json"] = json.loads(sys.argv[3])
        sys.stdout.write(environment.from_string(sys.argv[1]).render(**variables))
        """

    static func render(_ template: String, _ variables: [String: String], valueJSON: String? = nil) throws -> String {
        let encoded = String(decoding: try JSONEncoder().encode(variables), as: UTF8.self)
        let r = try runProgram("/usr/bin/python3", ["-c", program, template, encoded] + (valueJSON.map { [$0] } ?? []),
                               environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
                               in: FileManager.default.temporaryDirectory)
        guard r.status == 0 else { throw ServingSandbox.Failure("jinja2 failed: \(r.stderr)") }
        return r.stdout
    }
}

/// The requests of recipes/http/http-shortcuts.json as the app sends them,
/// its `{{variable-id}}` placeholders replaced by the variables' values.
struct HTTPShortcutsExport {
    var export: JSONValue
    var values: [String: String] = [:]

    struct Request {
        var method: String
        var url: String
        var headers: [String]
        var body: String?
    }

    init(_ export: JSONValue, url: String, token: String, minute: String) {
        self.export = export
        let byKey = ["trackee_url": url, "trackee_token": token, "trackee_minute": minute]
        for variable in export["variables"].elements {
            if let id = variable["id"].string, let key = variable["key"].string { values[id] = byKey[key] }
        }
    }

    /// `text` with every placeholder replaced; a placeholder naming no
    /// variable of the export throws.
    func resolve(_ text: String) throws -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            let id = String(rest[open.upperBound..<close.lowerBound])
            guard let value = values[id] else { throw ServingSandbox.Failure("no variable \(id)") }
            out += value
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    func requests() throws -> [Request] {
        try export["categories"][0]["shortcuts"].elements.map { shortcut in
            Request(
                method: shortcut["method"].string ?? "GET",
                url: try resolve(shortcut["url"].string ?? ""),
                headers: try shortcut["headers"].elements.map {
                    "\($0["key"].string ?? ""): \(try resolve($0["value"].string ?? ""))"
                },
                body: try shortcut["bodyContent"].string.map(resolve))
        }
    }
}

/// The HTTP Request bodies of recipes/http/tasker.md, with Tasker's
/// `%formatted` (the Parse/Format DateTime output) replaced by `minute`.
enum TaskerTasks {
    static func bodies(_ text: String, minute: String) throws -> [String] {
        text.components(separatedBy: "\n").compactMap { line in
            let words = line.trimmingCharacters(in: .whitespaces)
            guard words.hasPrefix("- Body: `") else { return nil }
            return String(words.dropFirst("- Body: `".count).prefix { $0 != "`" })
                .replacingOccurrences(of: "%formatted", with: minute)
        }
    }
}
