import ArgumentParser

extension Trackee {
    struct CalendarCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "calendar",
            abstract: "Show what calendars hold, as calendar triggers see it.",
            subcommands: [List.self])
    }
}
