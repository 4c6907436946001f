import Foundation
import Testing
import TrackeeCore
@testable import TrackeeReplication
import TrackeeTestSupport

/// `trackee hub init` against a real PostgreSQL 15: the schema made once
/// and left alone after; a newer hub, a wrong password and an unreachable
/// hub each refused in one sentence, with the local store untouched.
@Suite(.serialized) struct HubInitTests {
    /// A sandbox whose settings name the cluster's database as the hub,
    /// with a role of its own whose password is in a file.
    static func sandbox(_ pg: PostgresCluster, password: String = "laptop-secret") throws -> Sandbox {
        try pg.sql("CREATE ROLE alice LOGIN PASSWORD 'laptop-secret'")
        try pg.sql("CREATE DATABASE trackee OWNER alice")
        return try settings(url: pg.url(database: "trackee"), password: password)
    }

    static func settings(url: String, password: String, device: String = "laptop", extra: String = "") throws -> Sandbox {
        let t = try Sandbox()
        try t.write(password + "\n", to: "config/trackee/hub.password")
        chmod(t.path("config/trackee/hub.password"), 0o600)
        try t.write("""
            create_projects: always
            hub:
              url: \(url)
              user: alice
              password_file: \(t.path("config/trackee/hub.password"))
              sslmode: disable
              device: \(device)
            \(extra)
            """, to: "config/trackee/config.yaml")
        return t
    }

    @Test func initMakesTheSchemaOnceAndAgainChangesNothing() throws {
        guard let pg = try Self.cluster() else { return }
        let t = try Self.sandbox(pg)
        let first = try t.run("hub", "init")
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout == "hub schema: applied 2026-11-26-devices-and-changes, 2026-11-27-device-numbers, 2026-11-28-sharing\n")
        #expect(first.stderr == "")
        let again = try t.run("hub", "init", "--json")
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout == #"{"applied":[],"current":"2026-11-28-sharing"}"# + "\n")
        #expect(again.stderr == "")
        #expect(try pg.sql("SELECT id FROM trackee_migration ORDER BY id", database: "trackee")
                == "2026-11-26-devices-and-changes\n2026-11-27-device-numbers\n2026-11-28-sharing\n")
        #expect(try pg.sql("SELECT tableowner FROM pg_tables WHERE tablename IN ('change', 'device') ORDER BY tablename",
                           database: "trackee") == "alice\nalice\n")
        // The table keeps a device's sequence numbers unique: a re-push adds nothing.
        try pg.sql("INSERT INTO device (name) VALUES ('laptop')", database: "trackee")
        try pg.sql("INSERT INTO change (device, sequence, clock, kind, body) VALUES ('laptop', 1, 'c', 'k', '{}')",
                   database: "trackee")
        #expect(throws: PostgresCluster.Unavailable.self) {
            try pg.sql("INSERT INTO change (device, sequence, clock, kind, body) VALUES ('laptop', 1, 'c', 'k', '{}')",
                       database: "trackee")
        }
    }

    @Test func aHubANewerTrackeeSetUpIsRefusedAndLeftAsItIs() throws {
        guard let pg = try Self.cluster() else { return }
        let t = try Self.sandbox(pg)
        #expect(try t.run("hub", "init").status == 0)
        try pg.sql("INSERT INTO trackee_migration (id) VALUES ('2099-01-01-from-the-future')", database: "trackee")
        let r = try t.run("hub", "init")
        #expect(r.status == 75, "\(r)")
        #expect(r.stdout == "")
        #expect(r.stderr == failure(
            "\(t.path("config/trackee/config.yaml")):2: hub: the hub's schema has migration 2099-01-01-from-the-future, "
                + "which this trackee does not know: a newer trackee set it up; upgrade trackee on this device"))
        #expect(try pg.sql("SELECT count(*) FROM trackee_migration", database: "trackee") == "4\n")
    }

    @Test func aWrongPasswordIsOneSentenceAndLocalCommandsKeepWorking() throws {
        guard let pg = try Self.cluster() else { return }
        let t = try Self.sandbox(pg, password: "not-the-password")
        #expect(try t.run("start", "-p", "Docs").status == 0)
        let r = try t.run("hub", "init")
        #expect(r.status == 75, "\(r)")
        #expect(r.stderr == failure(
            "\(t.path("config/trackee/config.yaml")):2: hub: cannot reach the hub at \(pg.url(database: "trackee")): "
                + "connection to server on socket \"\(pg.directory.path)/.s.PGSQL.\(pg.port)\" failed: "
                + "FATAL:  password authentication failed for user \"alice\""))
        #expect(!r.stderr.contains("not-the-password"))
        let status = try t.run("status")
        #expect(status.status == 0)
        #expect(status.stdout.hasPrefix("running Docs #1\n"), "\(status)")
    }

    @Test func anUnreachableHubIsOneSentence() throws {
        let t = try Self.settings(url: "postgresql://alice:pw-in-url@127.0.0.1:1/trackee", password: "x")
        let r = try t.run("hub", "init")
        #expect(r.status == 75, "\(r)")
        #expect(r.stderr.hasPrefix(failure(
            "\(t.path("config/trackee/config.yaml")):2: hub: cannot reach the hub at postgresql://alice@127.0.0.1:1/trackee: "
                + "connection to server at \"127.0.0.1\", port 1 failed: Connection refused").dropLast()), "\(r)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r)")
        #expect(!r.stderr.contains("pw-in-url"))
    }

    @Test func withoutAHubSectionInitSaysWhatToAdd() throws {
        let t = try Sandbox()
        let r = try t.run("hub", "init")
        #expect(r.status == 78)
        #expect(r.stderr == failure(
            "\(t.path("config/trackee/config.yaml")): the settings have no hub: section; add one with the hub's url "
                + "(see CONFIGURATION in man trackee)"))
    }

    /// A fresh cluster, or nil (printing why) where none can run.
    static func cluster() throws -> PostgresCluster? {
        if let why = PostgresCluster.unavailable {
            print("skipped: \(why)")
            return nil
        }
        return try PostgresCluster()
    }
}

/// The migrations as a list: what is pending, and a hub that is ahead.
@Suite struct HubSchemaTests {
    @Test func pendingIsWhatTheHubLacksInOrderAndAnUnknownOneIsNamed() throws {
        let all = HubSchema.migrations.map(\.id)
        #expect(try HubSchema.pending(after: []).get().map(\.id) == all)
        #expect(try HubSchema.pending(after: Set(all)).get().isEmpty)
        guard case .failure(let unknown) = HubSchema.pending(after: Set(all + ["2099-x", "2098-y"])) else {
            Issue.record("a hub ahead of this trackee was not refused")
            return
        }
        #expect(unknown.id == "2098-y")
    }
}
