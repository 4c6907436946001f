import ArgumentParser
import Foundation
import TrackeeCore
import TrackeeStore

extension Trackee.Hub {
    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resolve",
            abstract: "Close a conflict: bring the row back (--keep) or let the merge stand (--drop).",
            discussion: """
                --keep makes the row again with its newest values, as a change made here that \
                the next sync pushes, so every device gets it back.
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "The conflict's number, from `trackee hub conflicts`.") var number: Int64
        @Flag(help: "Bring the row back.") var keep = false
        @Flag(help: "Let the merge stand.") var drop = false

        func validate() throws {
            if keep == drop { throw ValidationError("give --keep or --drop") }
        }

        func run() throws {
            try Session.run(common) { session in
                _ = try Trackee.Hub.settings(session)
                let conflict = try session.openStore().hubResolve(number, keep: keep, now: session.now)
                if session.out.json {
                    session.out.emit(Conflicts.View(conflict, zone: session.zone))
                } else {
                    session.out.line(Self.line(conflict, keep: keep))
                }
            }
        }

        static func line(_ conflict: HubConflict, keep: Bool) -> String {
            guard keep else { return "conflict \(conflict.id) closed; the merge stands" }
            let row = "\(conflict.kind) #\(conflict.rowID)"
            switch conflict.what {
            case "overwritten":
                return "put back the \(conflict.field ?? "field") of \(row) that \(conflict.lostDevice ?? "the other device") wrote; "
                    + "the next hub sync shares it"
            case "applied-twice":
                return "conflict \(conflict.id) closed; work on a voided entry cannot be put back"
            default:
                return "brought back \(row); the next hub sync shares it"
            }
        }
    }
}
