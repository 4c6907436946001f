import TrackeeCore

/// The rule files as a one-shot command reads them: checked, and with the
/// calendars they name.
public struct LoadedRules: Sendable {
    /// The rules without errors, with the calendars that could be read.
    public var automation: Automation
    /// Positioned sentences: a file that cannot be read, a rule's error, a
    /// calendar that cannot be read (left out).
    public var errors: [String]
    /// What the calendars read were read past, as
    /// ``CalendarFiles/warningLines(_:names:)`` writes them.
    public var warnings: [String]
    /// How many warnings the calendars have in all, shown or not.
    public var warningCount: Int
}

extension Automation {
    /// Reads and checks the rule files (`explicit`, else the default ones;
    /// ``RuleFiles/paths(explicit:environment:)``) and, with `calendars`,
    /// reads the calendars they name.
    public static func read(ruleFiles explicit: [String], environment: [String: String], zone: Zone,
                            calendars: Bool = true) -> LoadedRules {
        let read = RuleFiles.read(RuleFiles.paths(explicit: explicit, environment: environment))
        let loaded = Automation.load(read.files)
        var errors = read.errors + loaded.errors.map(\.description)
        let sources = loaded.automation.ruleSet.calendars
        guard calendars, !sources.isEmpty else {
            return LoadedRules(automation: loaded.automation, errors: errors, warnings: [], warningCount: 0)
        }
        let files = CalendarFiles.read(sources, zone: zone, environment: environment)
        errors += files.problems.map(\.description)
        return LoadedRules(
            automation: Automation(loaded.automation.ruleSet, calendars: files.calendars), errors: errors,
            warnings: CalendarFiles.warningLines(files.calendars, names: sources.map(\.name)),
            warningCount: files.calendars.values.reduce(0) { $0 + $1.warnings.count })
    }
}
