import Foundation
import TrackeeCore
import TrackeeStore
import Yams

/// One target of the settings' `sync:` section: a Clockify or Toggl Track
/// workspace that trackee keeps up to date.
///
/// The token itself is never in the settings file: `token_file` names a
/// file only its owner can read, `token_env` an environment variable. It
/// is read only by the commands that talk to the service.
public struct PushSetting: Sendable {
    public enum Service: String, Sendable, CaseIterable { case clockify, toggl }
    public enum Token: Sendable {
        case file(String)
        case environment(String)
    }

    public var name: String
    public var service: Service
    public var workspace: String
    public var token: Token
    public var since: Instant
    /// Local project name to the service's.
    public var projects: [String: String] = [:]
    public var createMissing = false
    public var url: String?
    /// `requests_per_hour:`, the quota pushes keep under; nil: the default.
    public var requestsPerHour: Int?
    /// Where it is written, for errors found later (a token file that is
    /// missing or readable by others).
    public var file: String
    public var line: Int

    public var record: PushTargetRecord { PushTargetRecord(name: name, service: service.rawValue, since: since) }

    static let keys = ["service", "workspace", "token_file", "token_env", "since", "projects", "create_missing", "url",
                       "requests_per_hour"]

    /// Both services' Free plans allow 30 requests an hour (Toggl Track's
    /// workspace quota, Clockify's for a new Free workspace); a paid plan
    /// allows more, which `requests_per_hour:` states.
    public static let defaultRequestsPerHour = 30

    /// The hourly quota pushes keep under.
    public var hourlyQuota: Int { requestsPerHour ?? Self.defaultRequestsPerHour }

    /// The target as `trackee-sync` takes it: the token's file or
    /// variable (never the token), the quota, and where it is written.
    public var jobTarget: PushJobSpec.Target {
        var tokenFile: String?
        var tokenEnv: String?
        switch token {
        case .file(let path): tokenFile = path
        case .environment(let name): tokenEnv = name
        }
        return PushJobSpec.Target(name: name, service: service.rawValue, workspace: workspace, url: url,
                                  tokenFile: tokenFile, tokenEnv: tokenEnv, projects: projects,
                                  createMissing: createMissing, requestsPerHour: hourlyQuota, origin: "\(file):\(line)")
    }

    static func parse(name: String, _ node: Node, file: String, zone: Zone, environment: [String: String]) throws -> PushSetting {
        let at = Settings.line(node)
        guard !name.trimmingWhitespace().isEmpty else {
            throw Refusal("\(file):\(at): a sync target needs a name")
        }
        guard let fields = node.mapping else {
            throw Settings.bad(file, node, "sync.\(name)", "a mapping with " + keys.joined(separator: ", "))
        }
        var service: Service?
        var workspace: String?
        var token: Token?
        var since: Instant?
        var setting = PushSetting(name: name, service: .clockify, workspace: "", token: .environment(""),
                                  since: Instant(seconds: 0), file: file, line: at)
        for (keyNode, value) in fields {
            let key = keyNode.string ?? ""
            let path = "sync.\(name).\(key)"
            switch key {
            case "service":
                guard let s = value.string.flatMap(Service.init(rawValue:)) else {
                    throw Settings.bad(file, value, path, Settings.choices(Service.allCases.map(\.rawValue)))
                }
                service = s
            case "workspace":
                guard value.scalar != nil, let w = value.string, !w.trimmingWhitespace().isEmpty else {
                    throw Settings.bad(file, value, path, "the workspace's name or id")
                }
                workspace = w
            case "token_file", "token_env":
                guard token == nil else {
                    throw Refusal("\(file):\(Settings.line(keyNode)): \(path): give token_file or token_env, not both")
                }
                guard value.scalar != nil, let text = value.string, !text.isEmpty else {
                    throw Settings.bad(file, value, path, key == "token_file" ? "a file path" : "an environment variable's name")
                }
                if key == "token_file" {
                    let path = XDGDirectories.expandingHome(text, environment: environment)
                    try checkTokenFile(path, at: "\(file):\(Settings.line(value)): \(path)")
                    token = .file(path)
                } else {
                    token = .environment(text)
                }
            case "since":
                guard let text = value.string, let date = localDate(text) else {
                    throw Settings.bad(file, value, path, "a date such as 2026-11-01")
                }
                since = zone.startOfDay(date)
            case "projects":
                guard let map = value.mapping else {
                    throw Settings.bad(file, value, path, "a mapping of local project names to the service's")
                }
                for (local, remote) in map {
                    guard let l = local.string, let r = remote.string, remote.scalar != nil, !r.isEmpty else {
                        throw Settings.bad(file, remote, path, "a mapping of local project names to the service's")
                    }
                    setting.projects[l] = r
                }
            case "create_missing":
                guard let flag = value.flag else { throw Settings.bad(file, value, path, "true or false") }
                setting.createMissing = flag
            case "requests_per_hour":
                guard value.scalar != nil, let text = value.string, let n = Int(text), n >= 1, n <= 1_000_000_000 else {
                    throw Settings.bad(file, value, path, "a whole number of requests an hour, 1 or more (Toggl Track Free: 30, "
                                       + "Starter: 240, Premium: 600)")
                }
                setting.requestsPerHour = n
            case "url":
                guard let text = value.string, let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""),
                      url.host != nil
                else {
                    throw Settings.bad(file, value, path, "an http or https URL")
                }
                setting.url = text.hasSuffix("/") ? String(text.dropLast()) : text
            default:
                throw Refusal("\(file):\(Settings.line(keyNode)): unknown key \(path); known keys are "
                                            + keys.joined(separator: ", "))
            }
        }
        func missing(_ what: String) -> Refusal {
            Refusal("\(file):\(at): sync.\(name) has no \(what)")
        }
        guard let service else { throw missing("service (clockify or toggl)") }
        guard let workspace else { throw missing("workspace (its name or id)") }
        guard let token else { throw missing("token_file or token_env") }
        guard let since else { throw missing("since (a date; entries that start before it are never pushed)") }
        setting.service = service
        setting.workspace = workspace
        setting.token = token
        setting.since = since
        return setting
    }

    /// A token file must exist, be a file, and be readable by its owner
    /// alone: a token others can read is a token others can use.
    static func checkTokenFile(_ path: String, at place: String) throws {
        try checkSecretFile(path, at: place, kind: "token", fill: "put the service's API token in it")
    }

    /// A file holding a secret (`kind`: token, password) must exist, be a
    /// file, and be readable by its owner alone; `fill` says what to put
    /// in a missing one.
    static func checkSecretFile(_ path: String, at place: String, kind: String, fill: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw Refusal("\(place): the \(kind) file does not exist; \(fill) and run chmod 600 on it")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw Refusal("\(place): the \(kind) file is not a regular file")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw Refusal("\(place): the \(kind) file can be read by other users; run chmod 600 \(path)")
        }
    }

    /// `YYYY-MM-DD`, a real date.
    static func localDate(_ text: String) -> LocalDate? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        let date = LocalDate(year: y, month: m, day: d)
        return date.isValid ? date : nil
    }
}
