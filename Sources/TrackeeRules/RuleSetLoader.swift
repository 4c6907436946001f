import TrackeeCore
import Yams

/// Loads rule files one after another into one ``RuleSet``, remembering
/// where each name was first defined so duplicates across files are caught.
struct RuleSetLoader {
    let validateSchedule: (String) -> String?
    var ruleSet = RuleSet()
    private(set) var errors: [RuleError] = []
    /// `kind NUL name` → `file:line:column` of its first definition.
    private var definitions: [String: String] = [:]
    /// Calendar and place names used by triggers and conditions, checked
    /// by ``checkReferences()``.
    private var calendarReferences: [NameReference] = []
    private var placeReferences: [NameReference] = []

    init(validateSchedule: @escaping (String) -> String?) {
        self.validateSchedule = validateSchedule
    }

    /// Plain scalars are told apart only as far as the reader asks: null
    /// (an empty value) and booleans (`enabled:`). Numbers are read from
    /// their text, and every other tag of YAML's default resolver (int,
    /// float, timestamp, merge, value) costs a regular expression per
    /// scalar, each time a key is hashed or a tag asked for: most of the
    /// time it took to load a file with a thousand places.
    static let resolver = Resolver.basic.appending(.bool).appending(.null)

    mutating func load(_ file: RuleFile) {
        let reader = RuleFileReader(file: file.path, validateSchedule: validateSchedule)
        defer {
            errors += reader.errors
            calendarReferences += reader.calendarReferences
            placeReferences += reader.placeReferences
        }
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: file.text, Self.resolver) else { return }
            root = node
        } catch {
            errors.append(syntaxError(error, in: file))
            return
        }
        guard let fields = reader.fields(YAMLValue(node: root, path: ""), known: ["places", "calendars", "rules"])
        else {
            return
        }
        for entry in fields.entries where !entry.value.isNull {
            switch entry.key {
            case "places": readPlaces(entry.value, reader)
            case "calendars": readCalendars(entry.value, reader)
            default: readRules(entry.value, reader)
            }
        }
    }

    /// Records where `name` was first defined, or reports this later
    /// definition and returns false.
    mutating func claim(_ kind: String, _ name: String, at mark: Mark?, path: String, _ reader: RuleFileReader) -> Bool
    {
        let key = kind + "\u{0}" + name
        if let first = definitions[key] {
            reader.fail("duplicate \(kind) \"\(name)\"; first defined at \(first)", at: mark, path: path)
            return false
        }
        definitions[key] = "\(reader.file):\(mark?.line ?? 1):\(mark?.column ?? 1)"
        return true
    }

    /// Once every file is read: a rule whose trigger or condition names a
    /// calendar or place that no file defines is reported at that name and
    /// left out.
    mutating func checkReferences() {
        var rejected: Set<String> = []
        func check(_ references: [NameReference], known: Set<String>, section: String, example: (String) -> String) {
            for reference in references where !known.contains(reference.name) {
                guard let rule = reference.error.rule, ruleSet.rules.contains(where: { $0.id == rule }) else { continue }
                var error = reference.error
                if known.isEmpty {
                    error.message += "; define it under \(section):, e.g. \(section): {\(example(reference.name))}"
                } else if let near = nearest(to: reference.name, among: known.sorted()) {
                    error.message += "; did you mean \"\(near)\"?"
                } else {
                    error.message += "; \(section) are " + known.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                }
                errors.append(error)
                rejected.insert(rule)
            }
        }
        check(calendarReferences, known: Set(ruleSet.calendars.map(\.name)), section: "calendars") {
            "\($0): ~/.calendars/\($0)"
        }
        check(placeReferences, known: Set(ruleSet.places.map(\.name)), section: "places") {
            "\($0): {lat: 50.0875, lon: 14.4213, radius: 100}"
        }
        ruleSet.rules.removeAll { rejected.contains($0.id) }
    }

    // MARK: Places and calendars

    /// `places: {office: {lat: 50.08, lon: 14.42, radius: 150}}`, or a
    /// polygon `{polygon: [[50.1, 14.4], [50.1, 14.41], [50.11, 14.41]]}`;
    /// either may set `hysteresis` and `max_accuracy` (meters).
    private mutating func readPlaces(_ value: YAMLValue, _ reader: RuleFileReader) {
        for entry in reader.entries(value) ?? [] {
            let before = reader.errors.count
            guard let fields = reader.fields(
                entry.value, known: ["lat", "lon", "radius", "polygon", "hysteresis", "max_accuracy"])
            else { continue }
            var shape: Place.Shape?
            if let polygon = fields["polygon"] {
                for key in ["lat", "lon", "radius"] where fields[key] != nil {
                    reader.fail("a place is a circle (lat, lon, radius) or a polygon, not both; remove \(key)",
                                at: fields[key]!)
                }
                shape = readPolygon(polygon, reader).map { .polygon($0) }
            } else {
                let lat = reader.required("lat", in: fields).flatMap { reader.number($0, "a latitude from -90 to 90") { (-90...90).contains($0) } }
                let lon = reader.required("lon", in: fields).flatMap {
                    reader.number($0, "a longitude from -180 to 180") { (-180...180).contains($0) }
                }
                let radius = fields["radius"].flatMap { reader.number($0, "a radius in meters above 0") { $0 > 0 } }
                if let lat, let lon { shape = .circle(latitude: lat, longitude: lon, radius: radius ?? 100) }
            }
            let hysteresis = fields["hysteresis"].flatMap { reader.number($0, "a margin in meters, 0 or more") { $0 >= 0 } }
            let maxAccuracy = fields["max_accuracy"].flatMap { reader.number($0, "an accuracy in meters above 0") { $0 > 0 } }
            guard reader.errors.count == before, let shape,
                claim("place", entry.key, at: entry.keyNode.mark, path: entry.value.path, reader)
            else { continue }
            ruleSet.places.append(Place(
                name: entry.key, shape: shape, hysteresis: hysteresis ?? Place.defaultHysteresis,
                maxAccuracy: maxAccuracy ?? Place.defaultMaxAccuracy))
        }
    }

    /// `[[lat, lon], …]`, at least three corners.
    private func readPolygon(_ value: YAMLValue, _ reader: RuleFileReader) -> [Place.Coordinate]? {
        guard let items = reader.list(value) else { return nil }
        var corners: [Place.Coordinate] = []
        for item in items {
            guard let pair = reader.list(item) else { return nil }
            guard pair.count == 2 else {
                reader.fail("expected a corner as [latitude, longitude], found \(pair.count) numbers", at: item)
                return nil
            }
            guard let lat = reader.number(pair[0], "a latitude from -90 to 90", where: { (-90...90).contains($0) }),
                  let lon = reader.number(pair[1], "a longitude from -180 to 180", where: { (-180...180).contains($0) })
            else { return nil }
            corners.append(Place.Coordinate(latitude: lat, longitude: lon))
        }
        guard corners.count >= 3 else {
            reader.fail("a polygon needs at least three corners, found \(corners.count)", at: value)
            return nil
        }
        return corners
    }

    /// `calendars: {work: ~/.calendars/work, holidays: {path: cz.ics}}`.
    private mutating func readCalendars(_ value: YAMLValue, _ reader: RuleFileReader) {
        for entry in reader.entries(value) ?? [] {
            var pathValue: YAMLValue? = entry.value
            if case .mapping = entry.value.node {
                pathValue = reader.fields(entry.value, known: ["path"]).flatMap { reader.required("path", in: $0) }
            }
            guard let path = pathValue.flatMap({ reader.name($0, "calendar path") }),
                claim("calendar", entry.key, at: entry.keyNode.mark, path: entry.value.path, reader)
            else { continue }
            let mark = pathValue?.node.mark
            ruleSet.calendars.append(CalendarReference(
                name: entry.key, path: Self.resolve(path, besides: reader.file),
                origin: "\(reader.file):\(mark?.line ?? 1):\(mark?.column ?? 1): \(entry.value.path)"))
        }
    }

    /// A relative calendar path is relative to the rule file that names it,
    /// so rules and calendars can travel together; `~/` is left for the
    /// caller, who knows the home folder.
    static func resolve(_ path: String, besides file: String) -> String {
        guard !path.hasPrefix("/"), !path.hasPrefix("~"), let slash = file.lastIndex(of: "/") else { return path }
        return String(file[...slash]) + path
    }

    // MARK: Syntax errors

    /// libyaml's problem at its position: `rules.yaml:7:3: YAML: did not find expected key`.
    private func syntaxError(_ error: any Error, in file: RuleFile) -> RuleError {
        var position = (line: 1, column: 1)
        let message: String
        switch error as? YamlError {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            position = (mark.line, mark.column)
            message = problem + Self.hint(for: problem, at: mark, in: file.text)
        case .duplicatedKeysInMapping(let duplicates, let context):
            position = (context.mark.line, context.mark.column)
            message = "duplicate key " + duplicates.map { "\"\($0)\"" }.joined(separator: ", ")
        case .reader(let problem, let offset, _, _):
            if let offset { position = Self.position(ofCharacter: offset, in: file.text) }
            message = problem
        default:
            message = "\(error)"
        }
        return RuleError(file: file.path, line: position.line, column: position.column, path: "YAML", message: message)
    }

    /// What usually causes a puzzling libyaml complaint: a calendar
    /// expression such as `*-*-* 19:00` unquoted, which YAML reads as an
    /// alias (`*name`).
    private static func hint(for problem: String, at mark: Mark, in text: String) -> String {
        guard problem.contains("alphabetic or numeric character") else { return "" }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard mark.line >= 1, mark.line <= lines.count else { return "" }
        let line = lines[mark.line - 1]
        guard line.contains(": *") || line.contains("- *") else { return "" }
        return "; a value that starts with * must be quoted, as in at: \"*-*-* 19:00\""
    }

    /// The 1-based line and column (in Unicode scalars) of a character offset.
    private static func position(ofCharacter offset: Int, in text: String) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for character in text.prefix(offset) {
            if character == "\n" || character == "\r\n" {
                line += 1
                column = 1
            } else {
                column += character.unicodeScalars.count
            }
        }
        return (line, column)
    }
}

extension RuleFileReader {
    /// A number that passes `isValid`, described as `noun` when it does not.
    func number(_ value: YAMLValue, _ noun: String, where isValid: (Double) -> Bool) -> Double? {
        guard let number = number(value) else { return nil }
        guard isValid(number) else {
            fail("expected \(noun), found \(value.found)", at: value)
            return nil
        }
        return number
    }
}
