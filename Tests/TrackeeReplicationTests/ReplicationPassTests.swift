import Foundation
import Testing
import TrackeeTestSupport

/// `trackee hub sync` between device stores through a real PostgreSQL 15.
@Suite(.serialized) struct ReplicationPassTests {
    /// A hub with its schema, and one sandbox per device name.
    static func devices(_ pg: PostgresCluster, _ names: [String]) throws -> [Sandbox] {
        let first = try HubInitTests.sandbox(pg)
        #expect(try first.run("hub", "init").status == 0)
        return try names.map { try HubInitTests.settings(url: pg.url(database: "trackee"), password: "laptop-secret", device: $0) }
    }

    static func sync(_ t: Sandbox, now: String? = nil, batch: Int? = nil) throws -> String {
        let r = try t.run(["hub", "sync"], now: now, environment: ["TRACKEE_HUB_BATCH": batch.map(String.init)])
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "", "\(r)")
        return r.stdout
    }

    static func export(_ t: Sandbox) throws -> String {
        let r = try t.run("export", "--format", "json", "--from", "2026-01-01", "--to", "2027-01-01")
        #expect(r.status == 0, "\(r)")
        return r.stdout
    }

    @Test func entriesMadeOnOneDeviceReachTheOtherWithTheSameIds() throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let d = try Self.devices(pg, ["laptop", "desktop"])
        let (laptop, desktop) = (d[0], d[1])
        // Made before the laptop joined: renumbered to end in its number.
        #expect(try laptop.run("add", "-p", "Docs", "--from", "09:00", "--to", "10:00", "-d", "write").status == 0)
        #expect(try Self.sync(laptop) == "hub sync: device laptop (1): pushed 2, pulled 0, applied 0\n")
        #expect(try Self.sync(desktop) == "hub sync: device desktop (2): pushed 0, pulled 2, applied 2\n")
        let exported = try Self.export(laptop)
        #expect(exported.hasPrefix("[\n" + #"{"id":1001,"start":"2026-11-20T09:00:00+01:00""#), "\(exported)")
        #expect(try Self.export(desktop) == exported)
        // Made after joining: the desktop's ids end in 2.
        #expect(try desktop.run("add", "-p", "Docs", "--from", "10:00", "--to", "11:00").status == 0)
        #expect(try desktop.run("edit", "1001", "-d", "rewrite").status == 0)
        #expect(try Self.sync(desktop) == "hub sync: device desktop (2): pushed 2, pulled 0, applied 0\n")
        #expect(try Self.sync(laptop) == "hub sync: device laptop (1): pushed 0, pulled 2, applied 2\n")
        let both = try Self.export(laptop)
        #expect(both.contains(#""id":1001,"#) && both.contains(#""id":1002,"#) && both.contains(#""description":"rewrite""#),
                "\(both)")
        #expect(try Self.export(desktop) == both)
    }

    @Test func twoTimersStartedOfflineBecomeOneAfterTheOther() throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let d = try Self.devices(pg, ["laptop", "desktop"])
        let (laptop, desktop) = (d[0], d[1])
        _ = try Self.sync(laptop)
        _ = try Self.sync(desktop)
        #expect(try laptop.run(["start", "-p", "Docs", "--at", "09:00"], now: "2026-11-20 09:00").status == 0)
        #expect(try desktop.run(["start", "-p", "Review", "--at", "09:30"], now: "2026-11-20 09:30").status == 0)
        for t in [laptop, desktop, laptop] { _ = try Self.sync(t, now: "2026-11-20 10:00") }
        let log = try laptop.run(["log", "--json"], now: "2026-11-20 10:00")
        #expect(try Self.export(desktop) == Self.export(laptop))
        let exported = try Self.export(laptop)
        #expect(exported.contains(#""start":"2026-11-20T09:00:00+01:00","end":"2026-11-20T09:30:00+01:00","duration_seconds":1800,"project":"Docs""#), "\(exported) \(log)")
        let status = try desktop.run(["status"], now: "2026-11-20 10:00")
        #expect(status.stdout.hasPrefix("running Review"), "\(status)")
        let laptopStatus = try laptop.run(["status"], now: "2026-11-20 10:00")
        #expect(laptopStatus.stdout.hasPrefix("running Review"), "\(laptopStatus)")
    }

    @Test(arguments: ["lots", "0", "-5", "100001"])
    func aBatchThatIsNotACountIsRefusedBeforeTheHubIsReached(batch: String) throws {
        let t = try HubInitTests.settings(url: "postgresql:///trackee?host=/nonexistent", password: "secret")
        let r = try t.run(["hub", "sync"], environment: ["TRACKEE_HUB_BATCH": batch])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr == "trackee: TRACKEE_HUB_BATCH is \"\(batch)\"; give a number of changes from 1 to 100000\n", "\(r)")
        #expect(r.stdout == "", "\(r)")
    }
}
