/// A rule file's name and text. The name is only used in error lines.
public struct RuleFile: Sendable, Equatable {
    public var path: String
    public var text: String

    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}

/// What loading rule files gives: every rule that is valid, and every
/// problem found. A rule with a problem is left out (disabled) while the
/// others load, so the daemon keeps running them; `rules check` fails when
/// `errors` is not empty.
public struct RuleLoadResult: Sendable, Equatable {
    public var ruleSet: RuleSet
    public var errors: [RuleError]

    public init(ruleSet: RuleSet, errors: [RuleError]) {
        self.ruleSet = ruleSet
        self.errors = errors
    }
}

extension RuleSet {
    /// Reads and validates rule files, merging them in the order given
    /// (`rules.yaml`, then `rules.d/*.yaml` sorted, is the caller's choice).
    ///
    /// Validation is staged per rule — schema (keys and types), triggers,
    /// conditions, actions — and keeps going, so one call reports every
    /// problem. Rule ids, place names and calendar names must be unique
    /// across all files; a later duplicate is reported and left out.
    ///
    /// This module knows no calendar-expression syntax, so `validateSchedule`
    /// checks each `at:` expression: nil when valid, else the message to
    /// report at the expression.
    ///
    ///     let result = RuleSet.load([RuleFile(path: "rules.yaml", text: text)]) { expression in
    ///         do { _ = try CalendarSpec(expression); return nil } catch { return error.description }
    ///     }
    ///     for error in result.errors { print(error) }
    ///     // rules.yaml:4:11: rule "lunch": when[1].at: invalid calendar expression "Mon..Fry 12:00": unknown weekday "Fry"
    public static func load(_ files: [RuleFile], validateSchedule: @escaping (String) -> String?) -> RuleLoadResult {
        var loader = RuleSetLoader(validateSchedule: validateSchedule)
        for file in files { loader.load(file) }
        loader.checkReferences()
        return RuleLoadResult(ruleSet: loader.ruleSet, errors: loader.errors)
    }
}
