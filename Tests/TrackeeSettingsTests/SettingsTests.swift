import Foundation
import Testing
import TrackeeAPI
import TrackeeCore
import TrackeeDesk
import TrackeeStore
import TrackeeTestSupport

@testable import TrackeeSettings

private let prague = try! Zone(identifier: "Europe/Prague")

/// `text` read as the file `config.yaml`.
private func read(_ text: String, environment: [String: String] = [:]) throws -> Settings {
    try Settings.parse(text, file: "config.yaml", zone: prague, environment: environment)
}

/// The sentence `text` is refused with.
private func refusal(_ text: String, environment: [String: String] = [:]) -> String? {
    do {
        _ = try read(text, environment: environment)
        return nil
    } catch {
        return (error as? Refusal)?.message ?? "not a Refusal: \(error)"
    }
}

extension TemporaryDirectory {
    /// A file `name` inside holding `text`, with `mode`; its path.
    func file(_ name: String, mode: Int, _ text: String = "secret\n") throws -> String {
        let file = try write(text, to: name)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
        return file
    }
}

extension PushSetting.Token {
    var file: String? {
        if case .file(let path) = self { return path }
        return nil
    }

    var variable: String? {
        if case .environment(let name) = self { return name }
        return nil
    }
}

@Suite struct SettingsTests {
    @Test func noTextIsEveryDefault() throws {
        for defaults in [Settings(), try read(""), try read("# nothing but a comment\n")] {
            expectDefaults(defaults)
        }
    }

    private func expectDefaults(_ defaults: Settings) {
        #expect(defaults.weekStart == .monday)
        #expect(defaults.createProjects == .ask)
        #expect(defaults.export == ExportOptions())
        #expect(defaults.defaultAccuracy == 25)
        #expect(defaults.sync.isEmpty)
        #expect(defaults.traces == RuleTrace.defaultKept)
        #expect(defaults.http == nil && defaults.hub == nil)
        #expect(defaults.currency == nil)
    }

    @Test func everyTopKeyIsRead() throws {
        let settings = try read("""
            week_start: sun
            create_projects: never
            export:
              email: ana@example.com
              date_format: DD.MM.YYYY
              time_format: 24h
              duration_format: decimal
            location:
              default_accuracy: 12.5
            traces: 50
            currency: CZK
            """)
        #expect(settings.weekStart == .sunday)
        #expect(settings.createProjects == .never)
        #expect(settings.export == ExportOptions(email: "ana@example.com", dateFormat: .dmyDots, timeFormat: .twentyFourHour,
                                                  durationFormat: .decimal))
        #expect(settings.defaultAccuracy == 12.5)
        #expect(settings.traces == 50)
        #expect(settings.currency == "CZK")
    }

    @Test(arguments: [
        ("week_start: someday\n", #"config.yaml:1: week_start is "someday"; expected a weekday such as monday or sunday"#),
        ("create_projects: maybe\n",
         #"config.yaml:1: create_projects is "maybe"; expected one of ask, always, never"#),
        ("export: yes\n",
         #"config.yaml:1: export is "yes"; expected a mapping with email, date_format, time_format, duration_format"#),
        ("export:\n  email: [a]\n", "config.yaml:2: export.email is this value; expected an email address"),
        ("export:\n  time_format: 13h\n", #"config.yaml:2: export.time_format is "13h"; expected one of 12h, 24h"#),
        ("export:\n  fmt: x\n",
         "config.yaml:2: unknown key export.fmt; known keys are email, date_format, time_format, duration_format"),
        ("location:\n  default_accuracy: 0\n",
         #"config.yaml:2: location.default_accuracy is "0"; expected a number of meters above 0"#),
        ("location:\n  accuracy: 5\n", "config.yaml:2: unknown key location.accuracy; the known key is default_accuracy"),
        ("traces: 0\n", #"config.yaml:1: traces is "0"; expected a whole number of traces from 1 to 10000"#),
        ("traces: 10001\n", #"config.yaml:1: traces is "10001"; expected a whole number of traces from 1 to 10000"#),
        ("currency: eur\n",
         #"config.yaml:1: currency is "eur"; expected an ISO 4217 code of three capital letters, such as EUR or USD"#),
        ("currency: EURO\n",
         #"config.yaml:1: currency is "EURO"; expected an ISO 4217 code of three capital letters, such as EUR or USD"#),
        ("\ncurrency: [EUR]\n",
         "config.yaml:2: currency is this value; expected an ISO 4217 code of three capital letters, such as EUR or USD"),
        ("currency: €\n",
         #"config.yaml:1: currency is "€"; expected an ISO 4217 code of three capital letters, such as EUR or USD"#),
        ("sync: [a]\n", "config.yaml:1: sync is this value; expected a mapping of target names to their settings"),
        ("colour: on\n",
         "config.yaml:1: unknown key colour; known keys are week_start, create_projects, export, location, traces, currency, sync, http, hub and timeflip"),
        ("- a\n- b\n", "config.yaml:1: the settings must be a mapping of keys to values"),
    ])
    func aBadValueIsRefusedWithItsLine(_ text: String, _ message: String) {
        #expect(refusal(text) == message)
    }

    @Test func textThatIsNotYAMLIsRefusedInOneLine() throws {
        let message = try #require(refusal("week_start: [monday\n"))
        #expect(message.hasPrefix("config.yaml: not valid YAML: "))
        #expect(!message.contains("\n"))
    }

    @Test func aFileThatIsNotThereIsTheDefaultsAndTheFileComesFromTheEnvironment() throws {
        let secrets = try TemporaryDirectory("trackee-settings-")
        #expect(Settings.path(environment: ["TRACKEE_CONFIG": "/etc/t.yaml", "XDG_CONFIG_HOME": "/x"]) == "/etc/t.yaml")
        #expect(Settings.path(environment: ["XDG_CONFIG_HOME": "/x"]) == "/x/trackee/config.yaml")
        expectDefaults(try Settings.load(environment: ["TRACKEE_CONFIG": secrets.path + "/none.yaml"], zone: prague))
        let file = try secrets.file("config.yaml", mode: 0o644, "traces: 7\n")
        #expect(try Settings.load(environment: ["TRACKEE_CONFIG": file], zone: prague).traces == 7)
    }
}

@Suite struct PushSettingTests {
    @Test func aTargetWithEveryKey() throws {
        let secrets = try TemporaryDirectory("trackee-settings-")
        let token = try secrets.file("clockify.token", mode: 0o600)
        let settings = try read("""
            sync:
              work:
                service: clockify
                workspace: My Company
                token_file: ~/clockify.token
                since: 2026-11-01
                projects: {Docs: Documentation}
                create_missing: yes
                url: https://api.example.org/v1/
                requests_per_hour: 240
              side:
                service: toggl
                workspace: "12345"
                token_env: TOGGL_TOKEN
                since: 2026-12-01
            """, environment: ["HOME": secrets.path])
        let work = try #require(settings.sync.first)
        // 2026-11-01 00:00 in Prague (+01:00).
        #expect([work.name, work.workspace, work.url, work.file] == ["work", "My Company", "https://api.example.org/v1", "config.yaml"])
        #expect(work.service == .clockify && work.line == 3)
        #expect(work.token.file == token && work.token.variable == nil)
        #expect(work.since == Instant(seconds: 1_793_487_600))
        #expect(work.projects == ["Docs": "Documentation"] && work.createMissing && work.requestsPerHour == 240)
        #expect(work.record == PushTargetRecord(name: "work", service: "clockify", since: Instant(seconds: 1_793_487_600)))
        #expect(work.jobTarget == PushJobSpec.Target(
            name: "work", service: "clockify", workspace: "My Company", url: "https://api.example.org/v1", tokenFile: token,
            tokenEnv: nil, projects: ["Docs": "Documentation"], createMissing: true, requestsPerHour: 240,
            origin: "config.yaml:3"))
        let side = settings.sync[1]
        #expect(side.name == "side" && side.service == .toggl && side.workspace == "12345")
        #expect(side.token.variable == "TOGGL_TOKEN" && side.token.file == nil)
        #expect(side.hourlyQuota == 30 && side.url == nil && !side.createMissing)
        #expect(side.jobTarget.tokenEnv == "TOGGL_TOKEN" && side.jobTarget.tokenFile == nil)
        #expect(side.jobTarget.requestsPerHour == 30 && side.jobTarget.origin == "config.yaml:12")
    }

    private func target(_ lines: String) -> String {
        "sync:\n  work:\n" + lines.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n"
    }

    private let whole = "service: clockify\nworkspace: W\ntoken_env: T\nsince: 2026-11-01"

    @Test func whatATargetLacksIsNamed() {
        #expect(refusal(target("workspace: W\ntoken_env: T\nsince: 2026-11-01"))
                    == "config.yaml:3: sync.work has no service (clockify or toggl)")
        #expect(refusal(target("service: toggl\ntoken_env: T\nsince: 2026-11-01"))
                    == "config.yaml:3: sync.work has no workspace (its name or id)")
        #expect(refusal(target("service: toggl\nworkspace: W\nsince: 2026-11-01"))
                    == "config.yaml:3: sync.work has no token_file or token_env")
        #expect(refusal(target("service: toggl\nworkspace: W\ntoken_env: T"))
                    == "config.yaml:3: sync.work has no since (a date; entries that start before it are never pushed)")
        #expect(refusal("sync:\n  \"\": {service: toggl}\n") == "config.yaml:2: a sync target needs a name")
    }

    @Test(arguments: [
        ("service: harvest", #"config.yaml:3: sync.work.service is "harvest"; expected one of clockify, toggl"#),
        ("since: 2026-13-01", #"config.yaml:6: sync.work.since is "2026-13-01"; expected a date such as 2026-11-01"#),
        ("since: 2026-2-01", #"config.yaml:6: sync.work.since is "2026-2-01"; expected a date such as 2026-11-01"#),
        ("token_file: /t", "config.yaml:7: sync.work.token_file: give token_file or token_env, not both"),
        ("url: ftp://example.org", #"config.yaml:7: sync.work.url is "ftp://example.org"; expected an http or https URL"#),
        ("requests_per_hour: 0",
         #"config.yaml:7: sync.work.requests_per_hour is "0"; expected a whole number of requests an hour, 1 or more "#
            + "(Toggl Track Free: 30, Starter: 240, Premium: 600)"),
        ("create_missing: sometimes", #"config.yaml:7: sync.work.create_missing is "sometimes"; expected true or false"#),
        ("projects: {Docs: \"\"}",
         #"config.yaml:7: sync.work.projects is ""; expected a mapping of local project names to the service's"#),
        ("colour: red",
         "config.yaml:7: unknown key sync.work.colour; known keys are service, workspace, token_file, token_env, since, "
            + "projects, create_missing, url, requests_per_hour"),
    ])
    func aBadValueOfATarget(_ line: String, _ message: String) {
        // A repeated key replaces the earlier one in the mapping's place.
        var lines = whole.split(separator: "\n").map(String.init)
        let key = line.prefix { $0 != ":" }
        if let same = lines.firstIndex(where: { $0.hasPrefix(key + ":") }) { lines[same] = line } else { lines.append(line) }
        #expect(refusal(target(lines.joined(separator: "\n"))) == message)
    }

    @Test func aTokenFileMustBeARegularFileOnlyItsOwnerReads() throws {
        let secrets = try TemporaryDirectory("trackee-settings-")
        let open = try secrets.file("open.token", mode: 0o644)
        let text = { (path: String) in self.target("service: toggl\nworkspace: W\ntoken_file: \(path)\nsince: 2026-11-01") }
        #expect(refusal(text(open))
                    == "config.yaml:5: \(open): the token file can be read by other users; run chmod 600 \(open)")
        #expect(refusal(text(secrets.path + "/none"))
                    == "config.yaml:5: \(secrets.path)/none: the token file does not exist; "
                    + "put the service's API token in it and run chmod 600 on it")
        #expect(refusal(text(secrets.path)) == "config.yaml:5: \(secrets.path): the token file is not a regular file")
        let closed = try secrets.file("closed.token", mode: 0o600)
        #expect(try read(text(closed)).sync[0].token.file == closed)
    }
}

@Suite struct HubSettingTests {
    @Test func aHubWithEveryKey() throws {
        let secrets = try TemporaryDirectory("trackee-settings-")
        let password = try secrets.file("hub.password", mode: 0o600)
        let settings = try read("""
            week_start: monday
            hub:
              url: postgresql://hub.example.org/trackee
              user: ana
              password_file: \(password)
              sslmode: verify-full
              device: laptop-1
              sync_device: desk
            """)
        var expected = HubSettings(url: "postgresql://hub.example.org/trackee", user: "ana", password: .file(password),
                                   sslmode: .verifyFull, device: "laptop-1", origin: "config.yaml:2")
        expected.syncDevice = "desk"
        #expect(settings.hub == expected)
        #expect(try read("hub:\n  url: postgres:///t?host=/run\n  password_env: PW\n  device: d\n").hub
                    == HubSettings(url: "postgres:///t?host=/run", password: .environment("PW"), device: "d", origin: "config.yaml:1"))
    }

    @Test func withoutADeviceItIsTheHostsFirstLabel() throws {
        let host = HubSetting.hostName()
        let label = host.split(separator: ".").first.map(String.init) ?? ""
        #expect(!host.isEmpty)
        if HubSettings.isValidDevice(label) {
            #expect(try read("hub:\n  url: postgresql://h/t\n").hub?.device == label)
        } else {
            #expect(refusal("hub:\n  url: postgresql://h/t\n")
                        == "config.yaml:1: hub has no device, and the host name \"\(label)\" cannot be one; give hub.device")
        }
    }

    @Test(arguments: [
        ("hub: postgresql://h/t\n",
         #"config.yaml:1: hub is "postgresql://h/t"; expected a mapping with url, user, password_file, password_env, sslmode, device, sync_device"#),
        ("hub:\n  device: d\n",
         "config.yaml:1: hub has no url (a PostgreSQL URL such as postgresql://hub.example.org/trackee)"),
        ("hub:\n  url: mysql://h/t\n  device: d\n",
         #"config.yaml:2: hub.url is "mysql://h/t"; expected a PostgreSQL URL such as postgresql://hub.example.org/trackee"#),
        ("hub:\n  url: postgresql://h/t\n  user: \" \"\n  device: d\n", #"config.yaml:3: hub.user is " "; expected a PostgreSQL role's name"#),
        ("hub:\n  url: postgresql://h/t\n  password_env: A\n  password_file: /p\n  device: d\n",
         "config.yaml:4: hub.password_file: give password_file or password_env, not both"),
        ("hub:\n  url: postgresql://h/t\n  sslmode: strict\n  device: d\n",
         #"config.yaml:3: hub.sslmode is "strict"; expected one of disable, allow, prefer, require, verify-ca, verify-full"#),
        ("hub:\n  url: postgresql://h/t\n  device: my laptop\n",
         #"config.yaml:3: hub.device is "my laptop"; expected a name of letters, digits, '.', '-' and '_', at most 64"#),
        ("hub:\n  url: postgresql://h/t\n  device: d\n  sync_device: \"\"\n",
         #"config.yaml:4: hub.sync_device is ""; expected a device's name (hub.device on that device)"#),
        ("hub:\n  url: postgresql://h/t\n  device: d\n  port: 5432\n",
         "config.yaml:4: unknown key hub.port; known keys are url, user, password_file, password_env, sslmode, device, sync_device"),
    ])
    func aBadHubValue(_ text: String, _ message: String) {
        #expect(refusal(text) == message)
    }

    @Test func aPasswordFileIsCheckedAsATokenFileIs() throws {
        let secrets = try TemporaryDirectory("trackee-settings-")
        let open = try secrets.file("hub.password", mode: 0o640)
        #expect(refusal("hub:\n  url: postgresql://h/t\n  device: d\n  password_file: \(open)\n")
                    == "config.yaml:4: \(open): the password file can be read by other users; run chmod 600 \(open)")
        #expect(refusal("hub:\n  url: postgresql://h/t\n  device: d\n  password_file: ~/none\n", environment: ["HOME": secrets.path])
                    == "config.yaml:4: \(secrets.path)/none: the password file does not exist; "
                    + "put the hub's password in it and run chmod 600 on it")
    }
}

/// `timeflip:`, a desk kind's own section: read by the kind's reader
/// (``TimeFlipSettings/read(_:)``), which the settings file finds in the
/// desk registry.
@Suite struct TimeFlipSettingTests {
    @Test func theCubeAndItsPasswordFile() throws {
        let home = try TemporaryDirectory("trackee-settings-")
        let file = try home.file("cube.password", mode: 0o600, "000000\n")
        let settings = try read("timeflip:\n  device: \"0c:61:cf:c7:77:71\"\n  password_file: ~/cube.password\n",
                                environment: ["HOME": home.path])
        let cube = try #require(settings.desk["flip", as: TimeFlipSettings.self])
        #expect(cube.device == "0C:61:CF:C7:77:71")
        #expect(cube.passwordFile == file)
        #expect(try read("week_start: monday\n").desk["flip", as: TimeFlipSettings.self] == nil)
    }

    @Test(arguments: [
        ("timeflip: [a]\n", "config.yaml:1: timeflip is this value; expected a mapping"),
        ("timeflip:\n  device: nope\n",
         "config.yaml:2: timeflip.device is \"nope\"; expected the cube's Bluetooth address, such as 0C:61:CF:C7:77:71"),
        ("timeflip:\n  device: [a]\n",
         "config.yaml:2: timeflip.device is this value; expected the cube's Bluetooth address, such as 0C:61:CF:C7:77:71"),
        ("timeflip:\n  device: \"0C:61:CF:C7:77:71\"\n",
         "config.yaml:1: timeflip.password_file is missing; name the file that holds the cube's password"),
        ("timeflip: {}\n", "config.yaml:1: timeflip.device is missing; give the cube's Bluetooth address"),
        ("timeflip:\n  device: \"0C:61:CF:C7:77:71\"\n  colour: red\n",
         "config.yaml:3: unknown key timeflip.colour; known keys are device and password_file"),
        ("timeflip:\n  device: \"0C:61:CF:C7:77:71\"\n  password_file: /nonexistent/cube\n",
         "config.yaml:3: /nonexistent/cube: the password file does not exist; put the cube's 6-character password in it "
            + "(000000 unless it was changed) and run chmod 600 on it"),
    ])
    func aBadSectionIsRefusedWithItsLine(_ text: String, _ message: String) {
        #expect(refusal(text) == message)
    }

    @Test func aPasswordFileOthersCanReadIsRefused() throws {
        let home = try TemporaryDirectory("trackee-settings-")
        let open = try home.file("cube.password", mode: 0o644)
        #expect(refusal("timeflip:\n  device: \"0C:61:CF:C7:77:71\"\n  password_file: \(open)\n")
                    == "config.yaml:3: \(open): the password file can be read by other users; run chmod 600 \(open)")
    }
}

@Suite struct HTTPSettingTests {
    @Test func anEmptySectionTurnsTheServerOnWithTheDefaults() throws {
        #expect(try read("http:\n").http == HTTPSettings())
        #expect(try read("http: {}\n").http == HTTPSettings())
    }

    @Test func everyKey() throws {
        let http = try #require(try read("""
            http:
              listen: "[::]:8080"
              insecure_plaintext: on
              max_connections: 10000
              rate_limit: 1
              heartbeat: 3600
              access_log: true
              trusted_proxies: [127.0.0.1, "::1"]
              session_days: 3650
            """).http)
        var expected = HTTPSettings()
        (expected.host, expected.port) = ("::", 8080)
        expected.insecurePlaintext = true
        (expected.maxConnections, expected.rateLimit, expected.heartbeat) = (10000, 1, 3600)
        expected.accessLog = true
        expected.trustedProxies = ["127.0.0.1", "::1"]
        expected.sessionDays = 3650
        #expect(http == expected)
        #expect(try read("http:\n  listen: :9000\n").http?.host == "127.0.0.1")
    }

    @Test func aSignInOnTheWebPageLastsThirtyDaysUnlessSet() throws {
        #expect(HTTPSettings().sessionDays == 30)
        #expect(try read("http:\n  session_days: 1\n").http?.sessionDays == 1)
        #expect(try read("http:\n  session_days: 90\n").http?.sessionDays == 90)
    }

    @Test(arguments: [
        ("http:\n  listen: localhost\n",
         "config.yaml:2: http.listen is \"localhost\"; expected HOST:PORT, such as 127.0.0.1:7777 or [::1]:7777"),
        ("http:\n  rate_limit: 5\n  listen: \"[fd00::1]:7777\"\n",
         "config.yaml:2: http.listen is fd00::1, beyond loopback, in plain HTTP; "
            + "listen on loopback behind a TLS reverse proxy (recipes/http), or set insecure_plaintext: true"),
        ("http:\n  heartbeat: 3601\n", "config.yaml:2: http.heartbeat is \"3601\"; expected a whole number from 1 to 3600"),
        ("http:\n  max_connections: 0\n", "config.yaml:2: http.max_connections is \"0\"; expected a whole number from 1 to 10000"),
        ("http:\n  rate_limit: 1000001\n", "config.yaml:2: http.rate_limit is \"1000001\"; expected a whole number from 1 to 1000000"),
        ("http:\n  session_days: 0\n", "config.yaml:2: http.session_days is \"0\"; expected a whole number from 1 to 3650"),
        ("http:\n  access_log: true\n  session_days: 3651\n",
         "config.yaml:3: http.session_days is \"3651\"; expected a whole number from 1 to 3650"),
        ("http:\n  session_days: 2.5\n", "config.yaml:2: http.session_days is \"2.5\"; expected a whole number from 1 to 3650"),
        ("http:\n  session_days: 30d\n", "config.yaml:2: http.session_days is \"30d\"; expected a whole number from 1 to 3650"),
        ("http:\n  insecure_plaintext: \"true\"\n", "config.yaml:2: http.insecure_plaintext is \"true\"; expected true or false"),
        ("http:\n  tls: {}\n",
         "config.yaml:2: http.tls: trackee serves plain HTTP only; "
            + "for TLS, listen on loopback behind a reverse proxy (recipes/http/nginx, recipes/http/caddy)"),
        ("http:\n  trusted_proxies: [10.0.0.0/8]\n",
         "config.yaml:2: http.trusted_proxies is \"10.0.0.0/8\"; expected a list of IP addresses, such as [127.0.0.1, \"::1\"]"),
        ("http: 1\n",
         "config.yaml:1: http is \"1\"; expected a mapping (listen, insecure_plaintext, max_connections, rate_limit, "
            + "heartbeat, access_log, trusted_proxies, session_days)"),
    ])
    func aBadHTTPValue(_ text: String, _ message: String) {
        #expect(refusal(text) == message)
    }
}

@Suite struct FlagTests {
    @Test func yamlOneOneBooleansInAnyCaseUnquoted() throws {
        for (word, value) in [("true", true), ("Yes", true), ("ON", true), ("false", false), ("no", false), ("Off", false)] {
            #expect(try read("http:\n  access_log: \(word)\n").http?.accessLog == value)
        }
        #expect(refusal("http:\n  access_log: 'yes'\n") == "config.yaml:2: http.access_log is \"yes\"; expected true or false")
        #expect(refusal("http:\n  access_log: y\n") == "config.yaml:2: http.access_log is \"y\"; expected true or false")
    }
}
