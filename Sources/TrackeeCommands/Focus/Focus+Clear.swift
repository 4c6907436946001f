import ArgumentParser
import TrackeeAutomation
import TrackeeCore

extension Trackee.Focus {
    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear", abstract: "Turn the focus mode off and fire its rules.")

        @OptionGroup var common: CommonOptions
        @OptionGroup var rules: RulesOption

        func run() throws {
            try Session.run(common) { session in try Trackee.Focus.change(to: nil, rules: rules, session: session) }
        }
    }
}
