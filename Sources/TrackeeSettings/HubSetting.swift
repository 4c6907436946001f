import Foundation
import TrackeeCore
import Yams

/// The settings' `hub:` section, read into ``HubSettings``. Every value is
/// checked here, so every command refuses a bad one with the file and
/// line; the hub itself is reached only by the commands that need it.
enum HubSetting {
    static let keys = ["url", "user", "password_file", "password_env", "sslmode", "device", "sync_device"]

    /// `line` is where `hub:` is written.
    static func parse(_ node: Node, file: String, line at: Int, environment: [String: String]) throws -> HubSettings {
        guard let fields = node.mapping else {
            throw Settings.bad(file, node, "hub", "a mapping with " + keys.joined(separator: ", "))
        }
        var hub = HubSettings(url: "", device: "", origin: "\(file):\(at)")
        var url: String?
        for (keyNode, value) in fields {
            let key = keyNode.string ?? ""
            let path = "hub.\(key)"
            switch key {
            case "url":
                guard value.scalar != nil, let text = value.string, HubSettings.isConnectionURI(text) else {
                    throw Settings.bad(file, value, path, "a PostgreSQL URL such as postgresql://hub.example.org/trackee")
                }
                url = text
            case "user":
                guard value.scalar != nil, let text = value.string, !text.trimmingWhitespace().isEmpty else {
                    throw Settings.bad(file, value, path, "a PostgreSQL role's name")
                }
                hub.user = text
            case "password_file", "password_env":
                guard hub.password == .none else {
                    throw Refusal(
                        "\(file):\(Settings.line(keyNode)): \(path): give password_file or password_env, not both")
                }
                guard value.scalar != nil, let text = value.string, !text.isEmpty else {
                    throw Settings.bad(file, value, path, key == "password_file" ? "a file path" : "an environment variable's name")
                }
                if key == "password_file" {
                    let expanded = XDGDirectories.expandingHome(text, environment: environment)
                    try PushSetting.checkSecretFile(
                        expanded, at: "\(file):\(Settings.line(value)): \(expanded)", kind: "password",
                        fill: "put the hub's password in it")
                    hub.password = .file(expanded)
                } else {
                    hub.password = .environment(text)
                }
            case "sslmode":
                guard let mode = value.string.flatMap(HubSettings.SSLMode.init(rawValue:)) else {
                    throw Settings.bad(file, value, path, Settings.choices(HubSettings.SSLMode.allCases.map(\.rawValue)))
                }
                hub.sslmode = mode
            case "device":
                guard value.scalar != nil, let text = value.string, HubSettings.isValidDevice(text) else {
                    throw Settings.bad(file, value, path, "a name of letters, digits, '.', '-' and '_', at most 64")
                }
                hub.device = text
            case "sync_device":
                guard value.scalar != nil, let text = value.string, HubSettings.isValidDevice(text) else {
                    throw Settings.bad(file, value, path, "a device's name (hub.device on that device)")
                }
                hub.syncDevice = text
            default:
                throw Refusal(
                    "\(file):\(Settings.line(keyNode)): unknown key \(path); known keys are \(keys.joined(separator: ", "))")
            }
        }
        guard let url else {
            throw Refusal("\(file):\(at): hub has no url (a PostgreSQL URL such as postgresql://hub.example.org/trackee)")
        }
        hub.url = url
        if hub.device.isEmpty {
            let host = hostName().split(separator: ".").first.map(String.init) ?? ""
            guard HubSettings.isValidDevice(host) else {
                throw Refusal(
                    "\(file):\(at): hub has no device, and the host name \"\(host)\" cannot be one; give hub.device")
            }
            hub.device = host
        }
        return hub
    }

    /// gethostname(2): no resolver is asked, as Foundation's host name
    /// may, since every command reads the settings.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
