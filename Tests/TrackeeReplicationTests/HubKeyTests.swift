import Foundation
import Testing
import TrackeeTestSupport

/// Keys and rule firings hold across devices: a keyed intent or a firing
/// applied on two devices before either heard of the other stands once,
/// the earlier application; applied again after a sync it changes nothing.
@Suite(.serialized) struct HubKeyTests {
    @Test func aKeyAppliedOnTwoDevicesStandsOnceTheEarlierApplication() throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let d = try ReplicationPassTests.devices(pg, ["laptop", "desktop"])
        let (laptop, desktop) = (d[0], d[1])
        _ = try ReplicationPassTests.sync(laptop)
        _ = try ReplicationPassTests.sync(desktop)
        // A phone's retry reached the second daemon a minute later.
        #expect(try laptop.run(["start", "-p", "Docs", "--key", "phone-17", "--at", "09:00"], now: "2026-11-20 09:00").status == 0)
        #expect(try desktop.run(["start", "-p", "Mail", "--at", "08:30"], now: "2026-11-20 08:30").status == 0)
        #expect(try desktop.run(["start", "-p", "Docs", "--key", "phone-17", "--at", "09:01"], now: "2026-11-20 09:01").status == 0)
        for t in [laptop, desktop, laptop, desktop] { _ = try ReplicationPassTests.sync(t, now: "2026-11-20 09:10") }
        let exported = try ReplicationPassTests.export(laptop)
        #expect(try ReplicationPassTests.export(desktop) == exported)
        // Mail ran from 08:30 until the laptop's Docs began; the desktop's
        // own Docs is taken back, and Docs from 09:00 runs on both.
        #expect(exported == "[\n" + #"{"id":1002,"start":"2026-11-20T08:30:00+01:00","end":"2026-11-20T09:00:00+01:00","duration_seconds":1800,"project":"Mail","client":"","description":"","tags":[],"billable":false,"rate":null,"source":"cli"}"# + "\n]\n")
        for t in [laptop, desktop] {
            #expect(try t.run(["status"], now: "2026-11-20 09:10").lines.prefix(2) == ["running Docs #1001", "since   09:00 (0:10 elapsed)"])
        }
        // The key is known on the desktop now: applying it again changes nothing.
        let again = try desktop.run(["start", "-p", "Docs", "--key", "phone-17", "--json"], now: "2026-11-20 09:20")
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains(#""replayed":true"#), "\(again)")
        #expect(try ReplicationPassTests.export(desktop) == exported)
    }

    /// Intents without a key travel as well as keyed ones: the other
    /// device's history lists them, naming where they were applied.
    @Test func everyIntentReachesTheOtherDevicesHistory() throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let d = try ReplicationPassTests.devices(pg, ["laptop", "desktop"])
        let (laptop, desktop) = (d[0], d[1])
        _ = try ReplicationPassTests.sync(laptop)
        _ = try ReplicationPassTests.sync(desktop)
        #expect(try laptop.run(["start", "-p", "Docs", "--at", "09:00"], now: "2026-11-20 09:00").status == 0)
        #expect(try laptop.run(["stop", "--at", "09:30"], now: "2026-11-20 09:30").status == 0)
        #expect(try laptop.run(["start", "-p", "Mail", "--key", "phone-3"], now: "2026-11-20 09:40").status == 0)
        // Journal: two projects, two entries, one edit; keys: two log rows
        // and one intent key.
        #expect(try ReplicationPassTests.sync(laptop, now: "2026-11-20 09:45")
                == "hub sync: device laptop (1): pushed 8, pulled 0, applied 0\n")
        #expect(try ReplicationPassTests.sync(desktop, now: "2026-11-20 09:45")
                == "hub sync: device desktop (2): pushed 0, pulled 8, applied 8\n")
        let history = try desktop.run(["history"], now: "2026-11-20 09:50")
        #expect(history.status == 0, "\(history)")
        #expect(history.lines == [
            "#3  2026-11-20 09:40  cli  start Mail  started #2001  on laptop",
            "#2  2026-11-20 09:30  cli  stop  stopped #1001  on laptop",
            "#1  2026-11-20 09:00  cli  start Docs  started #1001  on laptop",
        ], "\(history)")
        let json = try desktop.run(["history", "--json", "--limit", "1"], now: "2026-11-20 09:50")
        #expect(json.stdout.contains(#""device":"laptop""#) && json.stdout.contains(#""key":"phone-3""#), "\(json)")
        // The laptop's own history names no device; the desktop's stop
        // reaches it named.
        #expect(try laptop.run(["history", "--json"], now: "2026-11-20 09:50").stdout.contains("device") == false)
        #expect(try desktop.run(["stop"], now: "2026-11-20 09:55").status == 0)
        _ = try ReplicationPassTests.sync(desktop, now: "2026-11-20 09:56")
        #expect(try ReplicationPassTests.sync(laptop, now: "2026-11-20 09:56")
                == "hub sync: device laptop (1): pushed 0, pulled 2, applied 2\n")
        #expect(try laptop.run(["history", "--limit", "1"], now: "2026-11-20 09:57").lines
                == ["#4  2026-11-20 09:55  cli  stop  stopped #2001  on desktop", "older: trackee history --before 4"])

        // A log change that is not an intent (another program wrote it) is
        // skipped with a warning; the rest of the pull stands.
        _ = try pg.sql("""
            INSERT INTO change (person, device, sequence, clock, kind, body)
            SELECT person, device, -999999, clock, kind,
                   jsonb_set(jsonb_set(body, '{row,action}', '"jump"'), '{key}', '"999999"')
            FROM change WHERE kind = 'key' AND body->>'kind' = 'log' ORDER BY id LIMIT 1
            """, database: "trackee")
        let skipped = try desktop.run(["hub", "sync"], now: "2026-11-20 10:01")
        #expect(skipped.status == 0, "\(skipped)")
        #expect(skipped.stdout == "hub sync: device desktop (2): pushed 0, pulled 1, applied 0\n", "\(skipped)")
        #expect(skipped.stderr.hasPrefix("trackee: warning: hub change "), "\(skipped)")
        #expect(skipped.stderr.hasSuffix(" from laptop is not an intent (log 999999); skipped\n"), "\(skipped)")
        #expect(skipped.stderr.split(separator: "\n").count == 1, "\(skipped)")
        #expect(try desktop.run(["history", "--limit", "1"], now: "2026-11-20 10:02").lines.first
                == "#4  2026-11-20 09:55  cli  stop  stopped #2001")
    }

    static let rules = """
        rules:
          - id: office-hours
            when: {at: "Mon..Fri 09:00"}
            do: [{start: {project: Office}}]

        """

    @Test func twoLaptopsRunningOneScheduleFireEachOccurrenceOnceBetweenThem() throws {
        guard let pg = try HubInitTests.cluster() else { return }
        let d = try ReplicationPassTests.devices(pg, ["laptop", "desktop"])
        for t in d {
            _ = try t.write(Self.rules, to: "config/trackee/rules.yaml")
            #expect(try t.run(["tick"], now: "2026-11-23 08:58").status == 0)
            _ = try ReplicationPassTests.sync(t, now: "2026-11-23 08:58")
        }
        // Both fire the 09:00 occurrence before either has synced.
        let laptopTick = try d[0].run(["tick"], now: "2026-11-23 09:00:20")
        #expect(laptopTick.lines.first?.hasPrefix("fired office-hours at 2026-11-23T09:00:00+01:00") == true, "\(laptopTick)")
        let desktopTick = try d[1].run(["tick"], now: "2026-11-23 09:00:40")
        #expect(desktopTick.lines.first?.hasPrefix("fired office-hours at 2026-11-23T09:00:00+01:00") == true, "\(desktopTick)")
        for t in [d[0], d[1], d[0], d[1]] { _ = try ReplicationPassTests.sync(t, now: "2026-11-23 09:05") }
        for t in d {
            #expect(try t.run(["status"], now: "2026-11-23 09:05").lines.prefix(2)
                    == ["running Office #1001", "since   09:00 (0:05 elapsed)"])
            #expect(try t.run(["log", "--from", "2026-11-23", "--json"], now: "2026-11-23 09:05").stdout
                        .components(separatedBy: #""id":"#).count == 2)
        }
        // Each device lists both firings, once each, and the desktop's as
        // voided: the laptop fired first.
        let schedule = "(schedule Mon..Fri 09:00)"
        #expect(try d[0].run(["history"], now: "2026-11-23 09:05").lines == [
            "#2  2026-11-23 09:00  rule:office-hours  start Office  started #1002  voided: fired on laptop first  \(schedule)"
                + "  on desktop",
            "#1  2026-11-23 09:00  rule:office-hours  start Office  started #1001  \(schedule)",
        ])
        #expect(try d[1].run(["history"], now: "2026-11-23 09:05").lines == [
            "#2  2026-11-23 09:00  rule:office-hours  start Office  started #1001  \(schedule)  on laptop",
            "#1  2026-11-23 09:00  rule:office-hours  start Office  started #1002  voided: fired on laptop first  \(schedule)",
        ])
        let json = try d[1].run(["history", "--json"], now: "2026-11-23 09:05").stdout
        #expect(json.contains(#""trigger":"schedule Mon..Fri 09:00","voided":"laptop"}]}"#),
                "\(json)")
        // Once synced, the other laptop does not fire the next occurrence
        // the first one fired.
        #expect(try d[0].run(["tick"], now: "2026-11-24 09:00:10").status == 0)
        _ = try ReplicationPassTests.sync(d[0], now: "2026-11-24 09:00:20")
        _ = try ReplicationPassTests.sync(d[1], now: "2026-11-24 09:00:30")
        let late = try d[1].run(["tick"], now: "2026-11-24 09:00:40")
        #expect(late.lines == ["already fired office-hours at 2026-11-24T09:00:00+01:00"], "\(late)")
    }
}
