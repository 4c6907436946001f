import TrackeeCore

/// What makes a rule fire. A rule file writes one as a mapping whose
/// distinguishing key names the kind:
///
///     when:
///       - at: "Mon..Fri 09:00"
///       - focus: deep
///         state: off
public enum Trigger: Sendable, Equatable {
    /// `at: EXPR`: a systemd calendar expression elapsed.
    case schedule(expression: String)
    /// `focus: MODE` with `state: on|off` (default on): that focus mode was
    /// switched on or off. Modes compare without regard to case.
    case focus(mode: String, state: FocusState)
    /// `calendar: NAME`: an event in that calendar starts or ends.
    case calendar(CalendarTrigger)
    /// `arrive: PLACE` or `leave: PLACE`, with `for:` and `source:`.
    case place(PlaceTrigger)
}

/// One kind of trigger: the key that names it in a rule file, the other keys
/// it takes, the template fields its events give, and how to read it.
/// Adding a kind means adding an entry to ``all``, a ``Trigger`` case, and
/// its matching in ``RuleEngine``; each kind's reader lives in its own file
/// when it is more than a few lines (``calendar``).
struct TriggerKind: Sendable {
    /// The distinguishing key, such as `at` or `focus`.
    let key: String
    /// Keys the kind takes besides ``key``.
    let options: [String]
    /// The fields its events give `{{trigger.FIELD}}` besides
    /// ``TriggerEvent/commonTemplateFields``; the keys of ``TriggerEvent/fields``.
    let fields: [String]
    /// Reads the trigger from a mapping that holds ``key`` and no unknown keys.
    let read: @Sendable (YAMLFields, RuleFileReader) -> Trigger?

    static let all: [TriggerKind] = [.schedule, .focus, .calendar, .arrive, .leave]

    static let schedule = TriggerKind(key: "at", options: [], fields: ["at"]) { fields, reader in
        guard let value = fields["at"] else { return nil }
        return reader.parsed(value) { (text: String) throws(InvalidValue) in
            if let problem = reader.validateSchedule(text) { throw InvalidValue(problem) }
            return .schedule(expression: text)
        }
    }

    static let focus = TriggerKind(key: "focus", options: ["state"], fields: ["mode", "state"]) { fields, reader in
        guard let value = fields["focus"], let mode = reader.name(value, "focus mode") else { return nil }
        guard let stateValue = fields["state"] else { return .focus(mode: mode, state: .on) }
        return reader.parsed(stateValue, parseFocusState).map { .focus(mode: mode, state: $0) }
    }

    /// Reads one item of `when`, and the kind it turned out to be.
    static func read(_ value: YAMLValue, _ reader: RuleFileReader) -> (trigger: Trigger, kind: TriggerKind)? {
        guard let entries = reader.entries(value),
            let named = reader.kindEntry(
                value, entries, kinds: all.map(\.key), noun: "trigger",
                options: all.flatMap(\.options)),
            let kind = all.first(where: { $0.key == named.key })
        else { return nil }
        let fields = reader.fields(value, entries, known: [kind.key] + kind.options)
        return kind.read(fields, reader).map { ($0, kind) }
    }
}

private func parseFocusState(_ text: String) throws(InvalidValue) -> FocusState {
    guard let state = FocusState(rawValue: text) else { throw InvalidValue("expected on or off, found \"\(text)\"") }
    return state
}
