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

        static func change(to mode: String?, rules: RulesOption, session: Session) throws {
            let automation = try session.strictRules(rules, calendars: false)
            let store = try session.openStore()
            let (change, reports) = try session.runner(store).setFocus(
                mode, automation: automation, at: session.now, source: .cli)
            if session.out.json {
                let focus = try store.focus()
                session.out.emit(View(mode: focus.mode, sequence: focus.sequence,
                                      changed: focus.changed.map(session.zone.iso8601),
                                      fired: reports.map { FiringView($0, zone: session.zone) }))
                return
            }
            guard let change else {
                session.out.line(mode.map { "unchanged: focus \($0) is already on" } ?? "unchanged: no focus mode was on")
                return
            }
            session.out.line(change.mode.map { "focus \($0) on" } ?? "focus \(change.previous ?? "") off")
            for report in reports { session.out.line(report.line(zone: session.zone)) }
        }
    }
}
