import ArgumentParser
import TrackeeAutomation
import TrackeeCore
import TrackeeRules

extension Trackee.Rules {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Validate rule files and print each rule's next firings; exit 78 on any error.",
            discussion: """
                What the calendars the rules name had to be read past (a line, an event, an \
                unknown TZID) is printed as warnings; they fail the check only with --strict \
                (exit 65).
                """)

        @OptionGroup var common: CommonOptions

        @Flag(help: "Exit with status 65 when a calendar had anything skipped or read as floating time.")
        var strict = false

        @Argument(help: "Rule files to check (default rules.yaml and rules.d/*.yaml).")
        var files: [String] = []

        @Option(help: "How many upcoming firings to show per rule.")
        var count: Int = 3

        struct View: Encodable {
            var rules: [RuleView]
            var errors: [String]
            /// Left out when there are none.
            var warnings: [String]?
        }

        struct RuleView: Encodable {
            var id: String
            var name: String?
            var enabled: Bool
            var triggers: [TriggerView]
        }

        /// A trigger's fields, as its kind gives them (``RuleTrigger/checkView(ahead:enabled:zone:)``):
        /// `{"at": EXPR, "next": [...]}`, `{"focus": MODE, "state": "on"}`
        /// or `{"calendar": NAME, "event": "start", "offset": "-2m", "upcoming": [...]}`.
        struct TriggerView: Encodable {
            var view: TriggerCheckView

            func encode(to encoder: any Encoder) throws {
                try ViewValue.object(view.fields).encode(to: encoder)
            }
        }

        func run() throws {
            try Session.run(common) { session in
                let loaded = session.loadRules(files)
                let warnings = loaded.warnings + session.missingProjectWarnings(loaded.automation.ruleSet)
                for error in loaded.errors where !session.out.json { writeAll(2, "trackee: \(error)\n") }
                for warning in warnings where !session.out.json { writeAll(2, "trackee: \(warning)\n") }
                let automation = loaded.automation
                let views = automation.ruleSet.rules.map { rule in
                    RuleView(id: rule.id, name: rule.name, enabled: rule.enabled, triggers: rule.triggers.map { trigger in
                        let ahead = automation.upcoming(of: trigger, rule: rule, after: session.now, count: count,
                                                        zone: session.zone)
                        return TriggerView(view: trigger.checkView(ahead: ahead, enabled: rule.enabled, zone: session.zone))
                    })
                }
                let summary = "\(counted(views.count, "rule")), \(counted(loaded.errors.count, "error"))"
                    + (loaded.warningCount == 0 ? "" : ", \(counted(loaded.warningCount, "calendar warning"))")
                if session.out.json {
                    session.out.emit(View(rules: views, errors: loaded.errors,
                                          warnings: warnings.isEmpty ? nil : warnings))
                } else {
                    for rule in views {
                        session.out.line("rule \"\(rule.id)\"" + (rule.name.map { " (\($0))" } ?? "")
                                         + (rule.enabled ? "" : " [disabled]"))
                        for trigger in rule.triggers { session.out.line("  " + trigger.view.text) }
                    }
                }
                guard loaded.errors.isEmpty else {
                    if session.out.json { throw ExitCode(78) }
                    throw CommandFailure.config(summary)
                }
                if strict && loaded.warningCount > 0 {
                    if session.out.json { throw ExitCode(65) }
                    throw CommandFailure(message: summary + " (--strict)", status: 65)
                }
                if !session.out.json { session.out.line(summary) }
            }
        }

        private func counted(_ n: Int, _ noun: String) -> String {
            n == 0 ? "no \(noun)s" : n == 1 ? "1 \(noun)" : "\(n) \(noun)s"
        }
    }
}
