import TrackeeCore
import TrackeeRules

extension Runner.Report {
    /// One line: `fired standup at 2026-11-23T09:00:00+01:00: started
    /// Meetings (created project "Meetings")`, `already fired …`,
    /// `refused … at …: why`, `failed … at …: why`.
    public func line(zone: Zone) -> String {
        let when = zone.iso8601(firing.time)
        switch status {
        case .fired(let results):
            let what = results.map { result -> String in
                guard let entry = result.entry else { return result.outcome.rawValue }
                return "\(result.outcome.rawValue) \(entry.project ?? "(no project)")"
            }
            let created = results.flatMap(\.created)
            return "fired \(firing.rule) at \(when)" + (what.isEmpty ? "" : ": " + what.joined(separator: ", "))
                + (created.isEmpty ? "" : " (created \(created.joined(separator: ", ")))")
        case .alreadyFired:
            return "already fired \(firing.rule) at \(when)"
        case .refused(let message):
            return "refused \(firing.rule) at \(when): \(message)"
        case .failed(let message):
            return "failed \(firing.rule) at \(when): \(message)"
        }
    }

    /// A firing on a throwaway store, as `simulate` and `feed --dry-run`
    /// print it: a line per intent with its outcome and entry, and what
    /// `notify` and `run` would do (they are not done); one ``line(zone:)``
    /// when it did not fire.
    public func dryRunLines(zone: Zone, style: TextStyle) -> [String] {
        let when = zone.iso8601(firing.time)
        guard case .fired(let all) = status else {
            return ["\(when)  \(firing.rule)  \(line(zone: zone))"]
        }
        var results = all[...]
        var lines: [String] = []
        for action in firing.actions {
            switch action {
            case .intent:
                guard let result = results.popFirst() else { continue }
                let what = result.entry.map { $0.label(style) } ?? "nothing running"
                lines.append("\(when)  \(firing.rule)  \(result.outcome.rawValue) \(what)")
            case .notify(let title, let body):
                lines.append("\(when)  \(firing.rule)  would notify: \(title)" + (body.map { ": \($0)" } ?? ""))
            case .run(let argv, _):
                lines.append("\(when)  \(firing.rule)  would run: \(argv.map(shellQuoted).joined(separator: " "))")
            }
        }
        return lines
    }
}

/// A firing as JSON (`tick`, `focus set`, `simulate`); a simulated one
/// also says what its notify and run actions would have done.
public struct FiringView: Encodable, Sendable {
    public var rule: String
    public var key: String
    public var time: String
    /// `fired`, `already_fired`, `refused` or `failed`.
    public var status: String
    public var outcomes: [String]
    public var error: String?
    public var would_notify: [String]?
    public var would_run: [[String]]?

    public init(_ report: Runner.Report, zone: Zone) {
        rule = report.firing.rule
        key = report.firing.key.text
        time = zone.iso8601(report.firing.time)
        switch report.status {
        case .fired(let results):
            status = "fired"
            outcomes = results.map(\.outcome.rawValue)
        case .alreadyFired:
            status = "already_fired"
            outcomes = []
        case .refused(let message):
            status = "refused"
            outcomes = []
            error = message
        case .failed(let message):
            status = "failed"
            outcomes = []
            error = message
        }
    }

    /// A firing of a simulation, with what its `notify` and `run` actions
    /// would have done (a simulation does neither): each notification as
    /// `title: body`, each program as its argv; absent when none.
    public init(simulated report: Runner.Report, zone: Zone) {
        self.init(report, zone: zone)
        var notify: [String] = []
        var run: [[String]] = []
        if case .fired = report.status {
            for action in report.firing.actions {
                switch action {
                case .intent: break
                case .notify(let title, let body): notify.append(title + (body.map { ": \($0)" } ?? ""))
                case .run(let argv, _): run.append(argv)
                }
            }
        }
        would_notify = notify.isEmpty ? nil : notify
        would_run = run.isEmpty ? nil : run
    }
}
