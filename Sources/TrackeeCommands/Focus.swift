import ArgumentParser
import TrackeeAutomation
import TrackeeCore

extension Trackee {
    struct Focus: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "focus",
            abstract: "Show, set or clear the focus mode; setting it fires the matching focus rules.",
            subcommands: [Show.self, Set.self, Clear.self],
            defaultSubcommand: Show.self)

        struct View: Encodable {
            var mode: String?
            var sequence: Int64
            var changed: String?
            var fired: [FiringView]?
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "show", abstract: "Print the focus mode that is on.")

            @OptionGroup var common: CommonOptions

            func run() throws {
                try Session.run(common) { session in
                    let focus = try session.openStore().focus()
                    if session.out.json {
                        session.out.emit(View(mode: focus.mode, sequence: focus.sequence,
                                              changed: focus.changed.map(session.zone.iso8601), fired: nil))
                    } else if let mode = focus.mode {
                        session.out.line("focus \(mode) since \(session.clock(focus.changed!))")
                    } else {
                        session.out.line("no focus mode on")
                    }
                }
            }
        }

        struct Set: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "set", abstract: "Turn a focus mode on (it replaces any other) and fire its rules.")

            @OptionGroup var common: CommonOptions
            @OptionGroup var rules: RulesOption

            @Argument(help: "The focus mode, e.g. work.")
            var mode: String

            func run() throws {
                try Session.run(common) { session in try Focus.change(to: mode, rules: rules, session: session) }
            }
        }

        struct Clear: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "clear", abstract: "Turn the focus mode off and fire its rules.")

            @OptionGroup var common: CommonOptions
            @OptionGroup var rules: RulesOption

            func run() throws {
                try Session.run(common) { session in try Focus.change(to: nil, rules: rules, session: session) }
            }
        }

        static func change(to mode: String?, rules: RulesOption, session: Session) throws {
            let automation = try session.strictRules(rules, calendars: false)
            let store = try session.openStore()
            let (change, reports) = try session.runner(store).setFocus(
                mode, automation: automation, at: session.now, source: .cli)
            if session.out.json {
                let focus = try store.focus()
                session.out.emit(View(mode: focus.mode, sequence: focus.sequence,
                                      changed: focus.changed.map(session.zone.iso8601),
                                      fired: reports.map { FiringView($0, session: session) }))
                return
            }
            guard let change else {
                session.out.line(mode.map { "unchanged: focus \($0) is already on" } ?? "unchanged: no focus mode was on")
                return
            }
            session.out.line(change.mode.map { "focus \($0) on" } ?? "focus \(change.previous ?? "") off")
            for report in reports { session.out.line(session.describe(report)) }
        }
    }
}
