import ArgumentParser

/// The `trackee` command: a time tracker that runs itself.
public struct Trackee: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "trackee",
        abstract: "Track time from the terminal, from scripts and from automations.",
        discussion: """
            Times accept ISO 8601 with an offset (2026-11-20T11:03+01:00), local \
            2026-11-20 11:03, 11:03 (today), yesterday 11:03, -2h and 90m ago, and \
            days by name: today, tomorrow, monday or mon (the coming one, or today), \
            next monday, last fri, each alone (its 00:00) or with a time (monday 9:00). \
            The store is $XDG_DATA_HOME/trackee/trackee.sqlite3 unless --store or \
            TRACKEE_STORE says otherwise. See trackee(1).
            """,
        version: TrackeeVersion.string,
        subcommands: [
            Start.self, Stop.self, Cancel.self, Status.self, Continue.self, Add.self, Edit.self, Delete.self, Undo.self,
            Log.self, History.self, Summary.self, ReportCommand.self, TagList.self, Clients.self, Projects.self, Export.self, Import.self,
            Focus.self, Rules.self, Tick.self, Run.self, Simulate.self, CalendarCommand.self, Feed.self, Places.self, Sync.self,
            Tokens.self, Hub.self,
        ])

    public init() {}
}

public enum TrackeeVersion {
    public static let string = "0.1.0"
}
