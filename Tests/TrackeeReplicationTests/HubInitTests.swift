import Foundation
import Testing
import TrackeeCore
@testable import TrackeeReplication
import TrackeeTestSupport

/// `trackee hub init` against a real PostgreSQL 15, run by the hub's
/// administrator: the roles and the schema made once and left alone
/// after; a person, a role that may not make roles, a newer hub, a wrong
/// password and an unreachable hub each refused in one sentence, with the
/// local store untouched.
@Suite(.serialized) struct HubInitTests {
    /// The hub's migrations, as `hub init` lists them.
    static let migrations =
        "2026-11-26-devices-and-changes, 2026-11-27-device-numbers, 2026-11-28-sharing, 2026-11-29-owner-and-persons"

    /// The administrator's sandbox: its settings name the cluster's
    /// database as the hub, as the superuser, whose password is in a
    /// file. Before it runs `hub init` the cluster has the group
    /// trackee_person and alice in it (password `laptop-secret`), as an
    /// administrator may make them first; ``settings(url:password:device:extra:)``
    /// makes her devices.
    static func sandbox(_ pg: PostgresCluster) throws -> Sandbox {
        try pg.sql("CREATE ROLE trackee_person NOLOGIN")
        try pg.sql("CREATE ROLE alice LOGIN PASSWORD 'laptop-secret' IN ROLE trackee_person")
        try pg.sql("CREATE DATABASE trackee")
        return try settings(
            url: pg.url(database: "trackee"), password: PostgresCluster.adminPassword, device: "admin",
            user: PostgresCluster.admin)
    }

    /// A device's sandbox, whose settings name the hub at `url` as `user`
    /// (alice unless told), with the password in a file.
    static func settings(
        url: String, password: String, device: String = "laptop", extra: String = "", user: String = "alice"
    ) throws -> Sandbox {
        let t = try Sandbox()
        try t.write(password + "\n", to: "config/trackee/hub.password")
        chmod(t.path("config/trackee/hub.password"), 0o600)
        try t.write("""
            create_projects: always
            hub:
              url: \(url)
              user: \(user)
              password_file: \(t.path("config/trackee/hub.password"))
              sslmode: disable
              device: \(device)
            \(extra)
            """, to: "config/trackee/config.yaml")
        return t
    }

    /// Runs `trackee ARGUMENTS --user hubadmin` in `t`: the administrator's
    /// command from a person's settings, the password from PGPASSWORD.
    static func administer(_ t: Sandbox, _ arguments: String...) throws -> TrackeeRun {
        try t.run(arguments + ["--user", PostgresCluster.admin], environment: ["PGPASSWORD": PostgresCluster.adminPassword])
    }

    /// A person's role: a login role in trackee_person.
    static func person(_ pg: PostgresCluster, _ name: String, password: String) throws {
        try pg.sql("CREATE ROLE \(name) LOGIN PASSWORD '\(password)' IN ROLE trackee_person")
    }

    @Test func theAdministratorMakesTheRolesAndTheSchemaOnceAndAgainChangesNothing() throws {
        guard let pg = try Self.cluster() else { return }
        try pg.sql("CREATE DATABASE trackee")
        let t = try Self.settings(url: pg.url(database: "trackee"), password: "laptop-secret")
        let first = try Self.administer(t, "hub", "init")
        #expect(first.status == 0, "\(first)")
        #expect(first.lines == [
            "hub schema: applied \(Self.migrations)",
            "owner: trackee_owner owns schema trackee and its tables; persons: members of trackee_person (none yet)",
        ])
        #expect(first.stderr == "")
        #expect(try pg.sql("SELECT rolname, rolcanlogin FROM pg_roles WHERE rolname LIKE 'trackee%' ORDER BY 1")
                == "trackee_owner|f\ntrackee_person|f\n")
        try Self.person(pg, "alice", password: "laptop-secret")
        try Self.person(pg, "bob", password: "bob-secret")
        let again = try Self.administer(t, "hub", "init", "--json")
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout == #"{"applied":[],"current":"2026-11-29-owner-and-persons","owner":"trackee_owner","#
                + #""persons":["alice","bob"]}"# + "\n")
        #expect(again.stderr == "")
        let text = try Self.administer(t, "hub", "init")
        #expect(text.lines == [
            "hub schema up to date (2026-11-29-owner-and-persons)",
            "owner: trackee_owner owns schema trackee and its tables; persons: members of trackee_person (alice, bob)",
        ], "\(text)")
        #expect(try pg.sql("SELECT id FROM trackee.trackee_migration ORDER BY id", database: "trackee")
                == Self.migrations.replacingOccurrences(of: ", ", with: "\n") + "\n")
        // trackee_owner owns everything in the schema, and the schema; the
        // public schema is left as it was, empty.
        #expect(try pg.sql("""
            SELECT nspname || ' ' || pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'trackee'
            UNION ALL
            SELECT relname || ' ' || pg_get_userbyid(relowner) FROM pg_class
            WHERE relnamespace = 'trackee'::regnamespace AND relkind IN ('r', 'S') ORDER BY 1
            """, database: "trackee") == """
            change trackee_owner
            change_id_seq trackee_owner
            device trackee_owner
            person trackee_owner
            share trackee_owner
            trackee trackee_owner
            trackee_migration trackee_owner

            """)
        #expect(try pg.sql("SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace",
                           database: "trackee") == "0\n")
        // The table keeps a device's sequence numbers unique in its
        // timeline: a re-push adds nothing.
        try pg.sql("INSERT INTO device (name, owner, timeline, number, store) VALUES ('laptop', 'alice', 'alice', 1, 's')",
                   database: "trackee")
        try pg.sql("INSERT INTO change (person, device, sequence, clock, kind, body) VALUES ('alice', 'laptop', 1, 'c', 'k', '{}')",
                   database: "trackee")
        #expect(throws: PostgresCluster.Unavailable.self) {
            try pg.sql("INSERT INTO change (person, device, sequence, clock, kind, body) VALUES ('alice', 'laptop', 1, 'c', 'k', '{}')",
                       database: "trackee")
        }
    }

    @Test func aPersonRunningInitOrLimitIsToldItIsTheAdministrators() throws {
        guard let pg = try Self.cluster() else { return }
        let admin = try Self.sandbox(pg)
        #expect(try admin.run("hub", "init").status == 0)
        let alice = try Self.settings(url: pg.url(database: "trackee"), password: "laptop-secret")
        let config = alice.path("config/trackee/config.yaml")
        let r = try alice.run("hub", "init")
        #expect(r.status == 75, "\(r)")
        #expect(r.stdout == "")
        #expect(r.stderr == failure(
            "\(config):2: hub: hub init is the administrator's, and alice is a person on this hub (a member of "
                + "trackee_person); run it as the administrator's role with --user ROLE"))
        let limit = try alice.run("hub", "limit", "alice", "999")
        #expect(limit.status == 75, "\(limit)")
        #expect(limit.stderr == failure(
            "\(config):2: hub: hub limit is the administrator's, and alice is a person on this hub (a member of "
                + "trackee_person); run it as the administrator's role with --user ROLE"))
        #expect(try pg.sql("SELECT count(*) FROM person", database: "trackee") == "0\n")
        // With --user, the person's password (the settings' file) is not
        // sent for the administrator's role: without PGPASSWORD there is
        // none.
        let unsent = try alice.run("hub", "init", "--user", PostgresCluster.admin)
        #expect(unsent.status == 75, "\(unsent)")
        #expect(unsent.stderr == failure(
            "\(config):2: hub: cannot reach the hub at \(pg.url(database: "trackee")): connection to server on socket "
                + "\"\(pg.directory.path)/.s.PGSQL.\(pg.port)\" failed: fe_sendauth: no password supplied"))
    }

    @Test func aRoleThatMayNotMakeRolesIsToldWhoMay() throws {
        guard let pg = try Self.cluster() else { return }
        try pg.sql("CREATE ROLE carol LOGIN PASSWORD 'carol-secret'")
        try pg.sql("CREATE DATABASE trackee OWNER carol")
        let t = try Self.settings(url: pg.url(database: "trackee"), password: "carol-secret", user: "carol")
        let r = try t.run("hub", "init")
        #expect(r.status == 75, "\(r)")
        #expect(r.stderr == failure(
            "\(t.path("config/trackee/config.yaml")):2: hub: hub init is the administrator's: it makes the roles "
                + "trackee_owner and trackee_person, and carol may not create roles; run it as a role that may (a "
                + "superuser) with --user ROLE"))
        #expect(try pg.sql("SELECT count(*) FROM pg_roles WHERE rolname LIKE 'trackee%'") == "0\n")
        #expect(try pg.sql("SELECT count(*) FROM pg_namespace WHERE nspname = 'trackee'", database: "trackee") == "0\n")
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
        #expect(try pg.sql("SELECT count(*) FROM trackee_migration", database: "trackee") == "5\n")
        // A person's sync is refused the same way.
        let laptop = try Self.settings(url: pg.url(database: "trackee"), password: "laptop-secret")
        let sync = try laptop.run("hub", "sync")
        #expect(sync.status == 75, "\(sync)")
        #expect(sync.stderr.hasSuffix(
            "hub: the hub's schema has migration 2099-01-01-from-the-future, which this trackee does not know: a newer "
                + "trackee set it up; upgrade trackee on this device\n"), "\(sync)")
    }

    @Test func aWrongPasswordIsOneSentenceAndLocalCommandsKeepWorking() throws {
        guard let pg = try Self.cluster() else { return }
        let admin = try Self.sandbox(pg)
        #expect(try admin.run("hub", "init").status == 0)
        let t = try Self.settings(url: pg.url(database: "trackee"), password: "not-the-password")
        #expect(try t.run("start", "-p", "Docs").status == 0)
        let r = try t.run("hub", "sync")
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
