import TrackeeCore
import Yams

/// Reads typed values out of one rule file's node tree and collects a
/// positioned ``RuleError`` for every value it cannot use, so that one pass
/// reports everything wrong instead of stopping at the first problem.
///
/// Every accessor returns nil after reporting, and callers just skip what
/// they could not read: a rule with any error is rejected as a whole, so a
/// partly read value never escapes.
final class RuleFileReader {
    let file: String
    /// Checks an `at:` expression; nil when it is valid, else the message.
    let validateSchedule: (String) -> String?
    /// The id of the rule being read, for error lines; nil outside rules.
    var rule: String?
    /// The fields templates in the current rule may use; nil when its
    /// triggers could not be read, which leaves fields unchecked.
    var templateFields: [String]?
    /// Those of ``templateFields`` that hold a time, which a template may
    /// shift by a length.
    var templateTimeFields: [String]?
    private(set) var errors: [RuleError] = []
    /// Calendar names triggers use, checked against `calendars:` once every
    /// file is read (a calendar may be defined in another file).
    var calendarReferences: [NameReference] = []
    /// Place names triggers and conditions use, checked the same way.
    var placeReferences: [NameReference] = []
    /// Projects the rules' `start` actions name as plain text.
    var projectMentions: [ProjectMention] = []

    init(file: String, validateSchedule: @escaping (String) -> String?) {
        self.file = file
        self.validateSchedule = validateSchedule
    }

    // MARK: Reporting

    func fail(_ message: String, at mark: Mark?, path: String) {
        errors.append(
            RuleError(
                file: file, line: mark?.line ?? 1, column: mark?.column ?? 1, rule: rule, path: path, message: message))
    }

    func fail(_ message: String, at value: YAMLValue) {
        fail(message, at: value.node.mark, path: value.path)
    }

    /// Reports a key no reader knows, suggesting the nearest one that is.
    ///
    ///     unknown key "projet"; did you mean "project"?
    ///     unknown trigger "calendr"; did you mean "calendar"?
    func failUnknown(_ entry: YAMLEntry, noun: String = "key", known: [String]) {
        failUnknown(entry.key, at: entry.keyNode.mark, path: entry.value.path, noun: noun, known: known)
    }

    /// Reports a word written as a value where a name is expected, such as
    /// a bare action in `do:`.
    func failUnknown(_ word: String, at value: YAMLValue, noun: String, known: [String]) {
        failUnknown(word, at: value.node.mark, path: value.path, noun: noun, known: known)
    }

    private func failUnknown(_ word: String, at mark: Mark?, path: String, noun: String, known: [String]) {
        var message = "unknown \(noun) \"\(word)\""
        if let near = nearest(to: word, among: known) {
            message += "; did you mean \"\(near)\"?"
        } else if known.isEmpty {
            message += "; this takes no keys"
        } else {
            message += "; use " + known.map { "\"\($0)\"" }.joined(separator: ", ")
        }
        fail(message, at: mark, path: path)
    }

    // MARK: Containers

    /// The entries of a mapping; keys must be plain text.
    func entries(_ value: YAMLValue) -> [YAMLEntry]? {
        guard case .mapping(let mapping) = value.node else {
            fail("expected a mapping, found \(value.found)", at: value)
            return nil
        }
        var entries: [YAMLEntry] = []
        for (keyNode, node) in mapping {
            guard case .scalar(let key) = keyNode else {
                fail(
                    "keys must be plain text, found \(YAMLValue(node: keyNode, path: "").found)", at: keyNode.mark,
                    path: value.path)
                continue
            }
            entries.append(YAMLEntry(key: key.string, keyNode: keyNode, value: value.child(key.string, node)))
        }
        return entries
    }

    /// The entries of a mapping whose keys must all be in `known`.
    func fields(_ value: YAMLValue, known: [String]) -> YAMLFields? {
        guard let entries = entries(value) else { return nil }
        return fields(value, entries, known: known)
    }

    func fields(_ value: YAMLValue, _ entries: [YAMLEntry], known: [String]) -> YAMLFields {
        var kept: [YAMLEntry] = []
        for entry in entries {
            if known.contains(entry.key) {
                kept.append(entry)
            } else {
                failUnknown(entry, known: known)
            }
        }
        return YAMLFields(owner: value, entries: kept)
    }

    /// The entry whose key says what kind of thing a mapping is (`at:` in a
    /// trigger, `start:` in an action). Exactly one key must be a kind;
    /// `options` are keys that may sit beside it.
    func kindEntry(
        _ value: YAMLValue, _ entries: [YAMLEntry], kinds: [String], noun: String, options: [String] = []
    ) -> YAMLEntry? {
        let named = entries.filter { kinds.contains($0.key) }
        if named.count == 1 { return named[0] }
        if named.count > 1 {
            let found = named.map { "\"\($0.key)\"" }.joined(separator: " and ")
            fail(
                "one \(noun) per item, found \(found); make each its own list item",
                at: named[1].keyNode.mark, path: named[1].value.path)
            return nil
        }
        let unknown = entries.filter { !options.contains($0.key) }
        for entry in unknown { failUnknown(entry, noun: noun, known: kinds) }
        if unknown.isEmpty {
            let article = noun.first.map { "aeiou".contains($0) } == true ? "an" : "a"
            fail("expected \(article) \(noun): one of " + kinds.map { "\"\($0)\"" }.joined(separator: ", "), at: value)
        }
        return nil
    }

    /// The value of a key that must be there.
    func required(_ key: String, in fields: YAMLFields) -> YAMLValue? {
        if let value = fields[key] { return value }
        fail("required key \"\(key)\" is missing", at: fields.owner.node.mark, path: fields.owner.path(of: key))
        return nil
    }

    /// The elements of a sequence.
    func list(_ value: YAMLValue) -> [YAMLValue]? {
        guard case .sequence(let sequence) = value.node else {
            fail("expected a list, found \(value.found)", at: value)
            return nil
        }
        return sequence.enumerated().map { value.element($0.offset, $0.element) }
    }

    /// One mapping, or a list of them: how `when` and `if` take one item or several.
    func oneOrMany(_ value: YAMLValue) -> [YAMLValue]? {
        if case .mapping = value.node { return [value] }
        guard case .sequence = value.node else {
            fail("expected a mapping or a list of mappings, found \(value.found)", at: value)
            return nil
        }
        return list(value)
    }

    // MARK: Scalars

    /// Any scalar but an empty value (`key:`), as written: `12` and `on`
    /// are text here too.
    func string(_ value: YAMLValue) -> String? {
        guard case .scalar(let scalar) = value.node, !value.isNull else {
            fail("expected text, found \(value.found)", at: value)
            return nil
        }
        return scalar.string
    }

    /// Text that names something (a focus mode, a project): not blank.
    func name(_ value: YAMLValue, _ noun: String) -> String? {
        guard let text = string(value) else { return nil }
        guard !text.trimmingWhitespace().isEmpty else {
            fail("expected a \(noun) name, found \(value.found)", at: value)
            return nil
        }
        return text
    }

    func bool(_ value: YAMLValue) -> Bool? {
        guard let bool = value.node.bool else {
            fail("expected true or false, found \(value.found)", at: value)
            return nil
        }
        return bool
    }

    func number(_ value: YAMLValue) -> Double? {
        // Plain decimal text through Double's own parser; YAML's other
        // forms (1_000, sexagesimal 1:30) through Yams.
        var parsed: Double?
        if case .scalar(let scalar) = value.node, scalar.style == .plain || scalar.style == .any {
            parsed = Double(scalar.string) ?? value.node.float
        }
        guard let number = parsed, number.isFinite else {
            fail("expected a number, found \(value.found)", at: value)
            return nil
        }
        return number
    }

    /// Text that may hold `{{trigger.FIELD}}`, each field one of ``templateFields``.
    func template(_ value: YAMLValue) -> Template? {
        guard let template = parsed(value, Template.init) else { return nil }
        guard let known = templateFields else { return template }
        for field in template.fields where !known.contains(field) {
            var message = "unknown template field \"trigger.\(field)\""
            if let near = nearest(to: field, among: known) {
                message += "; did you mean \"trigger.\(near)\"?"
            } else {
                message += "; this rule's triggers give " + known.map { "trigger." + $0 }.joined(separator: ", ")
            }
            fail(message, at: value)
            return nil
        }
        let times = templateTimeFields ?? ["time"]
        for field in template.shiftedFields where !times.contains(field) {
            let list = times.map { "trigger." + $0 }.joined(separator: ", ")
            fail("only a time (\(list)) can be shifted by a length, not trigger.\(field)", at: value)
            return nil
        }
        return template
    }

    /// A scalar parsed by `parse`, whose error message is reported at the value.
    func parsed<T, Failure: Error & CustomStringConvertible>(
        _ value: YAMLValue, _ parse: (String) throws(Failure) -> T
    ) -> T? {
        guard let text = string(value) else { return nil }
        do {
            return try parse(text)
        } catch {
            fail(error.description, at: value)
            return nil
        }
    }
}

/// A name a rule uses that another section must define, with where it is
/// written, so the error can point at it.
struct NameReference {
    var name: String
    var error: RuleError
}

extension RuleFileReader {
    /// Notes that the current rule uses calendar `name`, written at `value`.
    func referCalendar(_ name: String, at value: YAMLValue) {
        calendarReferences.append(reference(name, "calendar", at: value))
    }

    /// Notes that the current rule uses place `name`, written at `value`.
    func referPlace(_ name: String, at value: YAMLValue) {
        placeReferences.append(reference(name, "place", at: value))
    }

    private func reference(_ name: String, _ noun: String, at value: YAMLValue) -> NameReference {
        NameReference(name: name, error: RuleError(
            file: file, line: value.node.mark?.line ?? 1, column: value.node.mark?.column ?? 1, rule: rule,
            path: value.path, message: "unknown \(noun) \"\(name)\""))
    }
}

/// Why a piece of rule text cannot be read; the message becomes the tail of
/// a ``RuleError`` line.
struct InvalidValue: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
