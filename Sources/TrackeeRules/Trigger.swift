import TrackeeCore

/// What makes a rule fire: the trigger config a rule file wrote, one type
/// per kind, each in a file of its own with its ``TriggerKind`` entry
/// (``TriggerKind/all`` lists the thirteen: schedule, focus, calendar,
/// arrive, leave, timer, idle, session, sleep, network, power, device,
/// flip). A
/// rule file writes one as a mapping whose distinguishing key names the
/// kind:
///
///     when:
///       - at: "Mon..Fri 09:00"
///       - focus: deep
///         state: off
public protocol RuleTrigger: Sendable {
    /// How the engine finds the rules that may take an event.
    var index: TriggerIndex { get }
    /// Whether `event` is this trigger's (its kind, and every value the
    /// trigger states). `zone` is the rules' zone.
    func accepts(_ event: TriggerEvent, zone: Zone) -> Bool
    /// Whether `event`, which this trigger does not accept, is still one it
    /// waits for in another form: a place crossing at the trigger's place
    /// and transition, made because the trigger watches it with a dwell
    /// (`for:`) not yet reached. `rules why` does not count such an event
    /// as one no rule waits for. False for most kinds.
    func awaits(_ event: TriggerEvent) -> Bool
    /// Whether `other` is the same trigger.
    func isEqual(to other: any RuleTrigger) -> Bool
    /// What `rules check` shows: `ahead` are the trigger's next occurrences
    /// when it has a timed runtime that could be read (empty for a disabled
    /// rule), nil otherwise.
    func checkView(ahead: [TriggerEvent]?, enabled: Bool, zone: Zone) -> TriggerCheckView
}

extension RuleTrigger {
    public func awaits(_ event: TriggerEvent) -> Bool { false }
}

extension RuleTrigger where Self: Equatable {
    public func isEqual(to other: any RuleTrigger) -> Bool { (other as? Self) == self }
}

/// Where the engine files a rule for one of its triggers.
public enum TriggerIndex: Sendable, Hashable {
    /// The trigger's events are made for its rule alone (a schedule, a
    /// calendar edge) and name it: they look at that rule only.
    case ruleOwned
    /// Events whose ``TriggerPayload/indexKey`` is this look at the rule.
    case key(String)
}

/// A trigger as `rules check` shows it: the fields of its JSON object and
/// its line of text.
public struct TriggerCheckView: Sendable, Equatable {
    public var fields: [String: ViewValue]
    public var text: String

    public init(fields: [String: ViewValue], text: String) {
        self.fields = fields
        self.text = text
    }
}

/// A JSON value of a view: text, a list, or an object.
public indirect enum ViewValue: Sendable, Equatable, Encodable {
    case text(String)
    case list([ViewValue])
    case object([String: ViewValue])

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .list(let items): try container.encode(items)
        case .object(let fields): try container.encode(fields)
        }
    }
}

/// One kind of trigger: the key that names it in a rule file, the other keys
/// it takes, the template fields its events give, and how to read it.
/// A kind is its ``all`` entry, its trigger type (conforming to
/// ``RuleTrigger``) and its event payload (``TriggerPayload``); the runtime
/// finds its source through the trigger type's conformance.
struct TriggerKind: Sendable {
    /// The distinguishing key, such as `at` or `focus`.
    let key: String
    /// Keys the kind takes besides ``key``.
    let options: [String]
    /// The fields its events give `{{trigger.FIELD}}` besides
    /// ``TriggerEvent/commonTemplateFields``; the keys of ``TriggerEvent/fields``.
    let fields: [String]
    /// Those of ``fields`` that hold a time, which a template may shift
    /// (`{{trigger.start + 8h}}`); `time` is one for every kind.
    var timeFields: [String] = []
    /// Reads the trigger from a mapping that holds ``key`` and no unknown keys.
    let read: @Sendable (YAMLFields, RuleFileReader) -> (any RuleTrigger)?

    /// Every kind there is.
    static let all: [TriggerKind] = [
        .schedule, .focus, .calendar, .arrive, .leave, .timer, .idle, .session, .sleep, .network, .power, .device, .flip,
    ]

    /// Reads one item of `when`, and the kind it turned out to be.
    static func read(_ value: YAMLValue, _ reader: RuleFileReader) -> (trigger: any RuleTrigger, kind: TriggerKind)? {
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

extension TriggerCheckView {
    /// `, `-joined upcoming items, or what stands in for none.
    static func shown(_ items: [String], enabled: Bool, none: String) -> String {
        !enabled ? "disabled" : items.isEmpty ? none : items.joined(separator: ", ")
    }
}
