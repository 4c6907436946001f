import Foundation
import Testing
import TrackeeTestSupport

/// `simulate` with flip lines through the 12-face recipe: each face starts
/// its project at the flip's time, a pause stops, the same interval twice
/// (by its `event`) fires once, and the battery rule fires once per fall.
@Suite struct FlipSimulateTests {
    static let events = """
        {"time":"2026-11-26 09:00","type":"flip","facet":2,"event":40}
        {"time":"2026-11-26 10:30","type":"flip","facet":3,"event":41}
        {"time":"2026-11-26 10:30","type":"flip","facet":3,"event":41}
        {"time":"2026-11-26 12:00","type":"flip","facet":3,"state":"paused","event":42}
        {"time":"2026-11-26 12:45","type":"flip","facet":3,"event":43}
        {"time":"2026-11-26 13:00","type":"flip","battery":18}
        {"time":"2026-11-26 13:30","type":"flip","battery":15}
        {"time":"2026-11-26 17:00","type":"flip","facet":12,"event":44}
        """

    @Test func facesPausesAndTheBatteryPlayThroughTheCubeRecipe() throws {
        let t = try Sandbox(now: "2026-11-25 12:00")
        try "create_projects: always\n".write(toFile: t.path("config/trackee/config.yaml"), atomically: true, encoding: .utf8)
        try Self.events.write(toFile: t.path("cube.jsonl"), atomically: true, encoding: .utf8)
        let r = try t.run("simulate", "--json", "--rules", RecipeTests.rule("timeflip.yaml"), "--events", t.path("cube.jsonl"),
                          "--from", "2026-11-26 08:00", "--to", "2026-11-26 18:00")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        let json = try r.json()
        #expect(json["rules"] == 14)
        // 8 lines: the repeated interval is no edge; 15 % after 18 % is no
        // new fall below 20 %, so its event fires nothing.
        #expect(json["events"] == 7)
        let firings = json["firings"].elements
        #expect(firings.map { $0["rule"] } == ["face-2-docs", "face-3-code", "paused", "face-3-code", "cube-battery", "face-12-done"])
        #expect(firings.map { $0["key"] } == [
            "face-2-docs@flip:cube:40", "face-3-code@flip:cube:41", "paused@flip:cube:42", "face-3-code@flip:cube:43",
            "cube-battery@flip:cube:battery:18:1795694400", "face-12-done@flip:cube:44",
        ])
        #expect(firings[4]["would_notify"] == ["TimeFlip battery at 18%"])
        let entries = json["entries"].elements
        #expect(entries.map { $0["project"] } == ["Docs", "Code", "Code"])
        #expect(entries.map { $0["start"] }
            == ["2026-11-26T09:00:00+01:00", "2026-11-26T10:30:00+01:00", "2026-11-26T12:45:00+01:00"])
        #expect(entries.map { $0["end"] }
            == ["2026-11-26T10:30:00+01:00", "2026-11-26T12:00:00+01:00", "2026-11-26T17:00:00+01:00"])
    }
}
