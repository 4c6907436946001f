import Foundation
import Testing
import TrackeeTestSupport

/// `hub init` on a hub the release of 9c9120b set up and used
/// (Tests/Fixtures/hub-9c9120b): everything moves into schema trackee and
/// to trackee_owner, the persons it names become persons, every device
/// gets its owner and timeline, no row is lost, and the timelines go on
/// replicating.
@Suite(.serialized) struct HubUpgradeTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/hub-9c9120b/hub.sql").path

    static let changes = "SELECT id, person, device, sequence, clock, kind, body::text FROM change ORDER BY id"

    @Test func initUpgradesTheHubInPlaceAndLosesNoRow() throws {
        guard let pg = try HubInitTests.cluster() else { return }
        try pg.sql("CREATE ROLE alice LOGIN PASSWORD 'laptop-secret'")
        try pg.sql("CREATE ROLE bob LOGIN PASSWORD 'bob-secret'")
        try pg.sql("CREATE DATABASE trackee")
        try pg.restore(Self.fixture, database: "trackee")
        // What that release let any role do: bob's rows under the name of
        // alice's laptop, into his own timeline.
        try pg.sql("""
            INSERT INTO public.change (person, device, sequence, clock, kind, body)
            SELECT 'bob', 'laptop', 99, clock, kind, body FROM public.change WHERE id = 12
            """, database: "trackee")
        func counts(_ schema: String) throws -> String {
            try pg.sql("""
                SELECT (SELECT count(*) FROM \(schema).change) || ' ' || (SELECT count(*) FROM \(schema).device) || ' '
                       || (SELECT count(*) FROM \(schema).share) || ' ' || (SELECT count(*) FROM \(schema).trackee_migration)
                """, database: "trackee")
        }
        #expect(try counts("public") == "14 4 1 3\n")
        let before = try pg.sql(Self.changes, database: "trackee")
        let tablet = try HubInitTests.settings(url: pg.url(database: "trackee"), password: "laptop-secret", device: "tablet")
        let config = tablet.path("config/trackee/config.yaml")
        let early = try tablet.run("hub", "sync")
        #expect(early.status == 75, "\(early)")
        #expect(early.stderr == failure(
            "\(config):2: hub: the hub's schema lacks migration 2026-11-29-owner-and-persons; its administrator runs "
                + "trackee hub init"))

        let upgrade = try HubInitTests.administer(tablet, "hub", "init")
        #expect(upgrade.status == 0, "\(upgrade)")
        #expect(upgrade.lines == [
            "hub schema: applied 2026-11-29-owner-and-persons",
            "owner: trackee_owner owns schema trackee and its tables; persons: members of trackee_person (alice, bob)",
        ])
        // Every row is there, as it was; bob's rows got a device of his
        // own timeline, which no store holds.
        #expect(try counts("trackee") == "14 5 1 4\n")
        #expect(try pg.sql(Self.changes, database: "trackee") == before)
        #expect(try pg.sql("SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace", database: "trackee")
                == "0\n")
        #expect(try pg.sql("""
            SELECT timeline, name, owner, number, store IS NOT NULL FROM device ORDER BY timeline, number
            """, database: "trackee") == """
            alice|laptop|alice|1|t
            alice|desktop|alice|2|t
            alice|desk.alice|bob|4|t
            bob|laptop|bob|1|f
            bob|desk|bob|3|t

            """)
        #expect(try pg.sql("SELECT name, devices FROM person ORDER BY name", database: "trackee") == "alice|20\nbob|20\n")
        let check = try tablet.run("hub", "check")
        #expect(check.status == 0, "\(check)")

        // A new device of alice's pulls her whole timeline.
        let pulled = try tablet.run("hub", "sync")
        #expect(pulled.status == 0, "\(pulled)")
        #expect(pulled.stdout.hasPrefix("hub sync: device tablet (3): pushed 0, pulled 11, applied "), "\(pulled)")
        let exported = try ReplicationPassTests.export(tablet)
        for entry in [#""id":1001,"#, #""id":2001,"#, #""description":"before joining, kept""#] {
            #expect(exported.contains(entry), "\(exported)")
        }
        let running = try tablet.run("status")
        #expect(running.stdout.hasPrefix("running Review #1002"), "\(running)")
        // Bob's new device: his own timeline, and his copy of alice's,
        // which she still shares for reading.
        let reader = try HubInitTests.settings(
            url: pg.url(database: "trackee"), password: "bob-secret", device: "reader", user: "bob")
        let both = try reader.run("hub", "sync")
        #expect(both.status == 0, "\(both)")
        #expect(both.lines.count == 2, "\(both)")
        #expect(both.lines.first?.hasPrefix("hub sync: device reader (2): pushed 0, pulled 3, applied ") == true, "\(both)")
        #expect(both.lines.last?.hasPrefix(
            "hub sync: alice's timeline (read), as device reader.alice (5): pushed 0, pulled 11, applied ") == true,
            "\(both)")
    }
}
