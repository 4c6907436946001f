import Foundation
import Testing
import TrackeeTestSupport

/// `do: [stop]` and `- cancel`, the bare actions, through the built binary:
/// they load and fire like `stop: {}` and `cancel: {}`, and any other bare
/// word is a positioned error.
@Suite struct BareRuleActionTests {
    static let rules = """
        rules:
          - id: deep-off
            when: {focus: deep, state: off}
            do: [stop]
          - id: meeting-off
            when: {focus: meeting, state: off}
            do:
              - cancel
        """

    @Test func aBareStopSavesTheTimerAndABareCancelDiscardsIt() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        try Self.rules.write(toFile: t.path("bare.yaml"), atomically: true, encoding: .utf8)
        #expect(try t.run("start", "-p", "Docs", "--at", "11:00").status == 0)
        #expect(try t.run("focus", "set", "deep", "--rules", "bare.yaml").lines == ["focus deep on"])
        let stop = try t.run("focus", "clear", "--rules", "bare.yaml")
        #expect(stop.status == 0, "\(stop)")
        #expect(stop.lines == ["focus deep off", "fired deep-off at 2026-11-20T12:00:00+01:00: stopped Docs"])

        #expect(try t.run("start", "-p", "Mail").status == 0)
        #expect(try t.run("focus", "set", "meeting", "--rules", "bare.yaml").lines == ["focus meeting on"])
        let cancel = try t.run("focus", "clear", "--rules", "bare.yaml", now: "2026-11-20 12:30")
        #expect(cancel.status == 0, "\(cancel)")
        #expect(cancel.lines == ["focus meeting off", "fired meeting-off at 2026-11-20T12:30:00+01:00: cancelled Mail"])

        let entries = try t.run("log", "--json", now: "2026-11-20 13:00").json()["days"][0]["entries"]
        #expect(entries.elements.count == 1)
        #expect(entries[0]["project"] == "Docs")
        #expect(entries[0]["end"] == "2026-11-20T12:00:00+01:00")
        #expect(try t.run("status", "--json", now: "2026-11-20 13:00").json()["running"] == .absent)
    }

    @Test func rulesCheckPointsAtAMisspeltBareActionAndExits78() throws {
        let t = try Sandbox()
        try """
            rules:
              - id: lunch
                when: {at: "12:30"}
                do: [stpo]
              - id: evening
                when: {at: "19:00"}
                do:
                  - start
            """.write(toFile: t.path("bad.yaml"), atomically: true, encoding: .utf8)
        let before = t.storeFiles()
        let r = try t.run("rules", "check", "bad.yaml")
        #expect(r.status == 78)
        #expect(r.stdout == "")
        #expect(r.stderr == """
            trackee: bad.yaml:4:10: rule "lunch": do[0]: unknown action "stpo"; did you mean "stop"?
            trackee: bad.yaml:8:9: rule "evening": do[0]: start needs a mapping, such as start: {project: Office}, or start: {} for a timer without a project
            trackee: no rules, 2 errors

            """)
        #expect(t.storeFiles() == before)
    }
}
