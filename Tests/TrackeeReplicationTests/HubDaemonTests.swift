import Foundation
import Testing
import TrackeeTestSupport

/// `trackee run` replicates on its own: a change made on one device shows
/// on the other's running daemon within seconds, and a hub that goes away
/// and comes back is caught up with.
@Suite(.serialized) struct HubDaemonTests {
    @Test func twoRunningDaemonsShareAChangeAndSurviveAHubRestart() async throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let d = try ReplicationPassTests.devices(pg, ["laptop", "desktop"])
        let daemons = try d.map { try $0.launch(["run", "--verbose"], environment: ["TRACKEE_NOW": nil]) }
        defer { daemons.forEach { $0.stop() } }
        func joined(_ t: Sandbox) throws -> Bool {
            try t.run(["hub", "status", "--json"], environment: ["TRACKEE_NOW": nil]).stdout.contains(#""number":"#)
                && !t.run(["hub", "status", "--json"], environment: ["TRACKEE_NOW": nil]).stdout.contains(#""number":null"#)
        }
        #expect(try await eventually(within: 30) { try joined(d[0]) && joined(d[1]) })
        func running(_ t: Sandbox) throws -> String {
            try t.run(["status"], environment: ["TRACKEE_NOW": nil]).lines.first ?? ""
        }
        // The two joined at once, so either may hold number 1: the entry's
        // id ends in the laptop's number, whichever it got.
        let status = try d[0].run(["hub", "status", "--json"], environment: ["TRACKEE_NOW": nil]).stdout
        let number = try #require(status.firstMatch(of: /"number":(\d+)/).flatMap { Int($0.1) })
        #expect([1, 2].contains(number), "\(status)")
        #expect(try d[0].run(["start", "-p", "Docs"], environment: ["TRACKEE_NOW": nil]).status == 0)
        let seen = try await eventually(within: 10) { try running(d[1]) == "running Docs #\(1000 + number)" }
        let shown = seen ? "" : "\(try d[1].run(["status"], environment: ["TRACKEE_NOW": nil])) \(daemons.map(\.stderrSoFar))"
        #expect(seen, "\(shown)")
        // The hub goes down and comes back: the daemons reconnect and go on.
        try pg.restart()
        #expect(try d[1].run(["stop"], environment: ["TRACKEE_NOW": nil]).status == 0)
        #expect(try await eventually(within: 30) { try running(d[0]) == "no timer running" })
        for daemon in daemons { daemon.signal(SIGTERM) }
        for daemon in daemons {
            let r = try await daemon.finish()
            #expect(r.status == 0, "\(r)")
            #expect(r.stderr.hasSuffix("trackee run: info: stopped\n"), "\(r)")
            // The verbose log names each service, and shows none of what
            // it holds: not the hub's password.
            #expect(r.stderr.contains("sl-service=HubReplication(device: "), "\(r)")
            #expect(!r.stderr.contains("laptop-secret"), "\(r)")
        }
    }
}
