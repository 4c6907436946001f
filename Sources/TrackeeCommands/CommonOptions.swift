import ArgumentParser
import TrackeeCore

/// Options every command takes.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: "The store file (default $TRACKEE_STORE, else $XDG_DATA_HOME/trackee/trackee.sqlite3).")
    var store: String?

    @Flag(name: .long, help: "Print JSON instead of text (fields are listed in trackee(1)).")
    var json = false
}

/// The parameters that describe what a timer tracks.
struct TimerOptions: ParsableArguments {
    @Option(name: [.short, .long], help: "The project; one that does not exist yet is created as create_projects says.")
    var project: String?

    @Option(name: [.short, .long], help: "The project's client; created with a new project.")
    var client: String?

    @Flag(name: .customLong("new-project"), help: "Create the project if it does not exist, whatever create_projects says.")
    var newProject = false

    @Option(name: [.short, .long], help: "What the time is spent on.")
    var description: String?

    @Option(name: [.short, .customLong("tag")], help: "A tag; repeat for several.")
    var tags: [String] = []

    @Argument(help: "Description words, an alternative to --description.")
    var words: [String] = []

    func validate() throws {
        if description != nil && !words.isEmpty {
            throw ValidationError("Give the description either as words or with --description, not both.")
        }
    }

    /// The parameters, refusing an empty or blank project, client or tag;
    /// `what` is what gets made without them: "a timer" or "an entry".
    func parameters(for what: String) throws -> TimerParametersInput {
        try NameOption.refuseBlank(project, "--project", "leave it out for \(what) without a project")
        try NameOption.refuseBlank(client, "--client", "leave it out for a project without a client")
        try NameOption.refuseBlank(tags, "--tag", "leave it out for \(what) without tags")
        return TimerParametersInput(project: project, client: client,
                                    description: description ?? words.joined(separator: " "), tags: tags)
    }
}

/// Checks for the values of `--project`, `--client` and `--tag`. An empty
/// name is refused rather than read as "none": `-p "$PROJECT"` with the
/// variable unset would otherwise start a timer without a project and say
/// nothing.
enum NameOption {
    /// Throws a usage error naming `option` when `value` is empty or blank;
    /// `instead` says what to write.
    static func refuseBlank(_ value: String?, _ option: String, _ instead: String) throws {
        guard let value, value.trimmingWhitespace().isEmpty else { return }
        throw CommandFailure.usage("\(option) is \(value.isEmpty ? "empty" : "blank"); \(instead)")
    }

    /// The same for a repeatable option: every value must be a name.
    static func refuseBlank(_ values: [String], _ option: String, _ instead: String) throws {
        for value in values { try refuseBlank(value, option, instead) }
    }
}

struct TimerParametersInput {
    var project: String?
    var client: String?
    var description: String
    var tags: [String]
}

/// An option value from a fixed list, spelled by its raw value; help lists
/// the values. The three members restate what ArgumentParser would derive,
/// because its defaults get there through `String(describing:)` and
/// runtime casts that cost every process a few hundred microseconds.
protocol ListedArgument: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension ListedArgument {
    public var defaultValueDescription: String { rawValue }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    public static var allValueDescriptions: [String: String] { [:] }
}

/// `--from` and `--to`: a half-open range of time.
struct RangeOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Start of the range; see TIME FORMATS.")
    var from: String

    @Option(parsing: .unconditional, help: "End of the range (not included).")
    var to: String

    /// The range, read in the session's zone; `--to` must be after `--from`.
    func range(_ session: Session) throws -> (start: Instant, end: Instant) {
        let start = try session.time(from, option: "--from")
        let end = try session.time(to, option: "--to")
        guard end > start else { throw CommandFailure.usage("--to must be after --from") }
        return (start, end)
    }
}

/// `--key`, shared by the intent commands.
struct KeyOption: ParsableArguments {
    @Option(help: "An idempotency key: a second call with the same key changes nothing.")
    var key: String?
}
