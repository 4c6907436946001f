import ArgumentParser
import TrackeeAutomation
import TrackeeCore

extension Trackee.Focus {
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
}
