import ArgumentParser
import TrackeeCore
import TrackeeStore

extension ConflictChoice: ExpressibleByArgument {}

extension Trackee.Sync {
    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resolve",
            abstract: "Settle an entry sync set aside: a conflict, or one the service refused.",
            discussion: """
                A conflict is an entry the service deleted, or changed since trackee last \
                pushed it. --keep local pushes the local entry again (created anew, or written \
                over the change made there); --keep remote takes the service's side (an entry \
                it deleted is deleted here too, and trackee undo brings it back; one it \
                changed is left as each side has it). For a refused entry, local tries it \
                again and remote discards the queued change. ENTRY is the id trackee log \
                shows.
                """)

        @OptionGroup var common: CommonOptions

        @Argument(help: "The id of the entry in conflict.")
        var entry: Int64

        @Option(help: "Which side wins: local or remote.")
        var keep: ConflictChoice

        @Option(help: "The target (default: every target where the entry is set aside).")
        var target: String?

        func run() throws {
            try Session.run(common) { session in
                let targets = try PushJob.targets(session, named: target)
                let store = try session.openStore()
                var settled: [String] = []
                for t in targets where try store.resolveConflict(target: t.name, entryID: entry, keep: keep, now: session.now) {
                    settled.append(t.name)
                }
                guard !settled.isEmpty else {
                    throw CommandFailure.usage("entry \(entry) is not set aside (in conflict or refused)"
                                               + (target.map { " for \($0)" } ?? ""))
                }
                if session.out.json {
                    session.out.emit(["entry": "\(entry)", "kept": keep.rawValue, "targets": settled.joined(separator: ",")])
                } else {
                    session.out.line("entry \(entry): kept the \(keep.rawValue) side for \(settled.joined(separator: ", "))"
                                     + (keep == .local ? "; it is queued again" : ""))
                }
            }
        }
    }
}
