import Foundation
import Testing
import TrackeeTestSupport

/// `simulate` with an events file of every desk kind, through the desk
/// recipe: idleness reaches its length at since + 10m inside the window,
/// a repeated lock is no second edge, and `--why` traces the events.
/// `rules next` says once that these kinds are not timed.
@Suite struct DeskSimulateTests {
    static let events = """
        {"time":"2026-11-26 08:55","type":"device","action":"added","usb":"17ef:30b4","devpath":"/devices/usb1/1-2","name":"ThinkPad Dock"}
        {"time":"2026-11-26 09:00","type":"network","state":"connected","connection":"ACME","ssid":"ACME-Office","connection_type":"802-11-wireless"}
        {"time":"2026-11-26 09:30","type":"power","state":"battery"}
        {"time":"2026-11-26 09:51","type":"idle","idle_for":60}
        {"time":"2026-11-26 10:05","type":"idle","state":"active"}
        {"time":"2026-11-26 11:00","type":"session","state":"locked"}
        {"time":"2026-11-26 11:00:05","type":"session","state":"locked"}
        {"time":"2026-11-26 11:30","type":"session","state":"unlocked"}
        {"time":"2026-11-26 12:00","type":"sleep","state":"suspend"}
        {"time":"2026-11-26 12:30","type":"sleep","state":"resume"}
        {"time":"2026-11-26 13:00","type":"network","state":"disconnected","connection":"ACME","ssid":"ACME-Office"}
        {"time":"2026-11-26 13:01","type":"device","action":"removed","usb":"17ef:30b4","devpath":"/devices/usb1/1-2"}
        {"time":"2026-11-26 14:00","type":"idle","since":"2026-11-26 13:58"}
        """

    @Test func everyDeskKindPlaysThroughTheDeskRecipe() throws {
        let t = try Sandbox(now: "2026-11-25 12:00")
        try Self.events.write(toFile: t.path("desk.jsonl"), atomically: true, encoding: .utf8)
        let r = try t.run("simulate", "--json", "--rules", RecipeTests.rule("desk.yaml"), "--events", t.path("desk.jsonl"),
                          "--from", "2026-11-26 08:00", "--to", "2026-11-26 14:05")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        let json = try r.json()
        #expect(json["rules"] == 7)
        // 13 lines: the second lock is no edge, the 09:51 idle line's
        // length is its own event at 10:00, and the 14:00 one's 10 minutes
        // fall after the window.
        #expect(json["events"] == 11)
        #expect(try json["firings"] == parsedJSON("""
            [{"rule": "dock", "key": "dock@device:added:/devices/usb1/1-2:1795679700", "time": "2026-11-26T08:55:00+01:00",
              "status": "fired", "outcomes": ["started"]},
             {"rule": "office-net", "key": "office-net@network:connected:ACME:1795680000", "time": "2026-11-26T09:00:00+01:00",
              "status": "fired", "outcomes": ["switched"]},
             {"rule": "power", "key": "power@power:battery:1795681800", "time": "2026-11-26T09:30:00+01:00",
              "status": "fired", "outcomes": [], "would_notify": ["on battery"]},
             {"rule": "away", "key": "away@idle:1795683000:for:600", "time": "2026-11-26T10:00:00+01:00",
              "status": "fired", "outcomes": ["stopped"]},
             {"rule": "back", "key": "back@idle:1795683000:ended", "time": "2026-11-26T10:05:00+01:00",
              "status": "fired", "outcomes": [], "would_notify": ["Away 15m; timer stopped at 2026-11-26T09:50:00+01:00"]},
             {"rule": "lock", "key": "lock@session:locked:1795687200", "time": "2026-11-26T11:00:00+01:00",
              "status": "fired", "outcomes": ["unchanged"]},
             {"rule": "sleep", "key": "sleep@sleep:suspend:1795690800", "time": "2026-11-26T12:00:00+01:00",
              "status": "fired", "outcomes": ["unchanged"]}]
            """))
        // The office entry ends when idleness began, not when it was noticed.
        let entries = json["entries"].elements
        #expect(entries.map { $0["project"] } == ["Desk", "Office"])
        #expect(entries.map { $0["start"] } == ["2026-11-26T08:55:00+01:00", "2026-11-26T09:00:00+01:00"])
        #expect(entries.map { $0["end"] } == ["2026-11-26T09:00:00+01:00", "2026-11-26T09:50:00+01:00"])
    }

    @Test func whyShowsTheDeskEvents() throws {
        let t = try Sandbox(now: "2026-11-25 12:00")
        try Self.events.write(toFile: t.path("desk.jsonl"), atomically: true, encoding: .utf8)
        let r = try t.run("simulate", "--why", "--rules", RecipeTests.rule("desk.yaml"), "--events", t.path("desk.jsonl"),
                          "--from", "2026-11-26 09:00", "--to", "2026-11-26 10:10")
        #expect(r.status == 0, "\(r)")
        #expect(r.lines == [
            "simulating 2026-11-26T09:00:00+01:00 – 2026-11-26T10:10:00+01:00, 7 rules, 4 events",
            "2026-11-26T09:00:00+01:00  office-net  started Office",
            "  why: 2026-11-26T09:00:00+01:00  office-net  network ACME-Office connected",
            "      fired: office-net@network:connected:ACME:1795680000",
            "      do start Office: started (office-net@network:connected:ACME:1795680000#0)",
            "2026-11-26T09:30:00+01:00  power  would notify: on battery",
            "  why: 2026-11-26T09:30:00+01:00  power  power battery",
            "      fired: power@power:battery:1795681800",
            "      do notify \"on battery\"",
            "2026-11-26T10:00:00+01:00  away  stopped Office",
            "  why: 2026-11-26T10:00:00+01:00  away  idle 10m",
            "      fired: away@idle:1795683000:for:600",
            "      do stop: stopped (away@idle:1795683000:for:600#0)",
            "2026-11-26T10:05:00+01:00  back  would notify: Away 15m; timer stopped at 2026-11-26T09:50:00+01:00",
            "  why: 2026-11-26T10:05:00+01:00  back  active after 15m idle",
            "      fired: back@idle:1795683000:ended",
            "      do notify \"Away 15m; timer stopped at 2026-11-26T09:50:00+01:00\"",
            "",
            "timesheet",
            "  2026-11-26T09:00:00+01:00 – 2026-11-26T09:50:00+01:00    0:50  Office",
            "  total Office: 0:50",
            "  total: 0:50",
        ])
    }

    @Test func rulesNextSaysOnceThatDeskTriggersAreNotTimed() throws {
        let t = try Sandbox(now: "2026-11-25 12:00")
        let r = try t.run("rules", "next", "--rules", RecipeTests.rule("desk.yaml"))
        #expect(r.status == 0, "\(r)")
        #expect(r.lines == [
            "no firings ahead",
            "idle, session, sleep, network, power and device triggers are not timed: they fire when the machine changes, so none is listed",
        ])
        let json = try t.run("rules", "next", "--json", "--rules", RecipeTests.rule("desk.yaml"))
        #expect(json.status == 0, "\(json)")
        #expect(try json.json() == parsedJSON("[]"))
        #expect(json.stderr == "trackee: idle, session, sleep, network, power and device triggers are not timed: they fire when the machine changes, so none is listed\n")
        let timed = try t.run("rules", "next", "--rules", RecipeTests.rule("end-of-day.yaml"), "--count", "1")
        #expect(timed.lines == ["2026-11-25T19:00:00+01:00  end-of-day  *-*-* 19:00"])
    }

    @Test func rulesCheckJSONShowsEachDeskTrigger() throws {
        let t = try Sandbox(now: "2026-11-25 12:00")
        let r = try t.run("rules", "check", "--json", RecipeTests.rule("desk.yaml"))
        #expect(r.status == 0, "\(r)")
        let rules = try r.json()["rules"].elements
        #expect(try rules.map { $0["triggers"] } == [
            parsedJSON(#"[{"idle": "for", "for": "10m"}]"#),
            parsedJSON(#"[{"idle": "ended", "after": "10m"}]"#),
            parsedJSON(#"[{"session": "locked"}]"#),
            parsedJSON(#"[{"sleep": "suspend"}]"#),
            parsedJSON(#"[{"network": "connected", "ssid": "ACME-Office"}]"#),
            parsedJSON(#"[{"power": "battery"}]"#),
            parsedJSON(#"[{"device": "added", "usb": "17ef:30b4"}]"#),
        ])
    }
}
