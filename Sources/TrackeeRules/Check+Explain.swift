import TrackeeCore

extension Check {
    /// This check at `moment`, with `condition` (the one it was compiled
    /// from) for its wording and `snapshot` for its inputs as people read
    /// them. Whether it holds comes from ``holds(at:)`` itself, so a trace
    /// cannot disagree with the evaluation it explains.
    func explain(_ condition: Condition, at moment: Moment, time: Instant, _ snapshot: Snapshot) -> RuleTrace.ConditionStep {
        let holds = holds(at: moment)
        func nested(_ conditions: [Condition], _ checks: [Check]) -> String {
            zip(conditions, checks).map { $1.explain($0, at: moment, time: time, snapshot).line }.joined(separator: "; ")
        }
        switch (self, condition) {
        case (.any(let checks), .any(let conditions)):
            return .init(condition: "any", input: nested(conditions, checks), holds: holds)
        case (.all(let checks), .all(let conditions)):
            return .init(condition: "all", input: nested(conditions, checks), holds: holds)
        case (.not(let check), .not(let inner)):
            return .init(condition: "not", input: check.explain(inner, at: moment, time: time, snapshot).line, holds: holds)
        default:
            return .init(condition: condition.wording, input: condition.input(time: time, snapshot), holds: holds)
        }
    }
}

extension Condition {
    /// The condition as a rule file would say it: `weekdays mon,tue`,
    /// `time 09:00-17:00`, `focus none`, `timer running Lunch`, `place Home`.
    var wording: String {
        switch self {
        case .weekdays(let days):
            "weekdays " + days.sorted { $0.rawValue < $1.rawValue }.map { $0.shortName.lowercased() }.joined(separator: ",")
        case .time(let window): "time \(window)"
        case .focus(let mode): "focus \(mode ?? "none")"
        case .timer(.running): "timer running"
        case .timer(.stopped): "timer stopped"
        case .timer(.runningProject(let project)): "timer running \(project)"
        case .place(let name): "place \(name)"
        case .any: "any"
        case .all: "all"
        case .not: "not"
        }
    }

    /// What a leaf condition looks at, at `time`: the local weekday or
    /// time, the focus, the timer, the places inside.
    func input(time: Instant, _ snapshot: Snapshot) -> String {
        switch self {
        case .weekdays:
            return (Weekday(rawValue: snapshot.zone.localDateTime(time).date.weekday)?.shortName ?? "?")
        case .time:
            let local = snapshot.zone.localDateTime(time)
            return "\(pad(local.hour, 2)):\(pad(local.minute, 2))"
        case .focus:
            return "focus is \(snapshot.focus ?? "none")"
        case .timer:
            switch snapshot.timer {
            case .stopped: return "timer is stopped"
            case .running(let project, _): return "timer is running " + (project ?? "(no project)")
            }
        case .place:
            return "inside [" + snapshot.inside.sorted().joined(separator: ", ") + "]"
        case .any, .all, .not:
            return ""
        }
    }
}
