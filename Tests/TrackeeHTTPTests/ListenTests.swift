import Foundation
import Testing
import TrackeeTestSupport

/// Listening beyond the loopback: refused unless the settings say
/// `insecure_plaintext: true`, and then the daemon warns at every start.
/// (TLS is a reverse proxy's: ReverseProxyTests.)
@Suite struct ListenTests {
    @Test func anyAddressWithoutInsecurePlaintextIsRefusedAtStart() async throws {
        let t = try Sandbox()
        t.now = ""
        try t.write("create_projects: always\nhttp:\n  listen: 0.0.0.0:0\n", to: "config/trackee/config.yaml")
        let daemon = try t.launch(["run"])
        defer { daemon.stop() }
        let r = try await daemon.finish()
        #expect(r.status == 78, "\(r)")
        #expect(r.stderr == failure(
            "\(t.path("config/trackee/config.yaml")):3: http.listen is 0.0.0.0, beyond loopback, in plain HTTP; "
                + "listen on loopback behind a TLS reverse proxy (recipes/http), or set insecure_plaintext: true"), "\(r)")
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
}
