import ArgumentParser
import TrackeeCore
import TrackeeDaemon
import TrackeeRules

extension Trackee {
    struct Rules: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rules",
            abstract: "Check rule files, list upcoming schedule and calendar firings, and say why rules fired or did not.",
            discussion: "Rule files are described in trackee-rules(5).",
            subcommands: [Check.self, Next.self, Why.self])

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

            /// `{"at": EXPR, "next": [...]}`, `{"focus": MODE, "state": "on"}`
            /// or `{"calendar": NAME, "event": "start", "offset": "-2m", "upcoming": [...]}`.
            struct TriggerView: Encodable {
                var at: String?
                var next: [String]?
                var focus: String?
                var state: String?
                var calendar: String?
                var event: String?
                var offset: String?
                var upcoming: [UpcomingEvent]?
                var place: String?
                var transition: String?
                var dwell: String?
                var source: String?
            }

            /// A calendar firing ahead: when, and the event's summary.
            struct UpcomingEvent: Encodable {
                var time: String
                var summary: String
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
                            switch trigger {
                            case .schedule(let expression):
                                let next = rule.enabled ? automation.elapses(
                                    rule: rule.id, expression: expression, after: session.now, count: count, zone: session.zone
                                ).map { session.zone.iso8601($0) } : []
                                return TriggerView(at: expression, next: next)
                            case .focus(let mode, let state):
                                return TriggerView(focus: mode, state: state.rawValue)
                            case .calendar(let t):
                                // A calendar that could not be read has no
                                // events to list: the error says so, once.
                                let read = automation.calendars[t.calendar] != nil
                                let upcoming = rule.enabled && read ? automation.upcoming(after: session.now, count: count, zone: session.zone) {
                                    guard case .calendar(rule.id, t.edge, t.offset, let o) = $0.kind else { return false }
                                    return t.accepts(o) && t.time(of: o, zone: session.zone) == $0.time
                                } : []
                                return TriggerView(
                                    calendar: t.calendar, event: t.edge.rawValue, offset: t.offset == 0 ? nil : t.offsetText,
                                    upcoming: !read ? nil : upcoming.map { event in
                                        guard case .calendar(_, _, _, let o) = event.kind else { return UpcomingEvent(time: "", summary: "") }
                                        return UpcomingEvent(time: session.zone.iso8601(event.time), summary: o.summary)
                                    })
                            case .place(let t):
                                return TriggerView(
                                    place: t.place, transition: t.transition.rawValue,
                                    dwell: t.dwell == 0 ? nil : CalendarTrigger(calendar: "", offset: t.dwell).offsetText.replacingOccurrences(of: "+", with: ""),
                                    source: t.source == .fixes ? nil : t.source.rawValue)
                            }
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
                            for trigger in rule.triggers { session.out.line("  " + Self.describe(trigger, enabled: rule.enabled)) }
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

            /// `at Mon..Fri 09:00: 2026-11-23T09:00:00+01:00, …`,
            /// `calendar work start -2m: 2026-11-24T09:28:00+01:00 Standup, …`.
            static func describe(_ trigger: TriggerView, enabled: Bool) -> String {
                if let at = trigger.at, let next = trigger.next {
                    let shown = !enabled ? "disabled" : next.isEmpty ? "never fires again" : next.joined(separator: ", ")
                    return "at \(at): \(shown)"
                }
                if let focus = trigger.focus, let state = trigger.state { return "focus \(focus) \(state)" }
                if let place = trigger.place, let transition = trigger.transition {
                    return "\(transition) \(place)" + (trigger.dwell.map { " for \($0)" } ?? "")
                        + (trigger.source.map { " (\($0))" } ?? "")
                }
                let head = "calendar \(trigger.calendar ?? "") \(trigger.event ?? "start")" + (trigger.offset.map { " \($0)" } ?? "")
                guard let upcoming = trigger.upcoming else { return "\(head): not read (see the error above)" }
                let shown = !enabled ? "disabled" : upcoming.isEmpty ? "no event ahead within a year"
                    : upcoming.map { "\($0.time) \($0.summary)" }.joined(separator: ", ")
                return "\(head): \(shown)"
            }

            private func counted(_ n: Int, _ noun: String) -> String {
                n == 0 ? "no \(noun)s" : n == 1 ? "1 \(noun)" : "\(n) \(noun)s"
            }
        }

        struct Next: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "next",
                abstract: "Print the upcoming schedule and calendar firings of all rules, in the local zone with offsets.")

            @OptionGroup var common: CommonOptions
            @OptionGroup var rules: RulesOption

            @Option(help: "How many firings to print.")
            var count: Int = 10

            @Option(parsing: .unconditional, help: "List firings after this time instead of now; see TIME FORMATS.")
            var from: String?

            /// A schedule firing has `expression`; a calendar one `calendar`,
            /// `event` and `summary`.
            struct View: Encodable {
                var time: String
                var rule: String
                var expression: String?
                var calendar: String?
                var event: String?
                var summary: String?

                init(_ event: TriggerEvent, zone: Zone) {
                    time = zone.iso8601(event.time)
                    rule = event.rule ?? ""
                    switch event.kind {
                    case .schedule(_, let expression): self.expression = expression
                    case .calendar(_, let edge, _, let o):
                        calendar = o.calendar
                        self.event = edge.rawValue
                        summary = o.summary
                    case .focus, .place: break
                    }
                }

                var text: String {
                    if let expression { return "\(time)  \(rule)  \(expression)" }
                    return "\(time)  \(rule)  calendar \(calendar ?? ""): \(summary ?? "") (\(event ?? "start"))"
                }
            }

            func validate() throws {
                guard count > 0 else { throw ValidationError("--count must be at least 1.") }
            }

            func run() throws {
                try Session.run(common) { session in
                    let automation = try session.strictRules(rules)
                    let from = try self.from.map { try session.time($0, option: "--from") } ?? session.now
                    let next = automation.upcoming(after: from, count: count, zone: session.zone).map { View($0, zone: session.zone) }
                    if session.out.json {
                        session.out.emit(next)
                        return
                    }
                    if next.isEmpty { session.out.line("no firings ahead") }
                    for view in next { session.out.line(view.text) }
                }
            }
        }
    }
}
