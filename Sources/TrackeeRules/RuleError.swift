/// A problem in a rule file, pinned to the line and column of the value at
/// fault so an editor can jump there.
///
/// `description` is the one line `trackee rules check` prints:
///
///     rules.yaml:12:9: rule "office-hours": do[0].start.projet: unknown key "projet"; did you mean "project"?
///     rules.yaml:3:10: places.office.lat: expected a latitude from -90 to 90, found "91"
///     rules.yaml:3:10: YAML: mapping values are not allowed in this context
public struct RuleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as the caller named it.
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in Unicode scalars as libyaml does.
    public var column: Int
    /// The id of the rule at fault; nil outside a rule, or when the rule has
    /// no usable id (the path then starts with `rules[N]`).
    public var rule: String?
    /// Where the value sits, such as `when[1].at` or `places.office.lat`;
    /// `YAML` for a syntax error, empty for the document as a whole.
    public var path: String
    /// What is wrong, and where possible what to write instead.
    public var message: String

    public init(file: String, line: Int, column: Int, rule: String? = nil, path: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.rule = rule
        self.path = path
        self.message = message
    }

    public var description: String {
        var text = "\(file):\(line):\(column): "
        if let rule { text += "rule \"\(rule)\": " }
        if !path.isEmpty { text += path + ": " }
        return text + message
    }
}
