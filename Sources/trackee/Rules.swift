import ArgumentParser
import TrackeeCore
import TrackeeDaemon
import TrackeeRules

extension Trackee {
    struct Rules: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rules",
            abstract: "Check rule files and list upcoming schedule firings.",
            discussion: "Rule files are described in trackee-rules(5).",
            subcommands: [Check.self, Next.self])

        struct Check: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "check",
                abstract: "Validate rule files and print each rule's next firings; exit 78 on any error.")

            @OptionGroup var common: CommonOptions

            @Argument(help: "Rule files to check (default rules.yaml and rules.d/*.yaml).")
            var files: [String] = []

            @Option(help: "How many upcoming firings to show per rule.")
            var count: Int = 3

            struct View: Encodable {
                var rules: [RuleView]
                var errors: [String]
            }

            struct RuleView: Encodable {
                var id: String
                var name: String?
                var enabled: Bool
                var triggers: [TriggerView]
            }

            /// `{"at": EXPR, "next": [...]}` or `{"focus": MODE, "state": "on"}`.
            struct TriggerView: Encodable {
                var at: String?
                var next: [String]?
                var focus: String?
                var state: String?
            }

            func run() throws {
                try Session.run(common) { session in
                    let loaded = session.loadRules(files)
                    for error in loaded.errors where !session.out.json { writeAll(2, "trackee: \(error)\n") }
                    let views = loaded.automation.ruleSet.rules.map { rule in
                        RuleView(id: rule.id, name: rule.name, enabled: rule.enabled, triggers: rule.triggers.map { trigger in
                            switch trigger {
                            case .schedule(let expression):
                                let next = rule.enabled ? loaded.automation.elapses(
                                    rule: rule.id, expression: expression, after: session.now, count: count, zone: session.zone
                                ).map { session.zone.iso8601($0) } : []
                                return TriggerView(at: expression, next: next)
                            case .focus(let mode, let state):
                                return TriggerView(focus: mode, state: state.rawValue)
                            }
                        })
                    }
                    let summary = "\(counted(views.count, "rule")), \(counted(loaded.errors.count, "error"))"
                    if session.out.json {
                        session.out.emit(View(rules: views, errors: loaded.errors))
                    } else {
                        for rule in views {
                            session.out.line("rule \"\(rule.id)\"" + (rule.name.map { " (\($0))" } ?? "")
                                             + (rule.enabled ? "" : " [disabled]"))
                            for trigger in rule.triggers {
                                if let at = trigger.at, let next = trigger.next {
                                    let shown = !rule.enabled ? "disabled" : next.isEmpty ? "never fires again" : next.joined(separator: ", ")
                                    session.out.line("  at \(at): \(shown)")
                                } else if let focus = trigger.focus, let state = trigger.state {
                                    session.out.line("  focus \(focus) \(state)")
                                }
                            }
                        }
                    }
                    guard loaded.errors.isEmpty else {
                        if session.out.json { throw ExitCode(78) }
                        throw CommandFailure.config(summary)
                    }
                    if !session.out.json { session.out.line(summary) }
                }
            }

            private func counted(_ n: Int, _ noun: String) -> String {
                n == 0 ? "no \(noun)s" : n == 1 ? "1 \(noun)" : "\(n) \(noun)s"
            }
        }

        struct Next: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "next",
                abstract: "Print the upcoming schedule firings of all rules, in the local zone with offsets.")

            @OptionGroup var common: CommonOptions
            @OptionGroup var rules: RulesOption

            @Option(help: "How many firings to print.")
            var count: Int = 10

            @Option(parsing: .unconditional, help: "List firings after this time instead of now; see TIME FORMATS.")
            var from: String?

            struct View: Encodable {
                var time: String
                var rule: String
                var expression: String
            }

            func validate() throws {
                guard count > 0 else { throw ValidationError("--count must be at least 1.") }
            }

            func run() throws {
                try Session.run(common) { session in
                    let automation = try session.strictRules(rules)
                    let from = try self.from.map { try session.time($0, option: "--from") } ?? session.now
                    let next = automation.upcoming(after: from, count: count, zone: session.zone)
                    if session.out.json {
                        session.out.emit(next.map { View(time: session.zone.iso8601($0.time), rule: $0.rule, expression: $0.expression) })
                        return
                    }
                    if next.isEmpty { session.out.line("no schedule firings ahead") }
                    for elapse in next {
                        session.out.line("\(session.zone.iso8601(elapse.time))  \(elapse.rule)  \(elapse.expression)")
                    }
                }
            }
        }
    }
}
