import Foundation
import Testing
import TrackeeTestSupport

/// recipes/http/nginx/trackee.conf run by Debian's nginx in front of a real
/// `trackee run`, with TLS from a certificate made for the test: a start
/// through the proxy, the event stream through it, the web page's sign-in
/// (a Secure cookie, an https:// Origin), a request that claims
/// a loopback address without a token, and a client whose failed
/// authentications through the proxy are limited as its own, named by
/// the proxy's X-Forwarded-For (`trusted_proxies: [127.0.0.1]`, as the
/// recipe says).
@Suite struct ReverseProxyTests {
    /// The recipe with the test's ports and certificate: each replaced
    /// line must be in the recipe exactly once, so a change to the recipe
    /// that this test would no longer exercise fails here.
    static func rendered(certificate: String, key: String, port: Int, trackee: String) throws -> String {
        var text = try HTTPRecipeTests.text("nginx/trackee.conf")
        let replacements = [
            ("    listen 443 ssl;\n", "    listen 127.0.0.1:\(port) ssl;\n"),
            ("    listen [::]:443 ssl;\n", ""),
            ("/etc/letsencrypt/live/trackee.example.org/fullchain.pem", certificate),
            ("/etc/letsencrypt/live/trackee.example.org/privkey.pem", key),
            ("proxy_pass http://127.0.0.1:7777;", "proxy_pass \(trackee);"),
        ]
        for (old, new) in replacements {
            let count = text.components(separatedBy: old).count - 1
            guard count == 1 else { throw ServingSandbox.Failure("nginx/trackee.conf has \(count) of \(old)") }
            text = text.replacingOccurrences(of: old, with: new)
        }
        return text
    }

    /// A free loopback port, for nginx, which cannot report one it chose.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw ServingSandbox.Failure("no free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func nginxServesTheAPIOverTLSWithTheEventStream() async throws {
        let nginx = "/usr/sbin/nginx"
        guard FileManager.default.isExecutableFile(atPath: nginx) else {
            Issue.record("nginx is not installed at \(nginx) (Debian's nginx; make test installs it)")
            return
        }
        let s = try await ServingSandbox(http: ["trusted_proxies: [127.0.0.1]"])
        let root = s.sandbox.root
        let folder = s.sandbox.path("nginx")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let certificate = folder + "/cert.pem", key = folder + "/key.pem"
        let made = try runProgram(
            "/usr/bin/openssl",
            ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
             "-subj", "/CN=trackee.test", "-addext", "subjectAltName=DNS:trackee.test",
             "-keyout", key, "-out", certificate],
            environment: ["PATH": "/usr/bin:/bin"], in: root)
        #expect(made.status == 0, "\(made.stderr)")
        let port = try Self.freePort()
        try s.sandbox.write(Self.rendered(certificate: certificate, key: key, port: port, trackee: s.url),
                            to: "nginx/trackee.conf")
        // The recipe is a server block for sites-enabled; this is the rest
        // of an nginx.conf around it, everything inside the sandbox.
        try s.sandbox.write("""
            daemon off;
            master_process off;
            pid \(folder)/nginx.pid;
            error_log \(folder)/error.log info;
            events { worker_connections 64; }
            http {
                access_log \(folder)/access.log;
                client_body_temp_path \(folder)/body;
                proxy_temp_path \(folder)/proxy;
                fastcgi_temp_path \(folder)/fastcgi;
                uwsgi_temp_path \(folder)/uwsgi;
                scgi_temp_path \(folder)/scgi;
                include \(folder)/trackee.conf;
            }

            """, to: "nginx/nginx.conf")
        let arguments = ["-p", folder + "/", "-e", folder + "/error.log", "-c", folder + "/nginx.conf"]
        let syntax = try runProgram(nginx, arguments + ["-t"], environment: ["PATH": "/usr/bin:/bin"], in: root)
        #expect(syntax.status == 0, "nginx -t: \(syntax.stderr)")
        let proxy = Process()
        proxy.executableURL = URL(fileURLWithPath: nginx)
        proxy.arguments = arguments
        proxy.standardInput = FileHandle.nullDevice
        proxy.standardOutput = FileHandle.nullDevice
        proxy.standardError = FileHandle.nullDevice
        try proxy.run()
        defer {
            if proxy.isRunning { kill(proxy.processIdentifier, SIGKILL) }
            proxy.waitUntilExit()
        }
        let base = "https://trackee.test:\(port)"
        let tls = ["--cacert", certificate, "--resolve", "trackee.test:\(port):127.0.0.1"]
        let auth = ["--header", "Authorization: Bearer \(s.token)"]
        #expect(await eventually(within: 30) {
            (try? curl(tls, base + "/v1/status", in: root))?.status == 401
        }, "nginx did not answer: \((try? String(contentsOfFile: folder + "/error.log", encoding: .utf8)) ?? "")")

        // A start through the proxy.
        let start = try curl(tls + auth + ["--header", "Content-Type: application/json",
                                           "--data", #"{"project": "Docs", "idempotency_key": "through-nginx"}"#],
                             base + "/v1/start", in: root)
        #expect(start.status == 200, "\(start)")
        #expect(try start.json()["outcome"] == "started")
        #expect(try start.json()["entry"]["project"] == "Docs")
        #expect(try start.json()["entry"]["source"] == "http:recipes")

        // No address earns a request anything: without a token it is 401,
        // whatever X-Forwarded-For says; nginx replaces the header, so the
        // log names the client (127.0.0.3), not what it claimed.
        let claimed = try curl(tls + ["--interface", "127.0.0.3",
                                      "--header", "X-Forwarded-For: 127.0.0.1", "--header", "X-Real-IP: 127.0.0.1",
                                      "--request", "POST", "--data", "{}"],
                               base + "/v1/stop", in: root)
        #expect(claimed.status == 401, "\(claimed)")

        // A client guessing tokens through the proxy (from 127.0.0.2, with a
        // forged X-Forwarded-For) is limited after ten failures, with its
        // right token too; another client through the same proxy is not.
        let guessing = tls + ["--interface", "127.0.0.2", "--header", "X-Forwarded-For: 198.51.100.7"]
        for attempt in 1...10 {
            let answer = try curl(guessing + ["--header", "Authorization: Bearer trk_guess\(attempt)"], base + "/v1/status", in: root)
            #expect(answer.status == 401, "\(attempt): \(answer)")
        }
        let limited = try curl(guessing + auth, base + "/v1/status", in: root)
        #expect(limited.status == 429, "\(limited)")
        #expect(try limited.json()["type"] == "urn:trackee:problem:rate-limited", "\(limited)")
        #expect(try curl(tls + auth, base + "/v1/status", in: root).status == 200)
        // The web page through the proxy: its sign-in sets a Secure cookie,
        // since nginx says the browser came over TLS (X-Forwarded-Proto),
        // and a form's Origin must be the https:// one the browser names.
        let page = try curl(tls, base + "/", in: root)
        #expect(page.status == 200)
        #expect(page.body.contains("<form id=\"sign-in\" class=\"sign-in\" method=\"post\" action=\"/sign-in\">"))
        let signIn = tls + ["--include", "--data-urlencode", "token=\(s.token)"]
        let signedIn = try curl(signIn + ["--header", "Origin: \(base)"], base + "/sign-in", in: root)
        #expect(signedIn.status == 303, "\(signedIn)")
        let cookie = signedIn.body.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("set-cookie: ") }
        #expect(cookie?.hasPrefix("Set-Cookie: trackee_session=trs_") == true, "\(signedIn)")
        #expect(cookie?.hasSuffix("; Max-Age=2592000; Path=/; HttpOnly; SameSite=Strict; Secure") == true, "\(signedIn)")
        let plain = try curl(signIn + ["--header", "Origin: http://trackee.test:\(port)"], base + "/sign-in", in: root)
        #expect(plain.status == 403, "\(plain)")
        #expect(!plain.body.lowercased().contains("set-cookie"))

        let failed = "trackee run: warning: http: authentication failed from "
        #expect(s.daemon.stderrSoFar.split(separator: "\n").filter { $0.contains(failed) } == [
            "\(failed)127.0.0.1: no credentials",
            "\(failed)127.0.0.3: no credentials",
        ] + Array(repeating: "\(failed)127.0.0.2: a Bearer token that is not a token of this store", count: 10),
                "\(s.daemon.stderrSoFar)")

        // The event stream through the proxy delivers a CLI start as it
        // happens, not when a buffer fills.
        let streamed = folder + "/stream.out"
        _ = FileManager.default.createFile(atPath: streamed, contents: nil)
        let sink = try FileHandle(forWritingTo: URL(fileURLWithPath: streamed))
        let stream = Process()
        stream.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        stream.arguments = ["--silent", "--no-buffer"] + tls + auth + [base + "/v1/events/stream"]
        stream.standardOutput = sink
        stream.standardError = FileHandle.nullDevice
        stream.standardInput = FileHandle.nullDevice
        try stream.run()
        try sink.close()
        defer {
            if stream.isRunning { kill(stream.processIdentifier, SIGKILL) }
            stream.waitUntilExit()
        }
        func received() -> String { (try? String(contentsOfFile: streamed, encoding: .utf8)) ?? "" }
        #expect(await eventually(within: 30) { received().hasPrefix(": trackee ") }, "\(received())")
        let switched = try s.trackee("start", "-p", "Mail")
        #expect(switched.status == 0, "\(switched)")
        #expect(await eventually(within: 10) { received().contains("event: switched\n") }, "\(received())")
        let event = try #require(received().components(separatedBy: "\n\n").first { $0.contains("event: switched\n") })
        let data = try #require(event.components(separatedBy: "\n").first { $0.hasPrefix("data: ") })
        let report = try JSONDecoder().decode(JSONValue.self, from: Data(data.dropFirst(6).utf8))
        #expect(report["outcome"] == "switched")
        #expect(report["source"] == "cli")
        #expect(report["entry"]["project"] == "Mail")
        #expect(report["previous"]["project"] == "Docs")

        // trackee run ends the stream on its way out; nginx passes the end on.
        let ended = try await s.stop()
        #expect(ended.status == 0, "\(ended)")
        #expect(await eventually(within: 10) { !stream.isRunning })
        #expect(received().hasSuffix("event: end\ndata: {}\n\n"), "\(received())")
    }
}
