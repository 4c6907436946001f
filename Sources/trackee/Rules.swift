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

            func run() throws {
                try Session.run(common) { session in
                    let loaded = session.loadRules(files)
                    for error in loaded.errors { writeAll(2, "trackee: \(error)\n") }
                    let rules = loaded.automation.ruleSet.rules
                    for rule in rules {
                        session.out.line("rule \"\(rule.id)\"" + (rule.name.map { " (\($0))" } ?? "")
                                         + (rule.enabled ? "" : " [disabled]"))
                        for trigger in rule.triggers {
                            switch trigger {
                            case .schedule(let expression):
                                let times = loaded.automation.elapses(
                                    rule: rule.id, expression: expression, after: session.now, count: count, zone: session.zone
                                ).map { session.zone.iso8601($0) }
                                let shown = !rule.enabled ? "disabled" : times.isEmpty ? "never fires again" : times.joined(separator: ", ")
                                session.out.line("  at \(expression): \(shown)")
                            case .focus(let mode, let state):
                                session.out.line("  focus \(mode) \(state.rawValue)")
                            }
                        }
                    }
                    let summary = "\(counted(rules.count, "rule")), \(counted(loaded.errors.count, "error"))"
                    guard loaded.errors.isEmpty else { throw CommandFailure.config(summary) }
                    session.out.line(summary)
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
