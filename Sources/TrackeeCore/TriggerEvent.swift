/// Something that happened and may fire rules: a schedule elapsing, a focus
/// mode changing, a calendar event starting or ending.
///
/// `time` is the occurrence's own instant (the scheduled elapse, the moment
/// the focus changed), never the moment it was noticed, so a 09:00 rule
/// noticed at 09:04 still starts its timer at 09:00.
///
/// ```swift
/// let e = TriggerEvent(.schedule(rule: "office-hours", expression: "Mon..Fri 09:00"),
///                      time: Instant(seconds: 1_763_625_600))
/// e.occurrence // "at:1763625600"
/// ```
public struct TriggerEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// An `at:` expression of one rule elapsed. Schedules belong to a
        /// rule, so only that rule is considered.
        case schedule(rule: String, expression: String)
        /// The focus mode changed. `sequence` numbers focus changes in the
        /// store, so each change fires a rule once.
        case focus(mode: String, state: FocusState, sequence: Int64)
        /// An edge of a calendar occurrence, for one rule's trigger with
        /// `offset` (seconds on the wall clock): the offset and `match:` are
        /// already applied, so only that rule is considered.
        case calendar(rule: String, edge: CalendarEdge, offset: Int64, occurrence: CalendarOccurrence)
        /// A place was entered or left. Every rule with a matching `arrive:`
        /// or `leave:` trigger is considered.
        case place(PlaceEvent)
    }

    public var kind: Kind
    public var time: Instant

    public init(_ kind: Kind, time: Instant) {
        self.kind = kind
        self.time = time
    }

    /// The rule a schedule event belongs to; nil for events any rule may
    /// take.
    public var rule: String? {
        switch kind {
        case .schedule(let rule, _), .calendar(let rule, _, _, _): rule
        case .focus, .place: nil
        }
    }

    /// Whether the occurrence was known ahead of its time (a schedule
    /// elapse, a calendar edge), so how late it was handled means something.
    public var isTimed: Bool {
        switch kind {
        case .schedule, .calendar: true
        case .focus, .place: false
        }
    }

    /// The trigger kind as rule files and templates name it.
    public var kindName: String {
        switch kind {
        case .schedule: "schedule"
        case .focus: "focus"
        case .calendar: "calendar"
        case .place: "place"
        }
    }

    /// What identifies this occurrence within a rule; with the rule id it
    /// makes the firing key. A schedule's elapse instant, a focus change's
    /// sequence number; for a calendar, the calendar, the event's UID, the
    /// instance's recurrence id (`-` for an event that does not recur) and
    /// the edge, so moving or editing an instance does not make it new,
    /// then the trigger's offset unless it is 0 (`:-300`), so two triggers
    /// of one rule on the same edge fire once each.
    public var occurrence: String {
        switch kind {
        case .schedule: "at:\(time.seconds)"
        case .focus(_, _, let sequence): "focus:\(sequence)"
        case .calendar(_, let edge, let offset, let o):
            calendarKey(o, edge) + (offset == 0 ? "" : offset < 0 ? ":\(offset)" : ":+\(offset)")
        case .place(let p): "place:\(keyPart(p.place)):\(p.transition.rawValue):\(time.seconds)"
        }
    }

    /// The occurrence as keys wrote it before they carried a calendar
    /// trigger's offset; nil where that form is the current one. A store's
    /// calendar firings from before then stand for every offset of their
    /// edge, so an upgrade fires nothing again.
    public var formerOccurrence: String? {
        guard case .calendar(_, let edge, let offset, let o) = kind, offset != 0 else { return nil }
        return calendarKey(o, edge)
    }

    /// The values `{{trigger.NAME}}` templates and `TRACKEE_TRIGGER_NAME`
    /// variables give, besides `kind` and `time` which every event has.
    /// Times are ISO 8601 with their offset in `zone`.
    public func fields(zone: Zone) -> [String: String] {
        switch kind {
        case .schedule(_, let expression): ["at": expression]
        case .focus(let mode, let state, _): ["mode": mode, "state": state.rawValue]
        case .calendar(_, _, _, let o):
            [
                "calendar": o.calendar, "uid": o.uid, "summary": o.summary, "description": o.description,
                "location": o.location, "categories": o.categories.joined(separator: ","),
                "category": o.categories.first ?? "", "start": zone.iso8601(o.start), "end": zone.iso8601(o.end),
                "all_day": o.allDay ? "true" : "false",
            ]
        case .place(let p):
            [
                "place": p.place, "transition": p.transition.rawValue, "lat": decimal(p.fix.latitude),
                "lon": decimal(p.fix.longitude), "accuracy": p.fix.accuracy.map(decimal) ?? "",
            ]
        }
    }
}

/// A coordinate or a distance as plain decimal text: `50.0875`, `12`.
private func decimal(_ value: Double) -> String {
    let rounded = (value * 1_000_000).rounded() / 1_000_000
    if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int64(rounded)) }
    return "\(rounded)"
}

/// Calendar, UID, recurrence id (`-` for an event that does not recur)
/// and edge.
private func calendarKey(_ o: CalendarOccurrence, _ edge: CalendarEdge) -> String {
    "cal:\(keyPart(o.calendar)):\(keyPart(o.uid)):\(o.recurrenceID.map { "\($0)" } ?? "-"):\(edge.rawValue)"
}

/// `%` and `:` escaped, so the parts of a calendar occurrence key stay apart.
private func keyPart(_ text: String) -> String {
    guard text.contains(":") || text.contains("%") else { return text }
    return text.replacingAll("%", with: "%25").replacingAll(":", with: "%3A")
}

extension String {
    /// Every occurrence of `target` replaced, without Foundation.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}

/// Whether a focus mode is being switched on or off.
public enum FocusState: String, Sendable, Equatable, CaseIterable, Codable {
    case on, off
}

/// The current focus mode, as the store keeps it.
public struct Focus: Sendable, Equatable {
    /// The mode that is on; nil when none is.
    public var mode: String?
    /// The number of the last change; 0 before any.
    public var sequence: Int64
    /// When the last change happened.
    public var changed: Instant?

    public init(mode: String?, sequence: Int64, changed: Instant?) {
        self.mode = mode
        self.sequence = sequence
        self.changed = changed
    }
}

/// The timer as rule conditions see it.
public enum TimerState: Sendable, Equatable {
    case stopped
    case running(project: String?, client: String?)
}

/// What rule conditions may look at when an event is evaluated: the time
/// zone for `time:` and `weekdays:`, the current focus and timer, and when
/// each rule last fired (for `cooldown`). Built by whoever evaluates, so
/// the engine itself does no I/O.
public struct Snapshot: Sendable, Equatable {
    public var zone: Zone
    public var focus: String?
    public var timer: TimerState
    /// Rule id → instant of its last firing.
    public var lastFired: [String: Instant]
    /// The places the last fixes put inside; a place not here is outside
    /// or unknown.
    public var inside: Set<String>

    public init(zone: Zone, focus: String? = nil, timer: TimerState = .stopped, lastFired: [String: Instant] = [:],
                inside: Set<String> = []) {
        self.zone = zone
        self.focus = focus
        self.timer = timer
        self.lastFired = lastFired
        self.inside = inside
    }
}
