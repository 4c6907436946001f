import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee.Rules {
    struct Why: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "why",
            abstract: "Print why a rule fired or did not on its latest events, newest first.",
            discussion: """
                Each trace gives the event's time, the rule, the trigger, the verdict (fired, \
                already-fired, refused, failed, condition-false, cooling-down, too-late, superseded, \
                catchup-skip, no-rule), each condition with what it looked at, and the firing's \
                actions with their intent keys and outcomes. Without RULE, the latest traces of \
                every rule and of the events no rule waited for. The store keeps the last 20 \
                traces per rule (traces: in the settings).
                """)

        @OptionGroup var common: CommonOptions
        @OptionGroup var rules: RulesOption

        @Argument(help: "The rule's id; leave it out for every rule and the events no rule waited for.")
        var rule: String?

        @Option(help: "How many traces to print.")
        var last: Int = 10

        func validate() throws {
            guard last > 0 else { throw ValidationError("--last must be at least 1.") }
        }

        struct View: Encodable {
            var traces: [TraceView]
        }

        func run() throws {
            try Session.run(common) { session in
                let store = try session.openStore()
                let traces = try rule.map { try store.traces(rule: $0, limit: last) } ?? store.latestTraces(limit: last)
                if let rule, traces.isEmpty {
                    // An id with no traces may be a typo: the rule files say.
                    let automation = session.loadRules(rules.paths, calendars: false).automation
                    guard automation.ruleSet.rules.contains(where: { $0.id == rule }) else {
                        throw CommandFailure.usage("rules why: no rule has the id \"\(rule)\"; `trackee rules check` lists them")
                    }
                }
                if session.out.json {
                    session.out.emit(View(traces: traces.map { TraceView($0, zone: session.zone) }))
                    return
                }
                if traces.isEmpty {
                    session.out.line(rule.map { "no traces of rule \($0) yet: no event has reached it" } ?? "no traces yet")
                }
                for trace in traces {
                    for line in TraceView(trace, zone: session.zone).lines { session.out.line(line) }
                }
            }
        }
    }
}

/// One ``RuleTrace`` as `rules why` and `simulate --why` show it.
struct TraceView: Encodable {
    var time: String
    var noticed: String
    /// Left out for an event no rule waits for.
    var rule: String?
    var trigger: String
    var verdict: String
    var reason: String
    var conditions: [ConditionView]
    var key: String?
    var actions: [ActionView]
    var detail: String?

    struct ConditionView: Encodable {
        var condition: String
        var input: String
        var holds: Bool
    }

    struct ActionView: Encodable {
        var action: String
        var key: String?
        var outcome: String?
    }

    init(_ trace: RuleTrace, zone: Zone) {
        time = zone.iso8601(trace.occurred)
        noticed = zone.iso8601(trace.noticed)
        rule = trace.rule
        trigger = trace.trigger
        verdict = trace.verdict.rawValue
        reason = trace.verdict.sentence
        conditions = trace.conditions.map { ConditionView(condition: $0.condition, input: $0.input, holds: $0.holds) }
        key = trace.key
        actions = trace.actions.map { ActionView(action: $0.action, key: $0.key, outcome: $0.outcome) }
        detail = trace.detail
    }

    /// A header line (time, rule, trigger), the verdict, then a line per
    /// condition (`if`), per action (`do`) and the detail:
    ///
    ///     2026-11-23T18:04:00+01:00  late-start  schedule Mon..Fri 18:04
    ///       not fired: a condition is false
    ///       if time 09:00-17:00: 18:04 → false
    var lines: [String] {
        var lines = ["\(time)  \(rule ?? "(no rule)")  \(trigger)"]
        lines.append("  " + reason + (key.map { ": \($0)" } ?? ""))
        for condition in conditions {
            lines.append("  if \(condition.condition): \(condition.input) → \(condition.holds)")
        }
        for action in actions {
            var line = "  do \(action.action)"
            if let outcome = action.outcome { line += ": \(outcome)" }
            if let key = action.key { line += " (\(key))" }
            lines.append(line)
        }
        if let detail { lines.append("  \(detail)") }
        return lines
    }
}
