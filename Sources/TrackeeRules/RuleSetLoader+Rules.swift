import TrackeeCore
import Yams

extension RuleSetLoader {
    static let ruleKeys = ["id", "name", "enabled", "when", "if", "do", "cooldown", "catchup", "max_late"]

    /// `rules: [...]`: each valid rule is added; each bad one is reported and left out.
    mutating func readRules(_ value: YAMLValue, _ reader: RuleFileReader) {
        for item in reader.list(value) ?? [] {
            let mentioned = reader.projectMentions.count
            if let rule = readRule(item, reader) {
                ruleSet.rules.append(rule)
                ruleSet.projectMentions += reader.projectMentions[mentioned...]
            }
        }
        reader.rule = nil
    }

    /// Reads one rule in stages: schema (keys and plain values), triggers,
    /// conditions, actions. Returns nil when any stage reported a problem.
    ///
    /// A rule whose id is usable is named by it in error lines; otherwise
    /// paths start at `rules[N]`.
    private mutating func readRule(_ value: YAMLValue, _ reader: RuleFileReader) -> Rule? {
        let id = value.node.mapping?["id"]?.scalar.map(\.string).flatMap { Self.isValidID($0) ? $0 : nil }
        reader.rule = id
        reader.templateFields = nil
        reader.templateTimeFields = nil
        let before = reader.errors.count
        guard
            let fields = reader.fields(id == nil ? value : YAMLValue(node: value.node, path: ""), known: Self.ruleKeys)
        else { return nil }

        if let idValue = reader.required("id", in: fields), let text = reader.string(idValue) {
            if id == nil {
                reader.fail("invalid id \"\(text)\"; use letters, digits, \"-\", \"_\" and \".\"", at: idValue)
            } else {
                _ = claim("rule id", text, at: idValue.node.mark, path: idValue.path, reader)
            }
        }
        let name = fields["name"].flatMap(reader.string)
        let enabled = fields["enabled"].flatMap(reader.bool)
        let when = reader.required("when", in: fields)
        let actionList = reader.required("do", in: fields)
        let cooldown = fields["cooldown"].flatMap { reader.parsed($0, parseCooldown) }
        let catchup = fields["catchup"].flatMap { reader.parsed($0, parseCatchup) }
        let maxLate = fields["max_late"].flatMap { reader.parsed($0, parseDuration) }

        let triggers = when.map { readTriggers($0, reader) } ?? []
        let conditions = fields["if"].map { ConditionKind.readAll($0, reader) } ?? []
        let actions = actionList.map { ActionKind.readAll($0, reader) } ?? []

        guard reader.errors.count == before, let id else { return nil }
        var rule = Rule(
            id: id, name: name, triggers: triggers, conditions: conditions, actions: actions, cooldown: cooldown)
        rule.enabled = enabled ?? rule.enabled
        rule.catchup = catchup ?? rule.catchup
        rule.maxLate = maxLate ?? rule.maxLate
        return rule
    }

    /// `when:`, one trigger or a list. Also settles which template fields the
    /// rule's actions may use: those every one of its trigger kinds gives.
    private func readTriggers(_ value: YAMLValue, _ reader: RuleFileReader) -> [any RuleTrigger] {
        guard let items = reader.oneOrMany(value) else { return [] }
        if items.isEmpty { reader.fail("expected at least one trigger, such as {at: \"Mon..Fri 09:00\"}", at: value) }
        let read = items.compactMap { TriggerKind.read($0, reader) }
        if let first = read.first {
            reader.templateFields =
                TriggerEvent.commonTemplateFields
                + first.kind.fields.filter { field in read.allSatisfy { $0.kind.fields.contains(field) } }
            reader.templateTimeFields =
                ["time"] + first.kind.timeFields.filter { field in read.allSatisfy { $0.kind.timeFields.contains(field) } }
        }
        return read.map(\.trigger)
    }

    /// Letters, digits, `-`, `_` and `.`: safe in firing keys (`id@occurrence#n`)
    /// and environment values.
    static func isValidID(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                    true
                default: false
                }
            }
    }
}

private func parseCooldown(_ text: String) throws(InvalidValue) -> Duration {
    let duration = try parseDuration(text)
    guard duration > .zero else { throw InvalidValue("a cooldown must be longer than 0s, found \"\(text)\"") }
    return duration
}

private func parseCatchup(_ text: String) throws(InvalidValue) -> Catchup {
    guard let catchup = Catchup(rawValue: text) else { throw InvalidValue("expected skip or once, found \"\(text)\"") }
    return catchup
}
