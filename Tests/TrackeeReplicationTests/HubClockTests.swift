import Foundation
import Testing
import TrackeeTestSupport

/// Device clocks that are wrong: hours behind keeps cause before effect;
/// more than a day ahead is refused on the device that made the change.
@Suite(.serialized) struct HubClockTests {
    @Test func aDeviceThreeHoursBehindStillWritesAfterWhatItHasSeen() throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let d = try ReplicationPassTests.devices(pg, ["laptop", "desktop"])
        let (laptop, desktop) = (d[0], d[1])
        _ = try ReplicationPassTests.sync(laptop, now: "2026-11-20 11:00")
        #expect(try laptop.run(["add", "-p", "Docs", "--from", "09:00", "--to", "10:00"], now: "2026-11-20 11:00").status == 0)
        #expect(try laptop.run(["edit", "1001", "-d", "laptop at noon"], now: "2026-11-20 12:00").status == 0)
        _ = try ReplicationPassTests.sync(laptop, now: "2026-11-20 12:00")
        // The desktop's clock says 09:05 when it is past noon: it has seen
        // the laptop's edit, so its own edit still comes after it.
        _ = try ReplicationPassTests.sync(desktop, now: "2026-11-20 09:05")
        #expect(try desktop.run(["edit", "1001", "-d", "desktop after reading it"], now: "2026-11-20 09:06").status == 0)
        _ = try ReplicationPassTests.sync(desktop, now: "2026-11-20 09:07")
        _ = try ReplicationPassTests.sync(laptop, now: "2026-11-20 12:10")
        for t in [laptop, desktop] {
            #expect(try ReplicationPassTests.export(t).contains(#""description":"desktop after reading it""#))
        }
        let clock = try desktop.run(["hub", "status", "--json"], now: "2026-11-20 09:08").stdout
        // Its clock ran on from the laptop's noon stamp, not from 09:06.
        #expect(clock.contains(#""clock":"0001795172400000-"#), "\(clock)")
    }

    @Test func aChangeStampedMoreThanADayAheadIsRefusedOnTheDeviceThatMadeIt() throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let d = try ReplicationPassTests.devices(pg, ["laptop"])
        let laptop = d[0]
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "Europe/Prague")
        format.dateFormat = "yyyy-MM-dd HH:mm"
        let ahead = format.string(from: Date().addingTimeInterval(3 * 86_400))
        _ = try ReplicationPassTests.sync(laptop, now: ahead)
        #expect(try laptop.run(["add", "-p", "Docs", "--from", "09:00", "--to", "10:00"], now: ahead).status == 0)
        let r = try laptop.run(["hub", "sync"], now: ahead)
        #expect(r.status == 75, "\(r)")
        #expect(r.stderr.hasPrefix(failure(
            "\(laptop.path("config/trackee/config.yaml")):2: hub: a change made here at ").dropLast()), "\(r)")
        #expect(r.stderr.hasSuffix(
            " is stamped 72.0 hours ahead of the hub's clock (more than a day); set this device's clock right "
                + "(timedatectl) and sync again\n"), "\(r)")
        #expect(try pg.sql("SELECT count(*) FROM change", database: "trackee") == "0\n")
        // Local work goes on, and the status names the error.
        #expect(try laptop.run(["status"], now: ahead).status == 0)
        let status = try laptop.run(["hub", "status"], now: ahead)
        #expect(status.lines.contains { $0.hasPrefix("last error ") && $0.hasSuffix("(timedatectl) and sync again") }, "\(status)")
    }
}
