import ArgumentParser

extension Trackee {
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Push entries to Clockify and Toggl Track, and show and settle what is queued.",
            discussion: """
                Every change to a finished entry (added, edited, stopped, deleted, restored by \
                undo) is recorded in the same transaction, and queued for each target of the \
                settings' sync: section whose since: covers it. trackee sync pushes the queue \
                (trackee run does it by itself); a create whose answer was lost is looked for \
                at the service and adopted before it is sent again, so no entry arrives twice. \
                The talking is done by trackee-sync, installed next to trackee.
                """,
            subcommands: [Push.self, Check.self, Status.self, Backfill.self, Resolve.self],
            defaultSubcommand: Push.self)
    }
}
