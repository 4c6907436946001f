import TrackeeCore

/// `timer: started`, `timer: stopped` or `timer: {running_for: 4h}`, with
/// `project:`, `client:` and `tag:` filters beside it: the tracker's own
/// timer started, stopped, or has run that long (a timer left running).
///
///     when: {timer: {running_for: 4h}, project: Client work}
///     when: {timer: stopped, tag: billable}
public struct TimerTrigger: RuleTrigger, Equatable {
    public enum Edge: Sendable, Equatable {
        /// Seconds, more than 0.
        case runningFor(Int64)
        case started
        case stopped
    }

    public var edge: Edge
    /// Each given one must match the entry (names without regard to case).
    public var project: String?
    public var client: String?
    public var tag: String?

    public init(_ edge: Edge, project: String? = nil, client: String? = nil, tag: String? = nil) {
        self.edge = edge
        self.project = project
        self.client = client
        self.tag = tag
    }

    public var index: TriggerIndex {
        switch edge {
        case .runningFor: .ruleOwned
        case .started: .key("timer:started")
        case .stopped: .key("timer:stopped")
        }
    }

    public func accepts(_ event: TriggerEvent, zone: Zone) -> Bool {
        guard let e = event.payload as? TimerEdge else { return false }
        switch (edge, e.transition) {
        case (.runningFor(let a), .runningFor(_, let b)) where a == b: break
        case (.started, .started), (.stopped, .stopped): break
        default: return false
        }
        return accepts(e.entry)
    }

    /// Whether the entry passes every filter.
    public func accepts(_ entry: Entry) -> Bool {
        func same(_ a: String?, _ b: String?) -> Bool { a.map { $0.lowercased() == b?.lowercased() } ?? true }
        return same(project, entry.project) && same(client, entry.client)
            && (tag.map { tag in entry.tags.contains { $0.lowercased() == tag.lowercased() } } ?? true)
    }

    /// `{"timer": "running_for", "running_for": "4h", "project": …}`;
    /// `timer running for 4h (project X)`.
    public func checkView(ahead: [TriggerEvent]?, enabled: Bool, zone: Zone) -> TriggerCheckView {
        var fields: [String: ViewValue] = [:]
        var text: String
        switch edge {
        case .runningFor(let seconds):
            let length = String(CalendarTrigger(calendar: "", offset: seconds).offsetText.dropFirst())
            fields["timer"] = .text("running_for")
            fields["running_for"] = .text(length)
            text = "timer running for \(length)"
        case .started:
            fields["timer"] = .text("started")
            text = "timer started"
        case .stopped:
            fields["timer"] = .text("stopped")
            text = "timer stopped"
        }
        var filters: [String] = []
        for (key, value) in [("project", project), ("client", client), ("tag", tag)] {
            guard let value else { continue }
            fields[key] = .text(value)
            filters.append("\(key) \(value)")
        }
        if !filters.isEmpty { text += " (\(filters.joined(separator: ", ")))" }
        return TriggerCheckView(fields: fields, text: text)
    }
}

extension RuleTrigger where Self == TimerTrigger {
    public static func timer(_ edge: TimerTrigger.Edge, project: String? = nil, client: String? = nil, tag: String? = nil)
        -> TimerTrigger
    {
        TimerTrigger(edge, project: project, client: client, tag: tag)
    }
}

extension TriggerKind {
    static let timer = TriggerKind(
        key: "timer", options: ["project", "client", "tag"],
        fields: ["transition", "entry", "project", "client", "description", "tags", "start", "end", "elapsed"],
        timeFields: ["start", "end"]
    ) { fields, reader in
        guard let value = fields["timer"], let edge = readEdge(value, reader) else { return nil }
        var trigger = TimerTrigger(edge)
        var ok = true
        for (key, path) in [("project", \TimerTrigger.project), ("client", \.client), ("tag", \.tag)] {
            guard let filter = fields[key] else { continue }
            if let name = reader.name(filter, key) { trigger[keyPath: path] = name } else { ok = false }
        }
        return ok ? trigger : nil
    }

    /// `started`, `stopped`, or `{running_for: DURATION}`.
    private static func readEdge(_ value: YAMLValue, _ reader: RuleFileReader) -> TimerTrigger.Edge? {
        if case .mapping = value.node {
            guard let fields = reader.fields(value, known: ["running_for"]) else { return nil }
            guard let length = fields["running_for"] else {
                reader.fail("expected {running_for: DURATION}, such as {running_for: 4h}", at: value)
                return nil
            }
            return reader.parsed(length) { (text: String) throws(InvalidValue) in
                let seconds = try parseDuration(text).components.seconds
                guard seconds > 0 else { throw InvalidValue("a timer must run longer than 0s, found \"\(text)\"") }
                return .runningFor(seconds)
            }
        }
        return reader.parsed(value) { (text: String) throws(InvalidValue) in
            switch text {
            case "started": return .started
            case "stopped": return .stopped
            case "running_for", "running":
                throw InvalidValue("running_for takes a length: write timer: {running_for: 4h}")
            default: throw InvalidValue("expected started, stopped or {running_for: DURATION}, found \"\(text)\"")
            }
        }
    }
}
