import Foundation
import Testing
import TrackeeTestSupport

/// Sharing between people, each a PostgreSQL role: a reader sees the
/// other's timeline and cannot change it (the database refuses); a writer
/// can; a revocation takes effect on the next sync.
@Suite(.serialized) struct HubSharingTests {
    static func people(_ pg: PostgresCluster) throws -> (alice: Sandbox, bob: Sandbox) {
        let alice = try HubInitTests.sandbox(pg)
        #expect(try alice.run("hub", "init").status == 0)
        try pg.sql("CREATE ROLE bob LOGIN PASSWORD 'bob-secret'")
        let bob = try HubInitTests.settings(url: pg.url(database: "trackee"), password: "bob-secret", device: "desk")
        try bob.write(try String(contentsOfFile: bob.path("config/trackee/config.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "user: alice", with: "user: bob"), to: "config/trackee/config.yaml")
        return (alice, bob)
    }

    @Test func aReaderSeesTheTimelineTheDatabaseRefusesTheirChangeAndRevokingEndsIt() throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let (alice, bob) = try Self.people(pg)
        #expect(try alice.run("add", "-p", "Docs", "--from", "09:00", "--to", "10:30", "-d", "alice's").status == 0)
        _ = try HubSyncTests.sync(alice)
        // Before a grant bob sees nothing of alice.
        #expect(try HubSyncTests.sync(bob) == "hub sync: device desk (2): pushed 0, pulled 0, applied 0\n")
        let none = try bob.run("export", "--person", "alice", "--format", "json")
        #expect(none.status == 1)
        #expect(none.stderr == failure(
            "--person alice: no copy of alice's timeline is here; alice shares it with `trackee hub grant YOU --read`, "
                + "and then `trackee hub sync` brings it"))
        #expect(try alice.run("hub", "grant", "bob", "--read").lines == ["bob may now read your timeline"])
        let shared = try HubSyncTests.sync(bob)
        #expect(shared == """
            hub sync: device desk (2): pushed 0, pulled 0, applied 0
            hub sync: alice's timeline (read), as device desk.alice (3): pushed 0, pulled 2, applied 2

            """, "\(shared)")
        let exported = try bob.run("export", "--person", "alice", "--format", "json", "--from", "2026-01-01", "--to", "2027-01-01")
        #expect(exported.stdout == (try HubSyncTests.export(alice)), "\(exported)")
        let summary = try bob.run("summary", "--person", "alice")
        #expect(summary.status == 0, "\(summary)")
        #expect(summary.stdout.contains("Docs"), "\(summary)")
        // The database itself refuses bob's change to alice's timeline.
        #expect(try bob.run("edit", "--person", "alice", "1001", "-d", "bob was here").status == 0)
        let refused = try bob.run("hub", "sync")
        #expect(refused.status == 75, "\(refused)")
        #expect(refused.stderr.contains(
            "hub: alice lets you read their timeline, not change it: the hub refused the change made here to their copy "
                + "(the hub refused a statement: new row violates row-level security policy for table \"change\")"),
            "\(refused)")
        #expect(throws: PostgresCluster.Unavailable.self) {
            try pg.sql("SET ROLE bob; INSERT INTO change (person, device, sequence, clock, kind, body) "
                       + "VALUES ('alice', 'desk', 99, 'c', 'entry', '{}')", database: "trackee")
        }
        _ = try HubSyncTests.sync(alice)
        #expect(!(try HubSyncTests.export(alice)).contains("bob was here"))
        // Revoked: bob's next sync forgets the copy.
        #expect(try alice.run("hub", "revoke", "bob").lines == ["bob may no longer see your timeline"])
        _ = try bob.run("hub", "sync")
        #expect(try bob.run("export", "--person", "alice", "--format", "json").status == 1)
        #expect(!FileManager.default.fileExists(atPath: bob.path("store/people/alice.sqlite3")))
    }

    @Test func aWriterChangesTheTimelineForItsOwner() throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let (alice, bob) = try Self.people(pg)
        #expect(try alice.run("add", "-p", "Docs", "--from", "09:00", "--to", "10:30").status == 0)
        _ = try HubSyncTests.sync(alice)
        #expect(try alice.run("hub", "grant", "bob", "--write").lines == ["bob may now read and change your timeline"])
        _ = try HubSyncTests.sync(bob)
        #expect(try bob.run("edit", "--person", "alice", "1001", "-d", "filed by the assistant").status == 0)
        _ = try HubSyncTests.sync(bob)
        _ = try HubSyncTests.sync(alice)
        #expect(try HubSyncTests.export(alice).contains(#""description":"filed by the assistant""#))
        let nobody = try alice.run("hub", "grant", "carol", "--read")
        #expect(nobody.status == 75)
        #expect(nobody.stderr.hasSuffix("hub: the hub has no role named carol; its administrator makes one for each person\n"))
    }
}
