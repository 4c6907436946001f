/// `calendar:` events: an edge of a calendar occurrence, for one rule's
/// trigger with `offset` (seconds on the wall clock). The offset and
/// `match:` are already applied, so only that rule is considered.
public struct CalendarEdgeEvent: TriggerPayload {
    public var ruleID: String
    public var edge: CalendarEdge
    public var offset: Int64
    public var occurrence: CalendarOccurrence

    public init(rule: String, edge: CalendarEdge, offset: Int64, occurrence: CalendarOccurrence) {
        ruleID = rule
        self.edge = edge
        self.offset = offset
        self.occurrence = occurrence
    }

    public var kindName: String { "calendar" }
    public var rule: String? { ruleID }
    public var isTimed: Bool { true }

    /// The calendar, the event's UID, the instance's recurrence id (`-` for
    /// an event that does not recur) and the edge, so moving or editing an
    /// instance does not make it new, then the offset unless it is 0
    /// (`:-300`), so two triggers of one rule on the same edge fire once each.
    public func occurrence(at time: Instant) -> String {
        key + (offset == 0 ? "" : offset < 0 ? ":\(offset)" : ":+\(offset)")
    }

    /// Keys carried no offset before: a store's calendar firings from then
    /// stand for every offset of their edge.
    public func formerOccurrence(at time: Instant) -> String? { offset == 0 ? nil : key }

    private var key: String {
        let o = occurrence
        return "cal:\(keyPart(o.calendar)):\(keyPart(o.uid)):\(o.recurrenceID.map { "\($0)" } ?? "-"):\(edge.rawValue)"
    }

    public func fields(zone: Zone) -> [String: String] {
        let o = occurrence
        return [
            "calendar": o.calendar, "uid": o.uid, "summary": o.summary, "description": o.description,
            "location": o.location, "categories": o.categories.joined(separator: ","),
            "category": o.categories.first ?? "", "start": zone.iso8601(o.start), "end": zone.iso8601(o.end),
            "all_day": o.allDay ? "true" : "false",
        ]
    }

    public var summary: String { "calendar \(occurrence.calendar) \"\(occurrence.summary)\" \(edge.rawValue)" }
    public var upcomingFields: [String: String] {
        ["calendar": occurrence.calendar, "event": edge.rawValue, "summary": occurrence.summary]
    }
    public var upcomingText: String { "calendar \(occurrence.calendar): \(occurrence.summary) (\(edge.rawValue))" }
}

extension TriggerPayload where Self == CalendarEdgeEvent {
    public static func calendar(rule: String, edge: CalendarEdge, offset: Int64, occurrence: CalendarOccurrence)
        -> CalendarEdgeEvent
    {
        CalendarEdgeEvent(rule: rule, edge: edge, offset: offset, occurrence: occurrence)
    }
}
