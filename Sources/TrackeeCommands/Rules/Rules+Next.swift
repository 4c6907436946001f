import ArgumentParser
import TrackeeAutomation
import TrackeeCore
import TrackeeRules

extension Trackee.Rules {
    struct Next: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "next",
            abstract: "Print the upcoming schedule, calendar and running-timer firings of all rules, in the local zone with offsets.")

        @OptionGroup var common: CommonOptions
        @OptionGroup var rules: RulesOption

        @Option(help: "How many firings to print.")
        var count: Int = 10

        @Option(parsing: .unconditional, help: "List firings after this time instead of now; see TIME FORMATS.")
        var from: String?

        /// The time, the rule, and what the event's kind shows of it
        /// (``TriggerPayload/upcomingFields``): a schedule firing has
        /// `expression`; a calendar one `calendar`, `event` and `summary`.
        struct View: Encodable {
            var time: String
            var rule: String
            var fields: [String: String]
            var text: String

            init(_ event: TriggerEvent, zone: Zone) {
                time = zone.iso8601(event.time)
                rule = event.rule ?? ""
                fields = event.payload.upcomingFields
                text = "\(time)  \(rule)  \(event.payload.upcomingText)"
            }

            func encode(to encoder: any Encoder) throws {
                var object = fields.mapValues(ViewValue.text)
                object["time"] = .text(time)
                object["rule"] = .text(rule)
                try ViewValue.object(object).encode(to: encoder)
            }
        }

        /// One sentence for all the enabled rules' desk triggers, which
        /// fire when the machine changes and so have no time to list.
        static func untimedNote(_ automation: Automation) -> String? {
            var kinds = automation.untimedKinds
            guard let last = kinds.popLast() else { return nil }
            let named = kinds.isEmpty ? last : kinds.joined(separator: ", ") + " and " + last
            return "\(named) triggers are not timed: they fire when the machine changes, so none is listed"
        }

        func validate() throws {
            guard count > 0 else { throw ValidationError("--count must be at least 1.") }
        }

        func run() throws {
            try Session.run(common) { session in
                let automation = try session.strictRules(rules)
                let from = try self.from.map { try session.time($0, option: "--from") } ?? session.now
                // A running timer's running_for edges come from the
                // store, when there is one; a look ahead creates none.
                let next = automation.upcoming(after: from, count: count, zone: session.zone, state: try session.existingStoreState())
                    .map { View($0, zone: session.zone) }
                let untimed = Self.untimedNote(automation)
                if session.out.json {
                    session.out.emit(next)
                    // The list stays a plain array; the note is for people.
                    if let untimed { writeAll(2, "trackee: \(untimed)\n") }
                    return
                }
                if next.isEmpty { session.out.line("no firings ahead") }
                for view in next { session.out.line(view.text) }
                if let untimed { session.out.line(untimed) }
            }
        }
    }
}
