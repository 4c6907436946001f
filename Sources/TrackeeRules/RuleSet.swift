import TrackeeCore

/// Everything the rule files define: places, calendars and rules, merged
/// across files in the order they were given.
///
///     let result = RuleSet.load([RuleFile(path: "rules.yaml", text: text)]) { _ in nil }
///     result.ruleSet.rules.map(\.id)  // ["office-hours", "lunch"]
public struct RuleSet: Sendable, Equatable {
    public var places: [Place]
    public var calendars: [CalendarReference]
    /// The rules that passed validation, including those with `enabled: false`.
    public var rules: [Rule]
    /// The projects those rules' `start` actions name as plain text (not
    /// templates), with where: the store may not have them.
    public var projectMentions: [ProjectMention] = []

    public init(places: [Place] = [], calendars: [CalendarReference] = [], rules: [Rule] = []) {
        self.places = places
        self.calendars = calendars
        self.rules = rules
    }
}

/// A named calendar: an `.ics` file or a vdir folder, for calendar triggers.
/// A relative path is made relative to the rule file's folder; callers
/// expand `~/`.
///
///     calendars:
///       work: ~/.calendars/work
///       holidays: {path: /usr/share/holidays/cz.ics}
public struct CalendarReference: Sendable, Equatable {
    public var name: String
    public var path: String
    /// Where the rule files name its path, `rules.yaml:3:9: calendars.work`,
    /// for errors about the calendar itself.
    public var origin: String?

    public init(name: String, path: String, origin: String? = nil) {
        self.name = name
        self.path = path
        self.origin = origin
    }
}

/// A project a rule's `start` names as plain text, and where, so that a
/// check can say which line names a project the store does not have.
public struct ProjectMention: Sendable, Equatable {
    public var rule: String
    public var project: String
    /// `rules.yaml:6:28`, the file, line and column of the name.
    public var position: String
    /// `do[1].start.project`.
    public var path: String
}
