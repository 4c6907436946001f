import Foundation
import Testing
import TrackeeTestSupport

/// Two devices replicating through the hub, both with the same Clockify
/// target: the service holds each entry once, pushed by the device that
/// made it, or by the hub's sync_device alone.
@Suite(.serialized) struct HubSyncTargetTests {
    static let token = "hub-sync-secret-4c1e"

    static func devices(_ pg: PostgresCluster, _ server: FakeTimeServiceProcess, syncDevice: String?) throws -> [Sandbox] {
        let first = try HubInitTests.sandbox(pg)
        #expect(try first.run("hub", "init").status == 0)
        return try ["laptop", "desktop"].map { name in
            let extra = (syncDevice.map { "  sync_device: \($0)\n" } ?? "") + """
                sync:
                  work:
                    service: clockify
                    workspace: My Company
                    token_file: \(FileManager.default.temporaryDirectory.path)/\(name)-\(ProcessInfo.processInfo.processIdentifier).token
                    since: 2026-11-01
                    create_missing: true
                    url: \(server.baseURL)
                """
            let t = try HubInitTests.settings(
                url: pg.url(database: "trackee"), password: "laptop-secret", device: name, extra: extra)
            return t
        }
    }

    static func entries(_ server: FakeTimeServiceProcess) throws -> [String] {
        (try server.state()["time_entries"] as? [[String: Any]] ?? []).map {
            let interval = $0["timeInterval"] as? [String: Any] ?? [:]
            return "\(interval["start"] as? String ?? "") \($0["description"] as? String ?? "")"
        }.sorted()
    }

    func run(syncDevice: String?) throws -> (laptop: TrackeeRun, desktop: TrackeeRun, remote: [String])? {
        guard let pg = try HubInitTests.cluster() else { return nil }
        let server = try FakeTimeServiceProcess(service: "clockify", token: Self.token, workspaces: ["My Company"])
        defer { server.stop() }
        let d = try Self.devices(pg, server, syncDevice: syncDevice)
        let tokens = ["laptop", "desktop"].map {
            "\(FileManager.default.temporaryDirectory.path)/\($0)-\(ProcessInfo.processInfo.processIdentifier).token"
        }
        defer { for path in tokens { try? FileManager.default.removeItem(atPath: path) } }
        for path in tokens {
            try (Self.token + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o600)
        }
        for t in d { _ = try ReplicationPassTests.sync(t) }
        #expect(try d[0].run("add", "-p", "Docs", "--from", "09:00", "--to", "10:00", "-d", "laptop one").status == 0)
        #expect(try d[0].run("add", "-p", "Docs", "--from", "10:00", "--to", "11:00", "-d", "laptop two").status == 0)
        #expect(try d[1].run("add", "-p", "Docs", "--from", "11:00", "--to", "11:30", "-d", "desktop one").status == 0)
        for t in d + d { _ = try ReplicationPassTests.sync(t) }
        let laptop = try d[0].run("sync")
        let desktop = try d[1].run("sync")
        return (laptop, desktop, try Self.entries(server))
    }

    static let all = [
        "2026-11-20T08:00:00Z laptop one", "2026-11-20T09:00:00Z laptop two", "2026-11-20T10:00:00Z desktop one",
    ]

    @Test func eachDevicePushesTheEntriesItMadeAndTheServiceHoldsEachOnce() throws {
        guard let r = try run(syncDevice: nil) else { return }
        #expect(r.laptop.status == 0, "\(r.laptop)")
        #expect(r.desktop.status == 0, "\(r.desktop)")
        #expect(r.remote == Self.all)
        #expect(r.laptop.stdout == "work: pushed 2, adopted 0, failed 0, conflicts 0, still queued 0\n")
        #expect(r.desktop.stdout == "work: pushed 1, adopted 0, failed 0, conflicts 0, still queued 0\n")
    }

    @Test func withASyncDeviceOnlyItPushesEveryEntry() throws {
        guard let r = try run(syncDevice: "desktop") else { return }
        #expect(r.laptop.status == 0, "\(r.laptop)")
        #expect(r.desktop.status == 0, "\(r.desktop)")
        #expect(r.remote == Self.all)
        #expect(r.desktop.stdout == "work: pushed 3, adopted 0, failed 0, conflicts 0, still queued 0\n")
        #expect(r.laptop.stdout == "work: pushed 0, adopted 0, failed 0, conflicts 0, still queued 0\n")
    }
}
