import ArgumentParser
import TrackeeAutomation
import TrackeeCore

extension Trackee.Focus {
    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Turn a focus mode on (it replaces any other) and fire its rules.")

        @OptionGroup var common: CommonOptions
        @OptionGroup var rules: RulesOption

        @Argument(help: "The focus mode, e.g. work.")
        var mode: String

        func run() throws {
            try Session.run(common) { session in try Trackee.Focus.change(to: mode, rules: rules, session: session) }
        }
    }
}
