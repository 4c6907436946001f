import Foundation
import Testing
import TrackeeTestSupport

/// The settings' `http:` section: each mistake is one positioned sentence
/// and exit 78, from every command that reads the settings, before the
/// store is touched; a good one leaves one-shot commands as they were.
@Suite struct HTTPSettingsTests {
    static func sandbox(_ settings: String) throws -> Sandbox {
        let t = try Sandbox(now: "2026-11-20 12:00")
        try FileManager.default.createDirectory(atPath: t.path("config/trackee"), withIntermediateDirectories: true)
        try t.write(settings, to: "config/trackee/config.yaml")
        return t
    }

    @Test(arguments: [
        ("http:\n  listen: 127.0.0.1:99999\n",
         "config.yaml:2: http.listen is \"127.0.0.1:99999\"; expected HOST:PORT, such as 127.0.0.1:7777 or [::1]:7777"),
        ("http:\n  listen: 0.0.0.0:7777\n",
         "config.yaml:2: http.listen is 0.0.0.0, beyond loopback, in plain HTTP; "
            + "listen on loopback behind a TLS reverse proxy (recipes/http), or set insecure_plaintext: true"),
        ("http:\n  listen: 127.0.0.1:7777\n  port: 1\n",
         "config.yaml:3: unknown key http.port; known keys are listen, insecure_plaintext, max_connections, rate_limit, "
            + "heartbeat, access_log, trusted_proxies, session_days"),
        ("http:\n  max_connections: 0\n",
         "config.yaml:2: http.max_connections is \"0\"; expected a whole number from 1 to 10000"),
        ("http:\n  rate_limit: lots\n",
         "config.yaml:2: http.rate_limit is \"lots\"; expected a whole number from 1 to 1000000"),
        ("http:\n  insecure_plaintext: maybe\n",
         "config.yaml:2: http.insecure_plaintext is \"maybe\"; expected true or false"),
        ("http:\n  listen: 0.0.0.0:7777\n  tls:\n    certificate: /c.pem\n    key: /k.pem\n",
         "config.yaml:3: http.tls: trackee serves plain HTTP only; "
            + "for TLS, listen on loopback behind a reverse proxy (recipes/http/nginx, recipes/http/caddy)"),
        ("http: yes\n",
         "config.yaml:1: http is \"yes\"; expected a mapping (listen, insecure_plaintext, max_connections, rate_limit, "
            + "heartbeat, access_log, trusted_proxies, session_days)"),
        ("http:\n  access_log: 1\n",
         "config.yaml:2: http.access_log is \"1\"; expected true or false"),
        ("http:\n  trusted_proxies: 127.0.0.1\n",
         "config.yaml:2: http.trusted_proxies is \"127.0.0.1\"; expected a list of IP addresses, such as [127.0.0.1, \"::1\"]"),
        ("http:\n  trusted_proxies:\n    - 127.0.0.1\n    - localhost\n",
         "config.yaml:4: http.trusted_proxies is \"localhost\"; expected a list of IP addresses, such as [127.0.0.1, \"::1\"]"),
        ("http:\n  session_days: -1\n",
         "config.yaml:2: http.session_days is \"-1\"; expected a whole number from 1 to 3650"),
        ("http:\n  trusted_proxies: [127.0.0.1, 10.0.0.0/8]\n",
         "config.yaml:2: http.trusted_proxies is \"10.0.0.0/8\"; expected a list of IP addresses, such as [127.0.0.1, \"::1\"]"),
    ])
    func badHTTPSettingsAreRefusedWithTheirLine(settings: String, message: String) throws {
        let t = try Self.sandbox(settings)
        let r = try t.run("status")
        #expect(r.status == 78)
        #expect(r.stderr == "trackee: \(t.path("config/trackee"))/\(message)\n")
        #expect(!FileManager.default.fileExists(atPath: t.storePath))
    }

    @Test func aGoodSectionBeyondLoopbackWithPlaintextAllowedIsTakenByOneShotCommands() throws {
        let t = try Self.sandbox("""
            http:
              listen: "[::]:7777"
              insecure_plaintext: true
              rate_limit: 60
              access_log: true
              trusted_proxies: [127.0.0.1, "::1", "::ffff:10.1.2.3"]
              session_days: 7

            """)
        let r = try t.run("status")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == "no timer running\ntoday   0:00\nweek    0:00\n")
    }
}
