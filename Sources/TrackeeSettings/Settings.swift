import Foundation
import TrackeeAPI
import TrackeeCore
import TrackeeDesk
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
/// currency: EUR               # ISO 4217 code of the projects' rates, on reports
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
    /// The ISO 4217 code the projects' rates are in (`EUR`), which reports
    /// print beside amounts; nil: amounts without a code.
    public var currency: String?
    /// The HTTP API's settings; nil: the server is off.
    public var http: HTTPSettings?
    /// The `hub:` section; nil: no replication.
    public var hub: HubSettings?
    /// The desk kinds' own sections (`timeflip:`), read by each kind's
    /// reader (``DeskKindSettings``).
    public var desk = DeskSettings()

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
            case "currency":
                guard let code = value.string, value.scalar != nil, code.utf8.count == 3,
                      code.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
                else {
                    throw bad(file, value, "currency", "an ISO 4217 code of three capital letters, such as EUR or USD")
                }
                settings.currency = code
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
            default:
                guard let kind = DeskSettings.kind(claiming: key), let section = kind.settings else {
                    let known = ["week_start", "create_projects", "export", "location", "traces", "currency", "sync", "http", "hub"]
                        + DeskSettings.keys
                    throw Refusal("\(file):\(line(keyNode)): unknown key \(key); known keys are "
                        + known.dropLast().joined(separator: ", ") + " and " + known.last!)
                }
                settings.desk.set(kind.name, try section.read(deskSection(key, keyNode, value, file: file, environment: environment)))
            }
        }
        return settings
    }

    static func line(_ node: Node) -> Int { (node.mark?.line ?? 0) }

    /// A desk kind's section, handed to its reader: a mapping of scalars.
    static func deskSection(_ key: String, _ keyNode: Node, _ node: Node, file: String,
                            environment: [String: String]) throws -> DeskSection {
        guard let mapping = node.mapping else { throw bad(file, node, key, "a mapping") }
        let fields = mapping.map { name, value in
            DeskSection.Field(name: name.string ?? "", text: value.scalar != nil ? value.string : nil, line: line(value))
        }
        return DeskSection(key: key, file: file, line: line(keyNode), fields: fields) { path, field, kind, fill in
            let expanded = XDGDirectories.expandingHome(path, environment: environment)
            try PushSetting.checkSecretFile(expanded, at: "\(file):\(field.line): \(expanded)", kind: kind, fill: fill)
            return expanded
        }
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
