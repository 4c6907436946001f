import Foundation
import Testing
import TrackeeTestSupport

/// Sharing between people, each a PostgreSQL role: a reader sees the
/// other's timeline and cannot change it (the database refuses); a writer
/// can; a revocation takes effect on the next sync, and a new grant after
/// it works as the first did.
@Suite(.serialized) struct HubSharingTests {
    /// A hub the administrator set up, alice's laptop and bob's desk.
    static func people(_ pg: PostgresCluster) throws -> (alice: Sandbox, bob: Sandbox) {
        let admin = try HubInitTests.sandbox(pg)
        #expect(try admin.run("hub", "init").status == 0)
        try HubInitTests.person(pg, "bob", password: "bob-secret")
        let alice = try HubInitTests.settings(url: pg.url(database: "trackee"), password: "laptop-secret")
        let bob = try HubInitTests.settings(
            url: pg.url(database: "trackee"), password: "bob-secret", device: "desk", user: "bob")
        return (alice, bob)
    }

    @Test func aReaderSeesTheTimelineTheDatabaseRefusesTheirChangeAndRevokingEndsIt() throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let (alice, bob) = try Self.people(pg)
        #expect(try alice.run("add", "-p", "Docs", "--from", "09:00", "--to", "10:30", "-d", "alice's").status == 0)
        _ = try ReplicationPassTests.sync(alice)
        // Before a grant bob sees nothing of alice. Numbers are per
        // timeline: bob's desk is the first of his.
        #expect(try ReplicationPassTests.sync(bob) == "hub sync: device desk (1): pushed 0, pulled 0, applied 0\n")
        let none = try bob.run("export", "--person", "alice", "--format", "json")
        #expect(none.status == 1)
        #expect(none.stderr == failure(
            "--person alice: no copy of alice's timeline is here; alice shares it with `trackee hub grant YOU --read`, "
                + "and then `trackee hub sync` brings it"))
        #expect(try alice.run("hub", "grant", "bob", "--read").lines == ["bob may now read your timeline"])
        let shared = try ReplicationPassTests.sync(bob)
        #expect(shared == """
            hub sync: device desk (1): pushed 0, pulled 0, applied 0
            hub sync: alice's timeline (read), as device desk.alice (2): pushed 0, pulled 2, applied 2

            """, "\(shared)")
        let exported = try bob.run("export", "--person", "alice", "--format", "json", "--from", "2026-01-01", "--to", "2027-01-01")
        #expect(exported.stdout == (try ReplicationPassTests.export(alice)), "\(exported)")
        let summary = try bob.run("summary", "--person", "alice")
        #expect(summary.status == 0, "\(summary)")
        #expect(summary.stdout.contains("Docs"), "\(summary)")
        // The database itself refuses bob's change to alice's timeline,
        // through trackee and through SQL as bob.
        #expect(try bob.run("edit", "--person", "alice", "1001", "-d", "bob was here").status == 0)
        let refused = try bob.run("hub", "sync")
        #expect(refused.status == 75, "\(refused)")
        #expect(refused.stderr.contains(
            "hub: alice lets you read their timeline, not change it: the hub refused the change made here to their copy "
                + "(the hub refused a statement: new row violates row-level security policy for table \"change\")"),
            "\(refused)")
        let direct = try pg.sql(
            "INSERT INTO trackee.change (person, device, sequence, clock, kind, body) "
                + "VALUES ('alice', 'desk.alice', 99, 'c', 'entry', '{}')", as: "bob", password: "bob-secret")
        #expect(direct.status == 1, "\(direct)")
        #expect(direct.stderr == "ERROR:  new row violates row-level security policy for table \"change\"\n")
        _ = try ReplicationPassTests.sync(alice)
        #expect(!(try ReplicationPassTests.export(alice)).contains("bob was here"))
        // Revoked: bob's next sync forgets the copy, and the hub its device.
        #expect(try alice.run("hub", "revoke", "bob").lines == ["bob may no longer see your timeline"])
        _ = try bob.run("hub", "sync")
        #expect(try bob.run("export", "--person", "alice", "--format", "json").status == 1)
        #expect(!FileManager.default.fileExists(atPath: bob.path("store/people/alice.sqlite3")))
        #expect(try pg.sql("SELECT name FROM device ORDER BY timeline, name", database: "trackee") == "laptop\ndesk\n")
        // Granted again, bob's desk keeps a new copy, under the same name.
        #expect(try alice.run("hub", "grant", "bob", "--read").lines == ["bob may now read your timeline"])
        #expect(try ReplicationPassTests.sync(bob) == """
            hub sync: device desk (1): pushed 0, pulled 0, applied 0
            hub sync: alice's timeline (read), as device desk.alice (2): pushed 0, pulled 2, applied 2

            """)
    }

    @Test func aWriterChangesTheTimelineForItsOwner() throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let (alice, bob) = try Self.people(pg)
        #expect(try alice.run("add", "-p", "Docs", "--from", "09:00", "--to", "10:30").status == 0)
        _ = try ReplicationPassTests.sync(alice)
        #expect(try alice.run("hub", "grant", "bob", "--write").lines == ["bob may now read and change your timeline"])
        _ = try ReplicationPassTests.sync(bob)
        #expect(try bob.run("edit", "--person", "alice", "1001", "-d", "filed by the assistant").status == 0)
        _ = try ReplicationPassTests.sync(bob)
        _ = try ReplicationPassTests.sync(alice)
        #expect(try ReplicationPassTests.export(alice).contains(#""description":"filed by the assistant""#))
        let config = alice.path("config/trackee/config.yaml")
        let nobody = try alice.run("hub", "grant", "carol", "--read")
        #expect(nobody.status == 75)
        #expect(nobody.stderr == failure(
            "\(config):2: hub: the hub has no role named carol; its administrator makes one for each person"))
        try pg.sql("CREATE ROLE carol LOGIN")
        let notAPerson = try alice.run("hub", "grant", "carol", "--read")
        #expect(notAPerson.status == 75)
        #expect(notAPerson.stderr == failure(
            "\(config):2: hub: carol is a role on the hub but not a person (a member of trackee_person); its "
                + "administrator makes it one with GRANT trackee_person TO carol"))
    }
}
