import TrackeeCore
import TrackeeRules

/// Stands in for the schedule module: rejects any expression naming "Fry".
func stubValidateSchedule(_ expression: String) -> String? {
    expression.contains("Fry") ? "invalid calendar expression \"\(expression)\": unknown weekday \"Fry\"" : nil
}

/// Loads `files` (path, text) with the stub schedule validator.
func load(_ files: [(String, String)]) -> RuleLoadResult {
    RuleSet.load(files.map { RuleFile(path: $0.0, text: $0.1) }, validateSchedule: stubValidateSchedule)
}

/// The error lines loading one `rules.yaml` gives.
func errorLines(_ text: String) -> [String] {
    load([("rules.yaml", text)]).errors.map(\.description)
}

/// The rules of one file, which must load without errors.
func rules(_ text: String) throws -> [Rule] {
    let result = load([("rules.yaml", text)])
    guard result.errors.isEmpty else { throw LoadFailed(lines: result.errors.map(\.description)) }
    return result.ruleSet.rules
}

struct LoadFailed: Error, CustomStringConvertible {
    let lines: [String]
    var description: String { lines.joined(separator: "\n") }
}

func template(_ text: String) -> Template {
    try! Template(text)
}
