/// `timer:` events: the tracker's own timer started, stopped, or has been
/// running for a stated time.
///
/// `running_for` edges are timed and belong to the rule whose trigger
/// states the length, one per entry; `started` and `stopped` come from
/// applied intents, whoever applied them, and any rule may take them.
public struct TimerEdge: TriggerPayload {
    public enum Transition: Sendable, Equatable {
        /// The entry had been running this many seconds.
        case runningFor(rule: String, seconds: Int64)
        case started
        case stopped
    }

    public var transition: Transition
    /// The entry as it was when the event happened: a running entry has no end.
    public var entry: Entry

    public init(_ transition: Transition, entry: Entry) {
        self.transition = transition
        self.entry = entry
    }

    public var kindName: String { "timer" }

    public var rule: String? {
        if case .runningFor(let rule, _) = transition { return rule }
        return nil
    }

    public var isTimed: Bool { rule != nil }

    /// `started` and `stopped` events are filed under their name.
    public var indexKey: String { "timer:\(name)" }

    /// The transition as rule files write it.
    public var name: String {
        switch transition {
        case .runningFor: "running_for"
        case .started: "started"
        case .stopped: "stopped"
        }
    }

    /// Seconds the entry had run at the event.
    public var elapsed: Int64 {
        switch transition {
        case .runningFor(_, let seconds): seconds
        case .started: 0
        case .stopped: (entry.end ?? entry.start) - entry.start
        }
    }

    /// The entry's id, and the length for `running_for`: each entry fires
    /// each rule once per edge.
    public func occurrence(at time: Instant) -> String {
        switch transition {
        case .runningFor(_, let seconds): "timer:running_for:\(entry.id):\(seconds)"
        case .started, .stopped: "timer:\(name):\(entry.id)"
        }
    }

    public func fields(zone: Zone) -> [String: String] {
        [
            "transition": name, "entry": "\(entry.id)", "project": entry.project ?? "", "client": entry.client ?? "",
            "description": entry.description, "tags": entry.tags.joined(separator: ","),
            "start": zone.iso8601(entry.start), "end": entry.end.map { zone.iso8601($0) } ?? "",
            "elapsed": formatDuration(elapsed, .human),
        ]
    }

    public var summary: String {
        let project = entry.project.map { " \"\($0)\"" } ?? ""
        switch transition {
        case .runningFor(_, let seconds): return "timer\(project) running for \(formatDuration(seconds, .human))"
        case .started, .stopped: return "timer\(project) \(name)"
        }
    }
}

extension TriggerPayload where Self == TimerEdge {
    public static func timer(_ transition: TimerEdge.Transition, entry: Entry) -> TimerEdge {
        TimerEdge(transition, entry: entry)
    }
}
