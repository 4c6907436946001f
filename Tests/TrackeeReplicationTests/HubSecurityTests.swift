import Foundation
import Testing
import TrackeeCore
@testable import TrackeeReplication
import TrackeeStore
import TrackeeTestSupport

/// A person may be hostile to the others on the hub; the database, not
/// trackee, stops them. Each attack is made by SQL as the other person,
/// connected as that role (the hub's functions look at who logged in),
/// and refused by PostgreSQL.
@Suite(.serialized) struct HubSecurityTests {
    /// A hub with alice's laptop joined (an entry, pushed) and bob, who
    /// has a desk but no grant.
    struct Hub {
        let pg: PostgresCluster
        let admin: Sandbox
        let alice: Sandbox
        let bob: Sandbox

        init?() throws {
            guard let pg = try HubInitTests.cluster() else { return nil }
            self.pg = pg
            (alice, bob) = try HubSharingTests.people(pg)
            admin = try HubInitTests.settings(
                url: pg.url(database: "trackee"), password: PostgresCluster.adminPassword, device: "admin",
                user: PostgresCluster.admin)
            #expect(try alice.run("add", "-p", "Docs", "--from", "09:00", "--to", "10:30").status == 0)
            #expect(try ReplicationPassTests.sync(alice) == "hub sync: device laptop (1): pushed 2, pulled 0, applied 0\n")
            #expect(try ReplicationPassTests.sync(bob) == "hub sync: device desk (1): pushed 0, pulled 0, applied 0\n")
        }

        func asBob(_ statement: String) throws -> PostgresCluster.Answer {
            try pg.sql(statement, as: "bob", password: "bob-secret")
        }

        func asAlice(_ statement: String) throws -> PostgresCluster.Answer {
            try pg.sql(statement, as: "alice", password: "laptop-secret")
        }

        /// What the superuser reads (row-level security does not bind it).
        func count(_ query: String) throws -> String {
            try pg.sql("SELECT count(*) FROM \(query)", database: "trackee")
        }
    }

    static func refused(_ answer: PostgresCluster.Answer, _ error: String) {
        #expect(answer.status == 1, "\(answer)")
        #expect(answer.stderr == "ERROR:  \(error)\n", "\(answer)")
    }

    @Test func anotherPersonCannotWriteUnderYourDeviceSoYourPushesStand() throws {
        guard let hub = try Hub() else { return }
        // The attack of issue 33, at a small scale: rows under alice's
        // device with sequence numbers it has yet to use.
        for person in ["alice", "bob"] {
            Self.refused(try hub.asBob("""
                INSERT INTO trackee.change (person, device, sequence, clock, kind, body)
                SELECT '\(person)', 'laptop', g, 'c', 'entry', '{}' FROM generate_series(3, 102) g
                """), "new row violates row-level security policy for table \"change\"")
        }
        // An id of one's choosing (behind a cursor, or ahead of the hub's).
        Self.refused(try hub.asBob("""
            INSERT INTO trackee.change (id, person, device, sequence, clock, kind, body)
            VALUES (1000000, 'bob', 'desk', 1, 'c', 'entry', '{}')
            """), "cannot insert a non-DEFAULT value into column \"id\"")
        Self.refused(try hub.asBob("""
            INSERT INTO trackee.change (id, person, device, sequence, clock, kind, body) OVERRIDING SYSTEM VALUE
            VALUES (1000000, 'bob', 'desk', 1, 'c', 'entry', '{}')
            """), "permission denied for table change")
        #expect(try hub.count("change") == "2\n")
        #expect(try hub.alice.run("add", "-p", "Docs", "--from", "11:00", "--to", "12:00").status == 0)
        #expect(try ReplicationPassTests.sync(hub.alice) == "hub sync: device laptop (1): pushed 1, pulled 0, applied 0\n")
        #expect(try hub.count("change WHERE person = 'alice' AND device = 'laptop'") == "3\n")
        // Allowed to write alice's timeline, bob still writes only under
        // his own device there: his copy of it.
        #expect(try hub.alice.run("hub", "grant", "bob", "--write").status == 0)
        _ = try ReplicationPassTests.sync(hub.bob)
        Self.refused(try hub.asBob("""
            INSERT INTO trackee.change (person, device, sequence, clock, kind, body)
            VALUES ('alice', 'laptop', 100, 'c', 'entry', '{}')
            """), "new row violates row-level security policy for table \"change\"")
        let own = try hub.asBob("""
            INSERT INTO trackee.change (person, device, sequence, clock, kind, body)
            VALUES ('alice', 'desk.alice', 100, 'c', 'entry', '{}')
            """)
        #expect(own.status == 0, "\(own)")
    }

    @Test func aPersonCannotLoosenTruncateOrDropWhatTheHubIsMadeOf() throws {
        guard let hub = try Hub() else { return }
        // Alice, who would have run hub init (and owned the tables) before.
        for (statement, error) in [
            ("ALTER TABLE trackee.change NO FORCE ROW LEVEL SECURITY", "must be owner of table change"),
            ("ALTER TABLE trackee.change DISABLE ROW LEVEL SECURITY", "must be owner of table change"),
            ("ALTER TABLE trackee.device DISABLE ROW LEVEL SECURITY", "must be owner of table device"),
            ("TRUNCATE trackee.change", "permission denied for table change"),
            ("CREATE POLICY everything ON trackee.change FOR SELECT USING (true)", "must be owner of table change"),
            ("DROP TABLE trackee.change", "must be owner of table change"),
            ("DROP SCHEMA trackee CASCADE", "must be owner of schema trackee"),
            ("CREATE TABLE trackee.mine (a int)", "permission denied for schema trackee at character 14"),
            ("UPDATE trackee.change SET body = '{}'", "permission denied for table change"),
            ("DELETE FROM trackee.change", "permission denied for table change"),
            ("INSERT INTO trackee.device (name, owner, timeline, number, store) VALUES ('x', 'alice', 'alice', 9, 's')",
             "permission denied for table device"),
            ("UPDATE trackee.person SET devices = 999", "permission denied for table person"),
            ("ALTER FUNCTION trackee.register(text, text, text) SECURITY INVOKER", "must be owner of function trackee.register"),
            ("SET ROLE trackee_owner", "permission denied to set role \"trackee_owner\""),
            ("SELECT trackee.is_person('alice')", "permission denied for function is_person"),
        ] {
            Self.refused(try hub.asAlice(statement), error)
        }
        #expect(try hub.count("change") == "2\n")
        #expect(try hub.pg.sql("""
            SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class
            WHERE relnamespace = 'trackee'::regnamespace AND relkind = 'r' ORDER BY 1
            """, database: "trackee") == "change|t|t\ndevice|t|t\nperson|t|t\nshare|t|t\ntrackee_migration|t|t\n")
    }

    @Test func devicesStopAtTheLimitTheAdministratorSets() throws {
        guard let hub = try Hub() else { return }
        let set = try HubInitTests.administer(hub.alice, "hub", "limit", "bob", "2")
        #expect(set.status == 0, "\(set)")
        #expect(set.lines == ["bob may register up to 2 device(s) on the hub (1 registered)"])
        #expect(try hub.asBob("SELECT trackee.register('phone', 'store-1')").stdout == "2\n")
        Self.refused(
            try hub.asBob("SELECT trackee.register('tablet', 'store-2')"),
            "you have registered 2 devices on the hub, your limit; its administrator can raise it (trackee hub limit bob N)")
        let tablet = try HubInitTests.settings(
            url: hub.pg.url(database: "trackee"), password: "bob-secret", device: "tablet", user: "bob")
        let refused = try tablet.run("hub", "sync")
        #expect(refused.status == 75, "\(refused)")
        #expect(refused.stderr == failure(
            "\(tablet.path("config/trackee/config.yaml")):2: hub: you have registered 2 devices on the hub, your limit; "
                + "its administrator can raise it (trackee hub limit bob N)"))
        #expect(try HubInitTests.administer(hub.admin, "hub", "limit", "bob", "3").status == 0)
        #expect(try ReplicationPassTests.sync(tablet) == "hub sync: device tablet (3): pushed 0, pulled 0, applied 0\n")
        let json = try HubInitTests.administer(hub.admin, "hub", "limit", "bob", "3", "--json")
        #expect(json.stdout == #"{"devices":3,"person":"bob","registered":3}"# + "\n", "\(json)")
    }

    @Test func devicesAreRegisteredOnlyForOneselfAndIntoATimelineSharedWithOne() throws {
        guard let hub = try Hub() else { return }
        Self.refused(
            try hub.asBob("SELECT trackee.register('desk.alice', 'store-1', 'alice')"),
            "alice does not share their timeline with you; they can with trackee hub grant bob --read")
        #expect(try hub.alice.run("hub", "grant", "bob", "--read").status == 0)
        Self.refused(
            try hub.asBob("SELECT trackee.register('laptop', 'store-1', 'alice')"),
            "a device that keeps a copy of alice's timeline is named DEVICE.alice, and laptop is not")
        #expect(try hub.asBob("SELECT trackee.register('phone.alice', 'store-1', 'alice')").stdout == "2\n")
        // Again from the same store: the same number; from another: refused.
        #expect(try hub.asBob("SELECT trackee.register('phone.alice', 'store-1', 'alice')").stdout == "2\n")
        Self.refused(
            try hub.asBob("SELECT trackee.register('phone.alice', 'store-2', 'alice')"),
            "the hub has a device named phone.alice already, from another store; give this device another name "
                + "(hub.device in the settings)")
        // A name is the timeline's: bob's own laptop is not alice's.
        #expect(try hub.asBob("SELECT trackee.register('laptop', 'store-3')").stdout == "2\n")
        // The superuser acting as alice is still the superuser to the hub,
        // which registers for the role that logged in.
        do {
            try hub.pg.sql("SET ROLE alice; SELECT trackee.register('ghost', 'store-4')", database: "trackee")
            Issue.record("the superuser registered a device as alice")
        } catch let refusal as PostgresCluster.Unavailable {
            #expect(refusal.description.hasSuffix(
                "ERROR:  hubadmin is not a person on this hub; its administrator makes each person's role a member "
                    + "of trackee_person\n"), "\(refusal)")
        }
        #expect(try hub.pg.sql("SELECT timeline || ' ' || name || ' ' || owner || ' ' || number FROM device ORDER BY 1",
                               database: "trackee") == """
            alice laptop alice 1
            alice phone.alice bob 2
            bob desk bob 1
            bob laptop bob 2

            """)
        // A role that is no person reaches nothing, and is told why.
        try hub.pg.sql("CREATE ROLE carol LOGIN PASSWORD 'carol-secret'")
        let carol = try HubInitTests.settings(
            url: hub.pg.url(database: "trackee"), password: "carol-secret", device: "tablet", user: "carol")
        let r = try carol.run("hub", "sync")
        #expect(r.status == 75, "\(r)")
        #expect(r.stderr == failure(
            "\(carol.path("config/trackee/config.yaml")):2: hub: carol is not a person on this hub; its administrator "
                + "makes each person's role a member of trackee_person"))
        Self.refused(
            try hub.pg.sql("SELECT trackee.register('tablet', 'store-5')", as: "carol", password: "carol-secret"),
            "permission denied for schema trackee at character 8")
    }

    @Test func noOneUsesUpTheDeviceNumbersAnotherPersonMayStillNeed() throws {
        guard let hub = try Hub() else { return }
        #expect(try hub.alice.run("hub", "grant", "bob", "--read").status == 0)
        // Alice may register 994 more (she has one); 998 numbers are free
        // in her timeline, so bob's copies may take 4 of them, and no more.
        #expect(try HubInitTests.administer(hub.admin, "hub", "limit", "alice", "995").status == 0)
        #expect(try HubInitTests.administer(hub.admin, "hub", "limit", "bob", "999").status == 0)
        for copy in 1...4 {
            #expect(try hub.asBob("SELECT trackee.register('c\(copy).alice', 's\(copy)', 'alice')").stdout
                    == "\(copy + 1)\n")
        }
        Self.refused(
            try hub.asBob("SELECT trackee.register('c5.alice', 's5', 'alice')"),
            "the device numbers left in alice's timeline are kept for alice's own devices, so no more copies of it "
                + "can join the hub")
        // Alice's own next device still joins, with the smallest free number.
        let tablet = try HubInitTests.settings(url: hub.pg.url(database: "trackee"), password: "laptop-secret", device: "tablet")
        #expect(try ReplicationPassTests.sync(tablet) == "hub sync: device tablet (6): pushed 0, pulled 2, applied 2\n")
        // Bob's own timeline numbers from 1 whatever alice's holds.
        #expect(try hub.asBob("SELECT trackee.register('phone', 's6')").stdout == "2\n")
    }

    @Test func withoutAGrantAPersonSeesNothingOfAnother() throws {
        guard let hub = try Hub() else { return }
        func seen() throws -> [String] {
            try [
                "SELECT string_agg(timeline || '/' || name, ' ' ORDER BY timeline, name) FROM trackee.device",
                "SELECT string_agg(DISTINCT person, ' ' ORDER BY person) || ' ' || count(*) FROM trackee.change",
                "SELECT string_agg(name, ' ') FROM trackee.person",
                "SELECT count(*) FROM trackee.person WHERE name = 'alice'",
            ].map { try hub.asBob($0).stdout }
        }
        #expect(try hub.bob.run("add", "-p", "Reading", "--from", "08:00", "--to", "09:00").status == 0)
        _ = try ReplicationPassTests.sync(hub.bob)
        #expect(try seen() == ["bob/desk\n", "bob 2\n", "bob\n", "0\n"])
        // The store token is no person's to read, not even their own.
        Self.refused(try hub.asBob("SELECT store FROM trackee.device"), "permission denied for table device")
        // Granted read: alice's devices and changes; never her channel.
        #expect(try hub.alice.run("hub", "grant", "bob", "--read").status == 0)
        _ = try ReplicationPassTests.sync(hub.bob)
        #expect(try seen() == ["alice/desk.alice alice/laptop bob/desk\n", "alice bob 4\n", "bob\n", "0\n"])
        // Revoked: nothing again, the copy's device gone with the grant.
        #expect(try hub.alice.run("hub", "revoke", "bob").status == 0)
        #expect(try seen() == ["bob/desk\n", "bob 2\n", "bob\n", "0\n"])
        _ = try ReplicationPassTests.sync(hub.bob)
        #expect(!FileManager.default.fileExists(atPath: hub.bob.path("store/people/alice.sqlite3")))
    }

    @Test func aPushIsHeardOnlyOnTheChannelOfItsTimeline() throws {
        guard let hub = try Hub() else { return }
        func session(_ user: String, _ password: String) throws -> (HubConnection, LibpqHubSession) {
            let settings = HubSettings(
                url: hub.pg.url(database: "trackee"), user: user, sslmode: .disable, device: "probe", origin: "test")
            let connection = try HubConnection(settings, password: password)
            return (connection, LibpqHubSession(connection))
        }
        let (_, bob) = try session("bob", "bob-secret")
        try bob.listen()
        // The channel of issue 33's hub, where every push was announced.
        let (old, _) = try session("bob", "bob-secret")
        try old.execute("LISTEN trackee_change")
        let (_, aliceListening) = try session("alice", "laptop-secret")
        try aliceListening.listen()
        let (_, alicePushing) = try session("alice", "laptop-secret")
        try alicePushing.listen()
        // Bob cannot read alice's channel to listen on it.
        #expect(try hub.asBob("SELECT channel FROM trackee.person WHERE name = 'alice'").stdout == "")
        #expect(try hub.alice.run("add", "-p", "Docs", "--from", "11:00", "--to", "12:00").status == 0)
        #expect(try ReplicationPassTests.sync(hub.alice) == "hub sync: device laptop (1): pushed 1, pulled 0, applied 0\n")
        #expect(try aliceListening.waitForPush(milliseconds: 2000, excluding: "probe"))
        #expect(try alicePushing.waitForPush(milliseconds: 2000, excluding: "probe"))
        #expect(try !bob.waitForPush(milliseconds: 500, excluding: "probe"))
        #expect(try old.waitForNotification(milliseconds: 200) == [])
        // A push's own connection is not woken by it; it returns at once.
        _ = try alicePushing.register(device: "probe", store: "probe-store", timeline: nil)
        try alicePushing.push(device: "probe", person: nil, [
            HubOutgoingChange(sequence: 1, clock: "0001795417200000-00000-probe", kind: "entry", body: "{}"),
        ])
        #expect(try aliceListening.waitForPush(milliseconds: 2000, excluding: "probe"))
        #expect(try !alicePushing.waitForPush(milliseconds: 0, excluding: "probe"))
        #expect(try !bob.waitForPush(milliseconds: 500, excluding: "probe"))
    }

    @Test func aPushThatMeetsOtherContentUnderItsSequenceFailsAndPushesNothing() throws {
        guard let hub = try Hub() else { return }
        // The next sequence the laptop will use holds something else.
        let next = Int(try hub.pg.sql("SELECT max(sequence) + 1 FROM change WHERE device = 'laptop'", database: "trackee")
            .trimmingCharacters(in: .newlines))!
        let planted = try hub.asAlice("""
            INSERT INTO trackee.change (person, device, sequence, clock, kind, body)
            VALUES ('alice', 'laptop', \(next), '0001795417200000-00009-laptop', 'entry', '{"id": 9001, "fields": {}}')
            """)
        #expect(planted.status == 0, "\(planted)")
        #expect(try hub.alice.run("add", "-p", "Docs", "--from", "11:00", "--to", "12:00").status == 0)
        #expect(try hub.alice.run("add", "-p", "Docs", "--from", "13:00", "--to", "14:00").status == 0)
        let r = try hub.alice.run("hub", "sync")
        #expect(r.status == 75, "\(r)")
        #expect(r.stdout == "")
        #expect(r.stderr == failure(
            "\(hub.alice.path("config/trackee/config.yaml")):2: hub: the hub holds a different change \(next) from "
                + "device laptop already, so this store is not the one that pushed it (was it restored from an older "
                + "copy?); nothing was pushed, and the changes stay queued here"))
        #expect(try hub.count("change WHERE device = 'laptop'") == "3\n")
        let status = try hub.alice.run("hub", "status", "--json")
        #expect(status.stdout.contains(#""queued":2"#), "\(status)")
    }

    @Test func theSameChangesPushedMeanwhileFromAnotherProcessAreNotDifferent() throws {
        guard let hub = try Hub() else { return }
        let settings = HubSettings(
            url: hub.pg.url(database: "trackee"), user: "alice", sslmode: .disable, device: "probe", origin: "test")
        let first = try HubConnection(settings, password: "laptop-secret")
        let second = LibpqHubSession(try HubConnection(settings, password: "laptop-secret"))
        _ = try second.register(device: "probe", store: "probe-store", timeline: nil)
        let changes = [
            HubOutgoingChange(sequence: 1, clock: "0001795417200000-00000-probe", kind: "entry", body: #"{"id": 1}"#),
            HubOutgoingChange(sequence: 2, clock: "0001795417200000-00001-probe", kind: "entry", body: #"{"id": 2}"#),
        ]
        // The first push holds the turn, its changes written, not yet
        // committed, while the second (the daemon, say) waits for it.
        try first.execute("BEGIN")
        try first.execute("SELECT pg_advisory_xact_lock(\(HubMigrator.pushLock))")
        try first.execute("""
            INSERT INTO trackee.change (person, device, sequence, clock, kind, body) VALUES
            ('alice', 'probe', 1, '0001795417200000-00000-probe', 'entry', '{"id": 1}'),
            ('alice', 'probe', 2, '0001795417200000-00001-probe', 'entry', '{"id": 2}')
            """)
        /// The second push, on a thread of its own, which alone uses it.
        final class Pusher: @unchecked Sendable {
            let session: LibpqHubSession
            let changes: [HubOutgoingChange]
            let done = DispatchSemaphore(value: 0)
            var outcome: Result<Void, Error>?

            init(_ session: LibpqHubSession, _ changes: [HubOutgoingChange]) {
                self.session = session
                self.changes = changes
            }

            func start() {
                DispatchQueue.global().async { [self] in
                    outcome = Result { try session.push(device: "probe", person: nil, changes) }
                    done.signal()
                }
            }
        }
        let pusher = Pusher(second, changes)
        pusher.start()
        #expect(pusher.done.wait(timeout: .now() + 1) == .timedOut, "the second push did not wait for the first")
        try first.execute("COMMIT")
        pusher.done.wait()
        #expect(throws: Never.self) { try pusher.outcome!.get() }
        #expect(try hub.count("change WHERE device = 'probe'") == "2\n")
    }

    @Test func checkFindsNothingOnAGoodHubAndEachBreachOnABrokenOne() throws {
        guard let hub = try Hub() else { return }
        let good = try hub.bob.run("hub", "check")
        #expect(good.status == 0, "\(good)")
        #expect(good.lines == [
            "hub check: all is well (as bob): trackee_owner owns schema trackee and everything in it, row-level "
                + "security binds every table, and nothing is granted to PUBLIC",
        ])
        let json = try hub.bob.run("hub", "check", "--json")
        #expect(json.stdout == #"{"findings":[],"ok":true,"role":"bob"}"# + "\n", "\(json)")
        // The administrator loosens two things.
        try hub.pg.sql("GRANT SELECT ON trackee.change TO PUBLIC", database: "trackee")
        try hub.pg.sql("ALTER TABLE trackee.device NO FORCE ROW LEVEL SECURITY", database: "trackee")
        let broken = try hub.bob.run("hub", "check")
        #expect(broken.status == 1, "\(broken)")
        #expect(broken.lines == [
            "table trackee.change: grants SELECT to PUBLIC",
            "table trackee.device: row-level security is not forced, so its owner is not bound by it",
        ])
        #expect(broken.stderr == failure("hub check found 2 problems (above); show them to the hub's administrator"))
        let data = try hub.bob.run("hub", "check", "--json")
        #expect(data.status == 1, "\(data)")
        #expect(data.stdout == #"{"findings":["#
                + #"{"kind":"public","object":"table trackee.change","problem":"grants SELECT to PUBLIC"},"#
                + #"{"kind":"rls","object":"table trackee.device","#
                + #""problem":"row-level security is not forced, so its owner is not bound by it"}"#
                + #"],"ok":false,"role":"bob"}"# + "\n", "\(data)")
        #expect(data.stderr == "")
        // And more: a person given ownership, a policy of their own, a
        // grant beyond what persons get, a person in trackee_owner.
        try hub.pg.sql("""
            ALTER TABLE trackee.share OWNER TO alice;
            CREATE POLICY everything ON trackee.change FOR SELECT USING (true);
            GRANT TRUNCATE ON trackee.person TO trackee_person;
            GRANT trackee_owner TO bob;
            ALTER TABLE trackee.change DISABLE TRIGGER change_told;
            DROP POLICY person_self ON trackee.person;
            """, database: "trackee")
        let more = try hub.bob.run("hub", "check")
        #expect(more.status == 1, "\(more)")
        #expect(more.lines == [
            "table trackee.share: is owned by alice, not trackee_owner",
            "role bob: is a person and a member of trackee_owner, which owns the hub's tables",
            "table trackee.change: grants SELECT to PUBLIC",
            "table trackee.person: grants TRUNCATE to trackee_person, more than persons need",
            "table trackee.device: row-level security is not forced, so its owner is not bound by it",
            "table trackee.change: has policy everything, which trackee does not make",
            "table trackee.person: lacks policy person_self",
            "table trackee.change: has trigger change_told disabled",
        ], "\(more)")
        // The superuser, whom row-level security does not bind.
        let admin = try hub.admin.run("hub", "check")
        #expect(admin.status == 1)
        #expect(admin.lines.first
                == "role hubadmin: you connect as it, and it is a superuser: row-level security does not bind it")
    }
}
