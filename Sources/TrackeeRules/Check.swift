import TrackeeCore

/// A ``Condition`` compiled for evaluation: weekdays as a bit set, names
/// already folded, so checking allocates nothing and parses nothing.
indirect enum Check: Sendable {
    /// Bit `n` set for ISO weekday `n`.
    case weekdays(UInt8)
    case time(TimeWindow)
    /// The folded focus mode that must be on; nil: none may be.
    case focus(String?)
    case timerRunning(Bool)
    /// The ASCII-folded project that must be running.
    case project(String)
    /// A place the last fixes put inside.
    case place(String)
    case any([Check])
    case all([Check])
    case not(Check)

    init(_ condition: Condition) {
        switch condition {
        case .weekdays(let days): self = .weekdays(days.reduce(0) { $0 | 1 << $1.rawValue })
        case .time(let window): self = .time(window)
        case .focus(let mode): self = .focus(mode.map(foldFocus))
        case .timer(.running): self = .timerRunning(true)
        case .timer(.stopped): self = .timerRunning(false)
        case .timer(.runningProject(let project)): self = .project(foldProject(project))
        case .place(let name): self = .place(name)
        case .any(let conditions): self = .any(conditions.map(Check.init))
        case .all(let conditions): self = .all(conditions.map(Check.init))
        case .not(let condition): self = .not(Check(condition))
        }
    }

    func holds(at moment: Moment) -> Bool {
        switch self {
        case .weekdays(let bits): bits & moment.weekdayBit != 0
        case .time(let window): window.contains(minuteOfDay: moment.minuteOfDay)
        case .focus(let mode): moment.focus == mode
        case .timerRunning(let running): moment.timerRunning == running
        case .project(let project): moment.project == project
        case .place(let name): moment.inside.contains(name)
        case .any(let checks): checks.contains { $0.holds(at: moment) }
        case .all(let checks): checks.allSatisfy { $0.holds(at: moment) }
        case .not(let check): !check.holds(at: moment)
        }
    }
}

/// What conditions look at, worked out once per evaluated event: the local
/// weekday and time of the event, and the snapshot's focus and timer folded
/// the way ``Check`` folds names.
struct Moment {
    let weekdayBit: UInt8
    let minuteOfDay: Int
    let focus: String?
    let timerRunning: Bool
    let project: String?
    let inside: Set<String>

    init(_ time: Instant, _ snapshot: Snapshot) {
        inside = snapshot.inside
        let local = snapshot.zone.localDateTime(time)
        weekdayBit = 1 << local.date.weekday
        minuteOfDay = local.hour * 60 + local.minute
        focus = snapshot.focus.map(foldFocus)
        switch snapshot.timer {
        case .stopped:
            timerRunning = false
            project = nil
        case .running(let project, _):
            timerRunning = true
            self.project = project.map(foldProject)
        }
    }
}

/// Focus modes compare as the store compares them: lower-cased.
func foldFocus(_ mode: String) -> String { mode.lowercased() }

/// Project names compare as SQLite's NOCASE does: ASCII letters only.
private func foldProject(_ name: String) -> String {
    String(
        decoding: name.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self
    )
}
