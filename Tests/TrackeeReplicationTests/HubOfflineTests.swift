import Foundation
import Testing
import TrackeeTestSupport

/// Offline first: a week's work on a device that never reaches the hub
/// ends where the same week online would have; a hub out of reach costs
/// one line, and the work done meanwhile goes out on the next sync.
@Suite(.serialized) struct HubOfflineTests {
    /// One week at two desks: the laptop's mornings and evenings, the
    /// desktop's afternoons, each editing the two entries both had before
    /// the week (different fields), and the desktop deleting one the
    /// laptop had edited.
    static func week(_ laptop: Sandbox, _ desktop: Sandbox, desktopOnline: Bool) throws {
        func at(_ day: Int, _ time: String) -> String { "2026-11-\(16 + day) \(time)" }
        func run(_ t: Sandbox, _ arguments: [String], _ now: String) throws {
            let r = try t.run(arguments, now: now)
            #expect(r.status == 0, "\(r)")
            // Online, what one device did reaches the other before its
            // next command, as `trackee run` makes it within a second.
            let order = t === laptop ? [laptop, desktop] : [desktop, laptop]
            for device in order where device === laptop || desktopOnline { _ = try ReplicationPassTests.sync(device, now: now) }
        }
        for day in 0..<7 {
            try run(laptop, ["start", "-p", "Docs", "--at", "09:00"], at(day, "09:00"))
            try run(laptop, ["stop", "--at", "12:00"], at(day, "12:00"))
            try run(desktop, ["start", "-p", "Review", "--at", "13:00"], at(day, "13:00"))
            try run(desktop, ["stop", "--at", "14:30"], at(day, "14:30"))
            try run(laptop, ["start", "-p", "Mail", "--at", "15:00"], at(day, "15:00"))
            try run(desktop, ["add", "-p", "Notes", "--from", at(day, "16:00"), "--to", at(day, "16:30"), "-d", "day \(day)"],
                    at(day, "16:30"))
            try run(laptop, ["stop", "--at", "19:00"], at(day, "19:00"))
            switch day {
            case 1: try run(laptop, ["edit", "1001", "-d", "planning, as agreed"], at(day, "19:30"))
            case 2: try run(laptop, ["edit", "2001", "-d", "old notes"], at(day, "19:30"))
            case 3: try run(desktop, ["edit", "1001", "--from", "2026-11-13 08:30"], at(day, "17:00"))
            case 4: try run(desktop, ["delete", "2001"], at(day, "17:00"))
            default: break
            }
        }
    }

    @Test func aWeekOfflineEndsWhereAWeekOnlineDoes() throws {
        var exports: [String] = []
        for online in [true, false] {
            guard let pg = try HubInitTests.cluster() else { return }
            let d = try ReplicationPassTests.devices(pg, ["laptop", "desktop"])
            _ = try ReplicationPassTests.sync(d[0], now: "2026-11-13 08:00")
            #expect(try d[0].run(["add", "-p", "Plan", "--from", "2026-11-13 09:00", "--to", "2026-11-13 10:00"],
                                 now: "2026-11-13 10:00").status == 0)
            #expect(try d[0].run(["add", "-p", "Plan", "--from", "2026-11-13 11:00", "--to", "2026-11-13 12:00"],
                                 now: "2026-11-13 12:00").status == 0)
            for t in d + d { _ = try ReplicationPassTests.sync(t, now: "2026-11-13 12:00") }
            try Self.week(d[0], d[1], desktopOnline: online)
            if !online {
                // Seven days of the desktop's work, waiting: 3 changes a
                // day (a start, a stop, an add) and the 2 intents (the
                // start and the stop), its projects Review and Notes, an
                // edit and a delete: 21 + 14 + 4.
                let status = try d[1].run(["hub", "status", "--json"], now: "2026-11-22 23:00").stdout
                #expect(status.contains(#""queued":39"#), "\(status)")
            }
            // Offline, the week goes out and comes in 4 changes at a time:
            // each next batch is fetched while one is applied, and the
            // log is checkpointed beside them.
            // The laptop's week, pulled by the desktop: 4 changes and 4
            // intents a day, its projects Docs and Mail, two edits:
            // 28 + 28 + 4.
            let pulls = try d.map { try ReplicationPassTests.sync($0, now: "2026-11-22 23:00", batch: online ? nil : 4) }
            if !online {
                #expect(pulls == ["hub sync: device laptop (1): pushed 0, pulled 0, applied 0\n",
                                  "hub sync: device desktop (2): pushed 39, pulled 60, applied 60, 1 conflict(s)\n"], "\(pulls)")
                let laptop = try ReplicationPassTests.sync(d[0], now: "2026-11-22 23:00", batch: 4)
                #expect(laptop == "hub sync: device laptop (1): pushed 0, pulled 39, applied 39, 1 conflict(s)\n", "\(laptop)")
            }
            for t in d + d { _ = try ReplicationPassTests.sync(t, now: "2026-11-22 23:00") }
            let exported = try ReplicationPassTests.export(d[0])
            #expect(try ReplicationPassTests.export(d[1]) == exported)
            exports.append(exported)
        }
        #expect(exports[0].split(separator: "\n").count == 31, "\(exports[0])")
        #expect(exports[0].contains(#""start":"2026-11-13T08:30:00+01:00","end":"2026-11-13T10:00:00+01:00""#))
        #expect(exports[0].contains(#""description":"planning, as agreed""#))
        #expect(!exports[0].contains("old notes"))
        #expect(exports[1] == exports[0])
        if exports[1] != exports[0] {
            try exports[0].write(toFile: "/tmp/wk-online.json", atomically: true, encoding: .utf8)
            try exports[1].write(toFile: "/tmp/wk-offline.json", atomically: true, encoding: .utf8)
        }
    }

    @Test func aHubOutOfReachIsOneLineAndTheWorkGoesOutLater() throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let d = try ReplicationPassTests.devices(pg, ["laptop", "desktop"])
        for t in d { _ = try ReplicationPassTests.sync(t) }
        // The same settings, with the hub's port closed.
        let settings = d[0].path("config/trackee/config.yaml")
        let good = try String(contentsOfFile: settings, encoding: .utf8)
        try good.replacingOccurrences(of: "port=\(pg.port)", with: "port=1").write(
            toFile: settings, atomically: true, encoding: .utf8)
        #expect(try d[0].run("add", "-p", "Docs", "--from", "09:00", "--to", "10:00").status == 0)
        let r = try d[0].run("hub", "sync")
        #expect(r.status == 75)
        #expect(r.stderr.hasPrefix("trackee: \(settings):2: hub: cannot reach the hub at postgresql:///trackee?host="), "\(r)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r)")
        #expect(try d[0].run("status").status == 0)
        let status = try d[0].run("hub", "status").lines
        #expect(status.contains("queued     2"), "\(status)")
        #expect(status.contains { $0.hasPrefix("last error ") && $0.contains("cannot reach the hub") }, "\(status)")
        try good.write(toFile: settings, atomically: true, encoding: .utf8)
        #expect(try ReplicationPassTests.sync(d[0]) == "hub sync: device laptop (1): pushed 2, pulled 0, applied 0\n")
        _ = try ReplicationPassTests.sync(d[1])
        #expect(try ReplicationPassTests.export(d[1]) == ReplicationPassTests.export(d[0]))
        #expect(try d[0].run("hub", "status").lines.contains("queued     0"))
    }

    /// Issue 33's measurement: a stop made offline stands, whichever
    /// device syncs first. The laptop starts Docs at 13:00 and syncs; then,
    /// both offline, it stops Docs at 13:30 and the desktop (which never
    /// heard of Docs) starts Review at 15:00. Release 9c9120b closed Docs
    /// at 15:00 on both, with a fresh stamp that beat the 13:30 stop.
    @Test(arguments: [["laptop", "desktop", "laptop"], ["desktop", "laptop", "desktop"]])
    func aStopMadeOfflineStandsWhateverTheOrderOfSyncs(order: [String]) throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let d = try ReplicationPassTests.devices(pg, ["laptop", "desktop"])
        let (laptop, desktop) = (d[0], d[1])
        for t in d { _ = try ReplicationPassTests.sync(t, now: "2026-11-23 12:00") }
        #expect(try laptop.run(["start", "-p", "Docs", "--at", "13:00"], now: "2026-11-23 13:00").status == 0)
        #expect(try ReplicationPassTests.sync(laptop, now: "2026-11-23 13:01")
                == "hub sync: device laptop (1): pushed 3, pulled 0, applied 0\n")
        #expect(try laptop.run(["stop", "--at", "13:30"], now: "2026-11-23 13:30").status == 0)
        #expect(try desktop.run(["start", "-p", "Review", "--at", "15:00"], now: "2026-11-23 15:00").status == 0)
        for name in order { _ = try ReplicationPassTests.sync(name == "laptop" ? laptop : desktop, now: "2026-11-23 15:10") }
        let docs = #"{"id":1001,"start":"2026-11-23T13:00:00+01:00","end":"2026-11-23T13:30:00+01:00","duration_seconds":1800,"project":"Docs","client":"","description":"","tags":[],"billable":false,"rate":null,"source":"cli"}"#
        for t in d {
            #expect(try ReplicationPassTests.export(t) == "[\n\(docs)\n]\n")
            #expect(try t.run(["status"], now: "2026-11-23 15:10").lines.prefix(2)
                    == ["running Review #1002", "since   15:00 (0:10 elapsed)"])
            #expect(try t.run(["hub", "conflicts"], now: "2026-11-23 15:10").lines == ["no conflicts"])
        }
        // In both orders the desktop pulls the start before the stop.
        #expect(try desktop.run(["history"], now: "2026-11-23 15:10").lines == [
            "#3  2026-11-23 13:30  cli  stop  stopped #1001  on laptop",
            "#2  2026-11-23 13:00  cli  start Docs  started #1001  on laptop",
            "#1  2026-11-23 15:00  cli  start Review  started #1002",
        ])
    }
}
