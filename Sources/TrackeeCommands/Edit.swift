import ArgumentParser
import TrackeeCore
import TrackeeStore

extension Trackee {
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change an entry's times, project, description or tags.",
            discussion: """
                ENTRY is an id from `trackee log`, or `running` for the running timer, \
                whose start can move too: `trackee edit running --move-start -2h` makes \
                it two hours longer.
                """)

        @OptionGroup var common: CommonOptions

        @Argument(help: "The entry id, or `running`.")
        var entry: String

        @Option(help: "Edit another person's timeline, which they let you write (see trackee hub grant).")
        var person: String?

        @Option(parsing: .unconditional, help: "A new start time.")
        var from: String?

        @Option(parsing: .unconditional, help: "A new end time (not for the running timer; use stop --at).")
        var to: String?

        @Option(name: .customLong("move-start"), parsing: .unconditional,
                help: "Move the start by a signed amount, e.g. -2h (earlier) or +15m (later).")
        var moveStart: String?

        @Option(name: [.short, .long], help: "A new project; one that does not exist yet is created as create_projects says.")
        var project: String?

        @Flag(name: .customLong("new-project"), help: "Create the project if it does not exist, whatever create_projects says.")
        var newProject = false

        @Flag(name: .customLong("no-project"), help: "Remove the entry's project.")
        var noProject = false

        @Option(name: [.short, .long], help: "The project's client.")
        var client: String?

        @Option(name: [.short, .long], help: "A new description.")
        var description: String?

        @Option(name: [.short, .customLong("tag")], help: "Replace the tags; repeat for several.")
        var tags: [String] = []

        @Flag(name: .customLong("clear-tags"), help: "Remove all tags.")
        var clearTags = false

        func validate() throws {
            if from != nil && moveStart != nil {
                throw ValidationError("Give either --from or --move-start, not both.")
            }
            if project != nil && noProject {
                throw ValidationError("Give either --project or --no-project, not both.")
            }
            if !tags.isEmpty && clearTags {
                throw ValidationError("Give either --tag or --clear-tags, not both.")
            }
        }

        func run() throws {
            try Session.run(common) { session in
                try NameOption.refuseBlank(project, "--project", "use --no-project to remove the entry's project")
                try NameOption.refuseBlank(client, "--client", "give a client name, or leave it out")
                try NameOption.refuseBlank(tags, "--tag", "use --clear-tags to remove all tags")
                let store = try session.openStore(person: person)
                let id = try EntryArgument.resolve(entry, store: store)
                var changes = EntryChanges(
                    client: client, description: description,
                    tags: clearTags ? [] : (tags.isEmpty ? nil : tags))
                if let from { changes.start = try session.time(from, option: "--from") }
                if let to { changes.end = try session.time(to, option: "--to") }
                if let moveStart {
                    let shift = try Relative.seconds(moveStart, option: "--move-start")
                    changes.start = try store.entry(id: id).start + shift
                }
                if let project { changes.project = .some(project) }
                if noProject { changes.project = .some(nil) }
                if changes.isEmpty {
                    throw CommandFailure.usage("nothing to change; give --from, --to, --move-start, --project, --no-project, --client, --description, --tag or --clear-tags")
                }
                let result = try session.creatingProjects(allowed: newProject) {
                    try store.edit(id, changes, now: session.now, newProjects: $0)
                }
                EntryReport.print("edited", result, session: session)
            }
        }
    }
}

/// An ENTRY argument: an id, or `running`.
enum EntryArgument {
    static func resolve(_ text: String, store: Store) throws -> Int64 {
        if text == "running" || text == "current" {
            guard let e = try store.running() else { throw CommandFailure(StoreError.noRunningTimer) }
            return e.id
        }
        return try parse(text)
    }

    static func parse(_ text: String) throws -> Int64 {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard let id = Int64(digits), id > 0 else {
            throw CommandFailure.usage("\"\(text)\" is not an entry id; use a number from `trackee log` or `running`")
        }
        return id
    }
}

/// Signed amounts such as `-2h`, `+15m`, `-1h30m`.
enum Relative {
    static func seconds(_ text: String, option: String) throws -> Int64 {
        guard let seconds = TimeExpression.signedAmount(text) else {
            throw CommandFailure.usage("\(option): cannot read \"\(text)\" as an amount of time; use a signed amount such as -2h, +15m or -1h30m")
        }
        return seconds
    }
}
