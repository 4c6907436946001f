import Testing
import TrackeeCore
@testable import TrackeeRules

/// `flip:` as rule files write it, which events each form accepts, and the
/// refusals a wrong one gets, with file, line and column.
@Suite struct FlipTriggerFileTests {
    let cube = "0C:61:CF:C7:77:71"

    func errors(_ trigger: String) -> [String] {
        errorLines("rules:\n  - id: a\n    when: {\(trigger)}\n    do: [stop]\n")
    }

    @Test func everyFormReads() throws {
        let read = try rules("""
            rules:
              - {id: docs, when: {flip: {facet: 1}}, do: [stop]}
              - {id: pause, when: {flip: paused}, do: [stop]}
              - {id: paused-too, when: {flip: {paused: true}}, do: [stop]}
              - {id: low, when: {flip: {battery_below: 20, device: "0c:61:cf:c7:77:71"}}, do: [stop]}
            """)
        #expect(read.map { $0.triggers.first as? FlipTrigger } == [
            FlipTrigger(.facet(1)), FlipTrigger(.paused), FlipTrigger(.paused),
            FlipTrigger(.batteryBelow(20), device: "0c:61:cf:c7:77:71"),
        ])
    }

    @Test func eachFormAcceptsItsEdgeAndABatteryRuleOnlyAFallBelowItsLevel() {
        func event(_ change: FlipEdge.Change, device: String = "0C:61:CF:C7:77:71") -> TriggerEvent {
            TriggerEvent(.flip(device: device, change, event: 3), time: Instant(seconds: 0))
        }
        let one = FlipTrigger(.facet(1))
        #expect(one.accepts(event(.facet(1)), zone: .utc))
        #expect(!one.accepts(event(.facet(2)), zone: .utc))
        #expect(!one.accepts(event(.paused(facet: 1)), zone: .utc))
        #expect(FlipTrigger(.paused).accepts(event(.paused(facet: 7)), zone: .utc))
        #expect(!FlipTrigger(.paused).accepts(event(.facet(7)), zone: .utc))
        let low = FlipTrigger(.batteryBelow(20))
        #expect(low.accepts(event(.battery(percent: 18, previous: nil)), zone: .utc))
        #expect(low.accepts(event(.battery(percent: 19, previous: 20)), zone: .utc))
        #expect(!low.accepts(event(.battery(percent: 15, previous: 18)), zone: .utc))
        #expect(!low.accepts(event(.battery(percent: 20, previous: 25)), zone: .utc))
        let named = FlipTrigger(.facet(1), device: "0c:61:cf:c7:77:71")
        #expect(named.accepts(event(.facet(1)), zone: .utc))
        #expect(!named.accepts(event(.facet(1), device: "0C:61:CF:C7:77:72"), zone: .utc))
    }

    @Test func aFacetOutsideOneToTwelveAndOtherMistakesAreRefusedWithWhere() {
        #expect(errors("flip: {facet: 13}") == [
            "rules.yaml:3:26: rule \"a\": when.flip.facet: facet must be a whole number from 1 to 12, found \"13\""
        ])
        #expect(errors("flip: {facet: 0}") == [
            "rules.yaml:3:26: rule \"a\": when.flip.facet: facet must be a whole number from 1 to 12, found \"0\""
        ])
        #expect(errors("flip: {battery_below: 101}") == [
            "rules.yaml:3:34: rule \"a\": when.flip.battery_below: battery_below must be a whole number from 1 to 100, found \"101\""
        ])
        #expect(errors("flip: {facet: 1, paused: true}") == [
            "rules.yaml:3:18: rule \"a\": when.flip: a flip trigger names one of facet:, battery_below: or paused:"
        ])
        #expect(errors("flip: pased") == [
            "rules.yaml:3:18: rule \"a\": when.flip: unknown flip edge \"pased\"; did you mean \"paused\"?"
        ])
    }
}
