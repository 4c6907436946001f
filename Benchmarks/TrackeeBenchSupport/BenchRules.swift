import Glibc
import TrackeeCore
import TrackeeRules

/// The rule-evaluation benchmark, kept out of main.swift (whose globals
/// are main-actor isolated).
public enum BenchRules {
    static let ruleCount = 1_000
    static let conditionsPerRule = 4

    static func yaml() -> String {
        var text = "rules:\n"
        for i in 0..<ruleCount {
            text += """
                  - id: r\(i)
                    when: {focus: work}
                    if:
                      - weekdays: mon-fri
                      - time: "08:00-18:00"
                      - not: {focus: meeting}
                      - timer: stopped
                    do:
                      - start: {project: "P\(i)"}

                """
        }
        return text
    }

    static func nanoseconds() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }

    public static func main() {
        let loaded = RuleSet.load([RuleFile(path: "bench.yaml", text: yaml())]) { _ in nil }
        precondition(loaded.errors.isEmpty && loaded.ruleSet.rules.count == ruleCount)
        let engine = RuleEngine(rules: loaded.ruleSet.rules)
        let zone = try! Zone(identifier: "Europe/Prague")
        // Monday 2026-11-23 10:00 in Prague, a timer running: the first
        // three conditions hold and the fourth fails for every rule.
        let snapshot = Snapshot(zone: zone, focus: "work", timer: .running(project: "X", client: nil))
        let event = TriggerEvent(.focus(mode: "work", state: .on, sequence: 1), time: Instant(seconds: 1_795_424_400))
        precondition(engine.evaluate(event, snapshot: snapshot).isEmpty)

        let events = 2_000
        var rates: [Double] = []
        for _ in 0..<5 {
            var fired = 0
            let start = nanoseconds()
            for _ in 0..<events { fired += engine.evaluate(event, snapshot: snapshot).count }
            let seconds = Double(nanoseconds() - start) / 1e9
            precondition(fired == 0)
            rates.append(Double(events * ruleCount * conditionsPerRule) / seconds)
        }
        rates.sort()
        let median = rates[rates.count / 2]
        print("rule evaluation: \(ruleCount) rules x \(conditionsPerRule) conditions, \(events) events per round, 5 rounds")
        print("condition evaluations per second (median): \(Int(median))")
        print("rule evaluations per second (median): \(Int(median) / conditionsPerRule)")
    }
}
