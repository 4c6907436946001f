import Foundation
import TrackeeAPI
import TrackeeCore
import TrackeeStore
import Yams

/// `$XDG_CONFIG_HOME/trackee/config.yaml`: optional user settings.
///
/// ```yaml
/// week_start: monday          # first day of `summary --week` and `status`
/// create_projects: ask        # a project name not seen before: ask, always or never
/// export:
///   email: me@example.com     # Email column of clockify and toggl exports
///   date_format: MM/DD/YYYY   # clockify: MM/DD/YYYY DD/MM/YYYY YYYY-MM-DD DD.MM.YYYY YYYY/MM/DD
///   time_format: 12h          # clockify: 12h or 24h
///   duration_format: h:mm     # clockify: h:mm, hh:mm:ss or decimal
/// location:
///   default_accuracy: 25      # meters, for fixes that give none
/// traces: 20                  # rule traces kept per rule for `rules why`
/// sync:
///   work:                     # a target's name
///     service: clockify       # or toggl
///     workspace: My Company   # name or id
///     token_file: ~/.config/trackee/clockify.token   # or token_env: VARIABLE
///     since: 2026-11-01       # entries starting before this are never pushed
///     projects: {Docs: Documentation}   # renames; others by the same name
///     create_missing: true    # create missing projects and clients there
///     url: https://api.clockify.me/api/v1   # the API's base URL
/// ```
public struct Settings: Sendable {
    public var weekStart: Weekday = .monday
    /// What a project name that does not exist does.
    public var createProjects: CreateProjects = .ask
    public var export = ExportOptions()
    /// Meters a fix without accuracy information counts as.
    public var defaultAccuracy = 25.0
    /// Services to keep up to date, in file order.
    public var sync: [PushSetting] = []
    /// How many traces `rules why` keeps per rule.
    public var traces = RuleTrace.defaultKept
    /// The HTTP API's settings; nil: the server is off.
    public var http: HTTPSettings?
    /// The `hub:` section; nil: no replication.
    public var hub: HubSettings?
    /// The `timeflip:` section; nil: no cube.
    public var timeflip: TimeFlipSettings?

    /// The settings without a file: every key's default.
    public init() {}

    public static func path(environment: [String: String]) -> String {
        if let explicit = environment["TRACKEE_CONFIG"], !explicit.isEmpty { return explicit }
        return XDGDirectories.config(environment: environment) + "/config.yaml"
    }

    /// Reads the settings file if there is one. A mistake in it is a
    /// ``Refusal`` naming the file, line and key, never silently ignored.
    public static func load(environment: [String: String], zone: Zone) throws -> Settings {
        let path = path(environment: environment)
        guard FileManager.default.fileExists(atPath: path) else { return Settings() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Refusal("\(path): cannot be read")
        }
        return try parse(String(decoding: data, as: UTF8.self), file: path, zone: zone, environment: environment)
    }

    public static func parse(_ text: String, file: String, zone: Zone, environment: [String: String]) throws -> Settings {
        var settings = Settings()
        let root: Node?
        do {
            // No implicit types: every scalar is text, read by the key
            // that takes it (numbers, booleans). Yams's resolvers compile
            // regular expressions, which cost every command about 10 M
            // instructions, a third of its start-up, once a settings file
            // exists.
            root = try Yams.compose(yaml: text, Resolver.basic)
        } catch let error as YamlError {
            let oneLine = "\(error)".split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && $0 != "^" }.joined(separator: " ")
            throw Refusal("\(file): not valid YAML: \(oneLine)")
        }
        guard let root else { return settings }
        guard let top = root.mapping else {
            throw Refusal("\(file):\(line(root)): the settings must be a mapping of keys to values")
        }
        for (keyNode, value) in top {
            let key = keyNode.string ?? ""
            switch key {
            case "week_start":
                guard let text = value.string, let day = Weekday(name: text) else {
                    throw bad(file, value, "week_start", "a weekday such as monday or sunday")
                }
                settings.weekStart = day
            case "create_projects":
                guard let text = value.string, let choice = CreateProjects(rawValue: text) else {
                    throw bad(file, value, "create_projects", choices(CreateProjects.allCases.map(\.rawValue)))
                }
                settings.createProjects = choice
            case "export":
                guard let export = value.mapping else {
                    throw bad(file, value, "export", "a mapping with email, date_format, time_format, duration_format")
                }
                for (k, v) in export {
                    let sub = k.string ?? ""
                    switch sub {
                    case "email":
                        guard v.scalar != nil, let email = v.string else {
                            throw bad(file, v, "export.email", "an email address")
                        }
                        settings.export.email = email
                    case "date_format":
                        guard let f = v.string.flatMap(ClockifyDateFormat.init(rawValue:)) else {
                            throw bad(file, v, "export.date_format", choices(ClockifyDateFormat.allCases.map(\.rawValue)))
                        }
                        settings.export.dateFormat = f
                    case "time_format":
                        guard let f = v.string.flatMap(ClockifyTimeFormat.init(rawValue:)) else {
                            throw bad(file, v, "export.time_format", choices(ClockifyTimeFormat.allCases.map(\.rawValue)))
                        }
                        settings.export.timeFormat = f
                    case "duration_format":
                        guard let f = v.string.flatMap(ClockifyDurationFormat.init(rawValue:)) else {
                            throw bad(file, v, "export.duration_format", choices(ClockifyDurationFormat.allCases.map(\.rawValue)))
                        }
                        settings.export.durationFormat = f
                    default:
                        throw Refusal("\(file):\(line(k)): unknown key export.\(sub); known keys are email, date_format, time_format, duration_format")
                    }
                }
            case "location":
                guard let location = value.mapping else {
                    throw bad(file, value, "location", "a mapping with default_accuracy")
                }
                for (k, v) in location {
                    guard k.string == "default_accuracy" else {
                        throw Refusal("\(file):\(line(k)): unknown key location.\(k.string ?? ""); the known key is default_accuracy")
                    }
                    guard let meters = v.float, meters.isFinite, meters > 0 else {
                        throw bad(file, v, "location.default_accuracy", "a number of meters above 0")
                    }
                    settings.defaultAccuracy = meters
                }
            case "traces":
                guard let text = value.string, let count = Int(text), (1...10_000).contains(count) else {
                    throw bad(file, value, "traces", "a whole number of traces from 1 to 10000")
                }
                settings.traces = count
            case "sync":
                guard let targets = value.mapping else {
                    throw bad(file, value, "sync", "a mapping of target names to their settings")
                }
                for (nameNode, target) in targets {
                    settings.sync.append(try PushSetting.parse(name: nameNode.string ?? "", target, file: file, zone: zone,
                                                               environment: environment))
                }
            case "http":
                settings.http = try HTTPSetting.parse(value, file: file)
            case "hub":
                settings.hub = try HubSetting.parse(value, file: file, line: line(keyNode), environment: environment)
            case "timeflip":
                settings.timeflip = try timeflip(value, file: file, environment: environment)
            default:
                throw Refusal("\(file):\(line(keyNode)): unknown key \(key); known keys are week_start, create_projects, export, location, traces, sync, http, hub and timeflip")
            }
        }
        return settings
    }

    static func line(_ node: Node) -> Int { (node.mark?.line ?? 0) }

    /// `timeflip: {device: "0C:61:CF:C7:77:71", password_file: PATH}`: the
    /// password file must exist and be readable by its owner only.
    static func timeflip(_ node: Node, file: String, environment: [String: String]) throws -> TimeFlipSettings {
        guard let fields = node.mapping else { throw bad(file, node, "timeflip", "a mapping with device and password_file") }
        var device: String?
        var passwordFile: String?
        for (keyNode, value) in fields {
            switch keyNode.string ?? "" {
            case "device":
                guard value.scalar != nil, let text = value.string, TimeFlipSettings.isAddress(text) else {
                    throw bad(file, value, "timeflip.device", "the cube's Bluetooth address, such as 0C:61:CF:C7:77:71")
                }
                device = text
            case "password_file":
                guard value.scalar != nil, let text = value.string, !text.isEmpty else {
                    throw bad(file, value, "timeflip.password_file", "a file path")
                }
                let expanded = XDGDirectories.expandingHome(text, environment: environment)
                try PushSetting.checkSecretFile(
                    expanded, at: "\(file):\(line(value)): \(expanded)", kind: "password",
                    fill: "put the cube's 6-character password in it (000000 unless it was changed)")
                passwordFile = expanded
            default:
                throw Refusal("\(file):\(line(keyNode)): unknown key timeflip.\(keyNode.string ?? ""); known keys are device and password_file")
            }
        }
        guard let device else { throw Refusal("\(file):\(line(node)): timeflip.device is missing; give the cube's Bluetooth address") }
        guard let passwordFile else {
            throw Refusal("\(file):\(line(node)): timeflip.password_file is missing; name the file that holds the cube's password")
        }
        return TimeFlipSettings(device: device, passwordFile: passwordFile)
    }

    static func choices(_ values: [String]) -> String {
        "one of " + values.joined(separator: ", ")
    }

    static func bad(_ file: String, _ node: Node, _ key: String, _ expected: String) -> Refusal {
        let shown = node.string.map { "\"\($0)\"" } ?? "this value"
        return Refusal("\(file):\(line(node)): \(key) is \(shown); expected \(expected)")
    }
}

extension Node {
    /// A plain scalar that YAML 1.1 reads as a boolean, read without a
    /// resolver: true, yes, on, false, no, off, in any case.
    var flag: Bool? {
        guard let scalar, scalar.style == .plain || scalar.style == .any else { return nil }
        switch scalar.string.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }
}
