import Testing
import TrackeeAutomation
import TrackeeRules
import TrackeeCore

/// What the web page's "why" shows of the rules (`Automation.outlook`):
/// each rule with its triggers as `rules check` writes them, a timed one
/// with its next time, and the next firings as `rules next` lists them.
@Suite struct RulesOutlookTests {
    @Test func eachRuleWithItsTriggersAndTheNextFiringsInOrder() throws {
        let automation = Automation.load([RuleFile(path: "rules.yaml", text: """
            rules:
              - id: evening
                name: End of the day
                when: {at: "*-*-* 18:30"}
                do: [stop]
              - id: morning
                when: {at: "Mon..Fri 09:00"}
                do: [{start: {project: Docs}}]
              - id: away
                when: {idle: {for: 10m}}
                do: [stop]
              - id: off
                enabled: false
                when: {at: "*-*-* 12:00"}
                do: [stop]
            """)]).automation
        // Friday 2026-11-20, 09:00 UTC.
        let outlook = automation.outlook(after: Instant(seconds: 1_795_165_200), count: 4, zone: .utc)
        #expect(outlook.rules == [
            .init(id: "evening", name: "End of the day", enabled: true, triggers: ["at *-*-* 18:30: 2026-11-20T18:30:00Z"]),
            .init(id: "morning", name: nil, enabled: true, triggers: ["at Mon..Fri 09:00: 2026-11-23T09:00:00Z"]),
            .init(id: "away", name: nil, enabled: true, triggers: ["idle for 10m"]),
            .init(id: "off", name: nil, enabled: false, triggers: ["at *-*-* 12:00: disabled"]),
        ])
        // Every evening comes first, the weekend's too, then Monday's morning.
        #expect(outlook.next.map(\.rule) == ["evening", "evening", "evening", "morning"])
        #expect(outlook.next.map(\.time) == [1_795_199_400, 1_795_285_800, 1_795_372_200, 1_795_424_400].map { Instant(seconds: $0) })
        #expect(outlook.next.map(\.text) == ["*-*-* 18:30", "*-*-* 18:30", "*-*-* 18:30", "Mon..Fri 09:00"])
        #expect(outlook.untimedKinds == ["idle"])
    }
}
