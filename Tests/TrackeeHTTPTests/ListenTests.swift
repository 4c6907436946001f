import Foundation
import Testing
import TrackeeTestSupport

/// Listening beyond the loopback: refused without TLS unless the settings
/// say `insecure_plaintext: true` (and the daemon warns at every start);
/// with TLS, HTTPS works and plain HTTP does not.
@Suite struct ListenTests {
    @Test func anyAddressWithoutTLSIsRefusedAtStart() async throws {
        let t = try Sandbox()
        t.now = ""
        try t.write("create_projects: always\nhttp:\n  listen: 0.0.0.0:0\n", to: "config/trackee/config.yaml")
        let daemon = try t.launch(["run"])
        defer { daemon.stop() }
        let r = try await daemon.finish()
        #expect(r.status == 78, "\(r)")
        #expect(r.stderr == failure(
            "\(t.path("config/trackee/config.yaml")):3: http.listen is 0.0.0.0, beyond loopback, without tls; "
                + "set tls (certificate and key) or insecure_plaintext: true"), "\(r)")
        #expect(r.stdout == "")
        #expect(!FileManager.default.fileExists(atPath: t.storePath))
    }

    @Test func anyAddressWithInsecurePlaintextStartsWithTheWarning() async throws {
        let d = try await ServingDaemon.start(http: ["listen: 0.0.0.0:0", "insecure_plaintext: true"])
        defer { d.stop() }
        let hub = try d.token("hub", scopes: "read")
        #expect(d.stderrSoFar.contains(
            "trackee run: warning: http: listening on 0.0.0.0:\(d.port) without TLS (insecure_plaintext: true); tokens cross the network in clear\n"),
            "\(d.stderrSoFar)")
        #expect(try await d.curl("GET", "/v1/status", token: hub).status == 200)
    }

    @Test func withTLSHTTPSWorksAndPlainHTTPDoesNot() async throws {
        let t = try Sandbox()
        t.now = ""
        let made = try await ChildProcess.run(
            "/usr/bin/openssl",
            ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
             "-keyout", t.path("key.pem"), "-out", t.path("cert.pem")],
            in: t)
        try #require(made.status == 0, "openssl: \(made.stderr)")
        try t.write("""
            create_projects: always
            http:
              listen: 0.0.0.0:0
              tls:
                certificate: \(t.path("cert.pem"))
                key: \(t.path("key.pem"))

            """, to: "config/trackee/config.yaml")
        let hub = try ServingDaemon.token(t, "hub", scopes: "read")
        let d = try await ServingDaemon(t)
        defer { d.stop() }
        #expect(d.scheme == "https", "\(d.stderrSoFar)")
        #expect(!d.stderrSoFar.contains("warning"), "\(d.stderrSoFar)")

        let secure = try await d.curl("GET", "/v1/status", token: hub, options: ["--cacert", t.path("cert.pem")])
        #expect(secure.status == 200, "\(secure)")
        #expect(try secure.json()["today_seconds"] == 0)

        let plain = try await Curl.run(
            ["-H", "Authorization: Bearer \(hub)", "http://127.0.0.1:\(d.port)/v1/status"], in: t)
        #expect(plain.status == 0, "\(plain)")
        #expect(plain.exitStatus != 0, "\(plain)")
    }
}
