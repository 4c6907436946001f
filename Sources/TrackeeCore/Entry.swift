/// A span of tracked time as the store returns it: names resolved, the
/// project's client and billing attached. A running entry has no `end`.
public struct Entry: Sendable, Equatable, Codable {
    public var id: Int64
    public var project: String?
    public var client: String?
    public var description: String
    public var tags: [String]
    public var start: Instant
    public var end: Instant?
    public var source: String
    public var billable: Bool
    public var rateCents: Int64?

    public init(
        id: Int64, project: String?, client: String?, description: String, tags: [String],
        start: Instant, end: Instant?, source: String, billable: Bool = false, rateCents: Int64? = nil
    ) {
        self.id = id
        self.project = project
        self.client = client
        self.description = description
        self.tags = tags
        self.start = start
        self.end = end
        self.source = source
        self.billable = billable
        self.rateCents = rateCents
    }

    public var isRunning: Bool { end == nil }

    /// Seconds tracked, counting a running entry up to `now`.
    public func duration(now: Instant) -> Int64 {
        max(0, (end ?? now) - start)
    }

    public var parameters: TimerParameters {
        TimerParameters(project: project, client: client, description: description, tags: tags)
    }
}

extension Zone {
    /// `entries` in runs of the same local day of their start, in the
    /// order given: a page of `trackee log`, newest first, becomes its days.
    public func days(of entries: [Entry]) -> [(date: LocalDate, entries: [Entry])] {
        var days: [(date: LocalDate, entries: [Entry])] = []
        for e in entries {
            let day = localDate(e.start)
            if days.last?.date == day { days[days.count - 1].entries.append(e) } else { days.append((day, [e])) }
        }
        return days
    }
}
