import Foundation
import Testing
import TrackeeTestSupport

/// Where last-writer-wins discards someone's work, the merge says so, and
/// `hub resolve` brings the work back on every device.
@Suite(.serialized) struct HubConflictTests {
    @Test func anEntryEditedOnOneDeviceAndDeletedOnAnotherIsAConflictThatKeepBringsBack() throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let d = try ReplicationPassTests.devices(pg, ["laptop", "desktop"])
        let (laptop, desktop) = (d[0], d[1])
        #expect(try laptop.run("add", "-p", "Docs", "--from", "09:00", "--to", "10:00").status == 0)
        _ = try ReplicationPassTests.sync(laptop)
        _ = try ReplicationPassTests.sync(desktop)
        #expect(try laptop.run(["edit", "1001", "-d", "the real work"], now: "2026-11-20 12:00").status == 0)
        #expect(try desktop.run(["delete", "1001"], now: "2026-11-20 12:05").status == 0)
        for t in [laptop, desktop, laptop] { _ = try ReplicationPassTests.sync(t, now: "2026-11-20 12:10") }
        // The delete is newer and stands on both; both say what it cost.
        for t in [laptop, desktop] {
            #expect(try ReplicationPassTests.export(t) == "[]\n")
            let listed = try t.run(["hub", "conflicts"], now: "2026-11-20 12:10")
            #expect(listed.lines == [#"1  edited-deleted  entry #1001 Docs 09:00 "the real work"  (desktop won)"#], "\(listed)")
        }
        let json = try laptop.run(["hub", "conflicts", "--json"], now: "2026-11-20 12:10").stdout
        #expect(json == #"[{"device":"desktop","id":1,"kind":"entry","noticed":"2026-11-20T12:10:00+01:00","row":1001,"summary":"entry #1001 Docs 2026-11-20T09:00:00+01:00 \"the real work\"","what":"edited-deleted"}]"# + "\n")
        let kept = try laptop.run(["hub", "resolve", "1", "--keep"], now: "2026-11-20 12:15")
        #expect(kept.lines == ["brought back entry #1001; the next hub sync shares it"], "\(kept)")
        #expect(try laptop.run(["hub", "conflicts"], now: "2026-11-20 12:15").lines == ["no conflicts"])
        for t in [laptop, desktop] { _ = try ReplicationPassTests.sync(t, now: "2026-11-20 12:20") }
        let back = try ReplicationPassTests.export(laptop)
        #expect(back.contains(#""id":1001,"start":"2026-11-20T09:00:00+01:00","end":"2026-11-20T10:00:00+01:00""#), "\(back)")
        #expect(back.contains(#""description":"the real work""#), "\(back)")
        #expect(try ReplicationPassTests.export(desktop) == back)
        let missing = try laptop.run(["hub", "resolve", "7", "--drop"])
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stderr == failure("no open conflict is numbered 7; trackee hub conflicts lists them"))
    }

    @Test func aProjectDeletedWhileAnotherDeviceUsesItLeavesItsEntriesWithoutItUntilKept() throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let d = try ReplicationPassTests.devices(pg, ["laptop", "desktop"])
        let (laptop, desktop) = (d[0], d[1])
        #expect(try laptop.run("projects", "add", "Legacy").status == 0)
        _ = try ReplicationPassTests.sync(laptop)
        _ = try ReplicationPassTests.sync(desktop)
        #expect(try laptop.run("projects", "delete", "Legacy").status == 0)
        #expect(try desktop.run("add", "-p", "Legacy", "--from", "09:00", "--to", "10:00").status == 0)
        for t in [laptop, desktop, laptop] { _ = try ReplicationPassTests.sync(t) }
        let exported = try ReplicationPassTests.export(desktop)
        #expect(exported.contains(#""id":1002,"#) && exported.contains(#""project":"""#), "\(exported)")
        #expect(try ReplicationPassTests.export(laptop) == exported)
        let listed = try desktop.run("hub", "conflicts")
        #expect(listed.lines == [#"1  deleted-in-use  project #1001 "Legacy"  (laptop won)"#], "\(listed)")
        #expect(try desktop.run("hub", "resolve", "1", "--keep").status == 0)
        for t in [desktop, laptop] { _ = try ReplicationPassTests.sync(t) }
        let kept = try ReplicationPassTests.export(laptop)
        #expect(kept.contains(#""project":"Legacy""#), "\(kept)")
        #expect(try ReplicationPassTests.export(desktop) == kept)
    }

    /// Two devices write one field, neither having seen the other's write:
    /// the newer stands, and each device that sees both says whose value
    /// it discarded; `--keep` writes it back as a change made here.
    @Test func aFieldTwoDevicesWroteUnseenIsAConflictThatKeepWritesBack() throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let d = try ReplicationPassTests.devices(pg, ["laptop", "desktop"])
        let (laptop, desktop) = (d[0], d[1])
        #expect(try laptop.run("add", "-p", "Docs", "--from", "09:00", "--to", "10:00", "-d", "first").status == 0)
        for t in d { _ = try ReplicationPassTests.sync(t) }
        #expect(try laptop.run(["edit", "1001", "-d", "the laptop's"], now: "2026-11-20 12:00").status == 0)
        #expect(try desktop.run(["edit", "1001", "-d", "the desktop's", "--to", "10:30"], now: "2026-11-20 12:05").status == 0)
        for t in [laptop, desktop, laptop] { _ = try ReplicationPassTests.sync(t, now: "2026-11-20 12:10") }
        for t in d {
            #expect(try ReplicationPassTests.export(t).contains(#""end":"2026-11-20T10:30:00+01:00","duration_seconds":5400,"project":"Docs","client":"","description":"the desktop's""#))
            #expect(try t.run(["hub", "conflicts"], now: "2026-11-20 12:10").lines == [
                #"1  overwritten  entry #1001 Docs 09:00 "the desktop's": description "the laptop's" from laptop lost  (desktop won)"#,
            ])
        }
        let json = try laptop.run(["hub", "conflicts", "--json"], now: "2026-11-20 12:10").stdout
        #expect(json.contains(#""field":"description","id":1,"kind":"entry","lost":"\"the laptop's\"","lost_device":"laptop""#), "\(json)")
        let kept = try laptop.run(["hub", "resolve", "1", "--keep"], now: "2026-11-20 12:15")
        #expect(kept.lines == ["put back the description of entry #1001 that laptop wrote; the next hub sync shares it"], "\(kept)")
        for t in [laptop, desktop] { _ = try ReplicationPassTests.sync(t, now: "2026-11-20 12:20") }
        for t in d {
            #expect(try ReplicationPassTests.export(t).contains(#""end":"2026-11-20T10:30:00+01:00","duration_seconds":5400,"project":"Docs","client":"","description":"the laptop's""#))
        }
        // Written back after the desktop's write, seen: no new conflict.
        #expect(try laptop.run(["hub", "conflicts"], now: "2026-11-20 12:20").lines == ["no conflicts"])
        #expect(try desktop.run(["hub", "conflicts"], now: "2026-11-20 12:20").lines.count == 1)
    }
}
