import TrackeeAPI
import TrackeeCore
import Yams

/// The settings' `http:` section, read into ``HTTPSettings``. Every value
/// is checked here, so `trackee run` refuses a bad one at start with the
/// file and line, like any other setting.
enum HTTPSetting {
    static let keys = [
        "listen", "insecure_plaintext", "max_connections", "rate_limit", "heartbeat", "access_log", "trusted_proxies",
        "session_days",
    ]

    static func parse(_ node: Node, file: String) throws -> HTTPSettings {
        var http = HTTPSettings()
        guard let mapping = node.mapping else {
            // `http:` alone (null) or `http: {}` turns the server on with the defaults.
            if node.null != nil { return http }
            throw Settings.bad(file, node, "http", "a mapping (\(keys.joined(separator: ", ")))")
        }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            switch key {
            case "listen":
                guard let text = value.string, let (host, port) = HTTPSettings.listenAddress(text) else {
                    throw Settings.bad(file, value, "http.listen", "HOST:PORT, such as 127.0.0.1:7777 or [::1]:7777")
                }
                (http.host, http.port) = (host, port)
            case "insecure_plaintext":
                guard let flag = value.flag else { throw Settings.bad(file, value, "http.insecure_plaintext", "true or false") }
                http.insecurePlaintext = flag
            case "access_log":
                guard let flag = value.flag else { throw Settings.bad(file, value, "http.access_log", "true or false") }
                http.accessLog = flag
            case "trusted_proxies":
                let expected = "a list of IP addresses, such as [127.0.0.1, \"::1\"]"
                guard let list = value.sequence else { throw Settings.bad(file, value, "http.trusted_proxies", expected) }
                http.trustedProxies = []
                for item in list {
                    guard let text = item.string, let address = ClientAddress(text) else {
                        throw Settings.bad(file, item, "http.trusted_proxies", expected)
                    }
                    http.trustedProxies.append(address.text)
                }
            case "tls":
                throw Refusal(
                    "\(file):\(Settings.line(keyNode)): http.tls: trackee serves plain HTTP only; "
                        + "for TLS, listen on loopback behind a reverse proxy (recipes/http/nginx, recipes/http/caddy)")
            case "max_connections", "rate_limit", "heartbeat", "session_days":
                let range = switch key {
                case "heartbeat": 1...3600
                case "session_days": 1...3650
                case "max_connections": 1...10_000
                default: 1...1_000_000
                }
                guard let text = value.string, let number = Int(text), range.contains(number) else {
                    throw Settings.bad(file, value, "http.\(key)", "a whole number from \(range.lowerBound) to \(range.upperBound)")
                }
                switch key {
                case "max_connections": http.maxConnections = number
                case "rate_limit": http.rateLimit = number
                case "session_days": http.sessionDays = number
                default: http.heartbeat = number
                }
            default:
                throw Refusal(
                    "\(file):\(Settings.line(keyNode)): unknown key http.\(key); known keys are \(keys.joined(separator: ", "))")
            }
        }
        if !http.isLoopback && !http.insecurePlaintext {
            throw Refusal(
                "\(file):\(Settings.line(node)): http.listen is \(http.host), beyond loopback, in plain HTTP; "
                    + "listen on loopback behind a TLS reverse proxy (recipes/http), or set insecure_plaintext: true")
        }
        return http
    }
}
