import TrackeeCore

/// One kind of condition: the key that names it in an `if:` mapping and how
/// to read its value. Every key of a condition mapping is one condition.
struct ConditionKind: Sendable {
    let key: String
    let read: @Sendable (YAMLValue, RuleFileReader) -> Condition?

    static let all: [ConditionKind] = [.weekdays, .time, .focus, .timer, .place, .any, .not]

    /// Reads `if:`, one mapping or a list of them, into conditions that
    /// must all hold.
    static func readAll(_ value: YAMLValue, _ reader: RuleFileReader) -> [Condition] {
        (reader.oneOrMany(value) ?? []).flatMap { readMapping($0, reader) }
    }

    /// Reads one mapping, each key a condition.
    private static func readMapping(_ value: YAMLValue, _ reader: RuleFileReader) -> [Condition] {
        guard let entries = reader.entries(value) else { return [] }
        if entries.isEmpty { reader.fail("expected at least one condition", at: value) }
        return entries.compactMap { entry in
            guard let kind = all.first(where: { $0.key == entry.key }) else {
                reader.failUnknown(entry, noun: "condition", known: all.map(\.key))
                return nil
            }
            return kind.read(entry.value, reader)
        }
    }

    /// Reads one mapping as a single condition: its only key, or all of them.
    private static func readGroup(_ value: YAMLValue, _ reader: RuleFileReader) -> Condition {
        let conditions = readMapping(value, reader)
        return conditions.count == 1 ? conditions[0] : .all(conditions)
    }

    static let weekdays = ConditionKind(key: "weekdays") { value, reader in
        let items = if case .sequence = value.node { reader.list(value) ?? [] } else { [value] }
        if items.isEmpty { reader.fail("expected at least one weekday", at: value) }
        return .weekdays(items.compactMap { reader.parsed($0, parseWeekdays) }.reduce(into: []) { $0.formUnion($1) })
    }

    static let time = ConditionKind(key: "time") { value, reader in
        reader.parsed(value, TimeWindow.init(parsing:)).map { .time($0) }
    }

    static let focus = ConditionKind(key: "focus") { value, reader in
        reader.name(value, "focus mode").map { .focus($0.lowercased() == "none" ? nil : $0) }
    }

    static let timer = ConditionKind(key: "timer") { value, reader in
        if case .mapping = value.node {
            guard let fields = reader.fields(value, known: ["running"]),
                let project = reader.required("running", in: fields).flatMap({ reader.name($0, "project") })
            else { return nil }
            return .timer(.runningProject(project))
        }
        return reader.parsed(value) { (text: String) throws(InvalidValue) in
            switch text {
            case "running": return .timer(.running)
            case "stopped": return .timer(.stopped)
            default: throw InvalidValue("expected running, stopped or {running: PROJECT}, found \"\(text)\"")
            }
        }
    }

    static let place = ConditionKind(key: "place") { value, reader in
        guard let name = reader.name(value, "place") else { return nil }
        reader.referPlace(name, at: value)
        return .place(name)
    }

    static let any = ConditionKind(key: "any") { value, reader in
        guard let items = reader.list(value) else { return nil }
        if items.isEmpty { reader.fail("expected at least one condition", at: value) }
        return .any(items.map { readGroup($0, reader) })
    }

    static let not = ConditionKind(key: "not") { value, reader in
        .not(readGroup(value, reader))
    }
}

/// `mon-fri`, `sat,sun`, `fri-mon` (a range may wrap past Sunday), `wed`.
private func parseWeekdays(_ text: String) throws(InvalidValue) -> Set<Weekday> {
    var days = Set<Weekday>()
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
        let ends = item.split(separator: "-", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
        guard (1...2).contains(ends.count), ends.allSatisfy({ !$0.isEmpty }) else {
            throw InvalidValue("expected weekdays such as mon-fri, sat,sun or [mon, wed], found \"\(text)\"")
        }
        let first = try weekday(ends[0])
        let last = try weekday(ends[ends.count - 1])
        let length = (last.rawValue - first.rawValue + 7) % 7
        for offset in 0...length {
            days.insert(Weekday(rawValue: (first.rawValue - 1 + offset) % 7 + 1)!)
        }
    }
    return days
}

private func weekday(_ name: String) throws(InvalidValue) -> Weekday {
    guard let day = Weekday(name: name) else {
        throw InvalidValue(
            "unknown weekday \"\(name)\"; use mon, tue, wed, thu, fri, sat, sun or a range such as mon-fri")
    }
    return day
}
