import ArgumentParser
import TrackeeCore
import TrackeeStore

/// `--from`, `--to`, `--project`, `--client`, `--tag`, `--description`,
/// `--billable` and `--non-billable`: which entries `log`, `summary`,
/// `tags` and `report` cover. Kinds combine with AND; a repeated option
/// accepts any of its values.
struct FilterOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Only time from this moment on; see TIME FORMATS.")
    var from: String?

    @Option(parsing: .unconditional, help: "Only time before this moment.")
    var to: String?

    @Option(name: [.short, .long], help: "Only this project, under any client; repeat for any of several.")
    var project: [String] = []

    @Option(name: [.short, .long], help: "Only the projects of this client; repeat for any of several.")
    var client: [String] = []

    @Option(name: [.short, .customLong("tag")], help: "Only entries with this tag; repeat for any of several.")
    var tags: [String] = []

    @Option(help: "Only entries whose description contains this text, in any case.")
    var description: String?

    @Flag(help: "Only entries of billable projects.")
    var billable = false

    @Flag(name: .customLong("non-billable"), help: "Only entries of projects that are not billable, or of none.")
    var nonBillable = false

    func validate() throws {
        if billable && nonBillable { throw ValidationError("Choose one of --billable and --non-billable.") }
    }

    /// The filter, its times read in the session's zone. Blank names are
    /// refused here; names that match nothing, by the store.
    func filter(_ session: Session) throws -> EntryFilter {
        try NameOption.refuseBlank(project, "--project", "leave it out for every project")
        try NameOption.refuseBlank(client, "--client", "leave it out for every client")
        try NameOption.refuseBlank(tags, "--tag", "leave it out for every tag")
        if description == "" { throw CommandFailure.usage("--description is empty; leave it out for every description") }
        let start = try from.map { try session.time($0, option: "--from") }
        let end = try to.map { try session.time($0, option: "--to") }
        if let start, let end, end <= start { throw CommandFailure.usage("--to must be after --from") }
        return EntryFilter(from: start, to: end, projects: project, clients: client, tags: tags, description: description,
                           billable: billable ? true : (nonBillable ? false : nil))
    }

    /// The options as typed, quoted for a shell where needed, to repeat
    /// them in the command that shows the next page.
    var arguments: [String] {
        var words: [String] = []
        if let from { words += ["--from", from] }
        if let to { words += ["--to", to] }
        words += project.flatMap { ["--project", $0] } + client.flatMap { ["--client", $0] } + tags.flatMap { ["--tag", $0] }
        if let description { words += ["--description", description] }
        if billable { words.append("--billable") }
        if nonBillable { words.append("--non-billable") }
        // None is empty: an empty time or name is refused before a page is shown.
        return words.map(shellQuoted)
    }
}
