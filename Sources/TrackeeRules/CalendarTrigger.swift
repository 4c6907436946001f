import TrackeeCore

/// `calendar: NAME`: the start or end of an event in a calendar from the
/// `calendars:` section, shifted by an offset, for events that match.
///
///     when: {calendar: work, event: start, offset: -2m, match: {summary: "/standup|sync/i"}}
public struct CalendarTrigger: RuleTrigger, Equatable {
    public var calendar: String
    public var edge: CalendarEdge
    /// Seconds added to the edge on the wall clock: `-2m` fires two
    /// minutes before it.
    public var offset: Int64
    /// Every one must match.
    public var match: [EventMatch]
    /// Whether all-day events fire the trigger (`all_day: include`).
    public var allDay: Bool

    public init(calendar: String, edge: CalendarEdge = .start, offset: Int64 = 0, match: [EventMatch] = [], allDay: Bool = false) {
        self.calendar = calendar
        self.edge = edge
        self.offset = offset
        self.match = match
        self.allDay = allDay
    }

    /// Whether an occurrence can fire this trigger: from its calendar, not
    /// cancelled, all-day only if wanted, and matching every pattern.
    public func accepts(_ occurrence: CalendarOccurrence) -> Bool {
        occurrence.calendar == calendar && occurrence.status != .cancelled && (allDay || !occurrence.allDay)
            && match.allSatisfy { $0.matches(occurrence) }
    }

    public var index: TriggerIndex { .ruleOwned }

    /// An edge of an occurrence this trigger accepts, at the edge's time
    /// plus this trigger's offset.
    public func accepts(_ event: TriggerEvent, zone: Zone) -> Bool {
        guard let e = event.payload as? CalendarEdgeEvent else { return false }
        return e.edge == edge && e.offset == offset && accepts(e.occurrence) && time(of: e.occurrence, zone: zone) == event.time
    }

    /// `{"calendar": NAME, "event": "start", "offset": "-2m", "upcoming": [{time, summary}]}`;
    /// `calendar NAME start -2m: TIME SUMMARY, …`. A calendar that could
    /// not be read has no events to list: its error says so, once.
    public func checkView(ahead: [TriggerEvent]?, enabled: Bool, zone: Zone) -> TriggerCheckView {
        var fields: [String: ViewValue] = ["calendar": .text(calendar), "event": .text(edge.rawValue)]
        if offset != 0 { fields["offset"] = .text(offsetText) }
        let head = "calendar \(calendar) \(edge.rawValue)" + (offset == 0 ? "" : " \(offsetText)")
        guard let ahead else { return TriggerCheckView(fields: fields, text: "\(head): not read (see the error above)") }
        let upcoming = ahead.map { event in
            (time: zone.iso8601(event.time), summary: (event.payload as? CalendarEdgeEvent)?.occurrence.summary ?? "")
        }
        fields["upcoming"] = .list(upcoming.map { .object(["time": .text($0.time), "summary": .text($0.summary)]) })
        let shown = TriggerCheckView.shown(
            upcoming.map { "\($0.time) \($0.summary)" }, enabled: enabled, none: "no event ahead within a year")
        return TriggerCheckView(fields: fields, text: "\(head): \(shown)")
    }

    /// The offset as a rule file writes it: `-2m`, `+1h30m`, `0s`.
    public var offsetText: String {
        var rest = abs(offset)
        var text = ""
        for (letter, seconds) in [("d", Int64(86_400)), ("h", 3600), ("m", 60), ("s", 1)] where rest >= seconds {
            text += "\(rest / seconds)\(letter)"
            rest %= seconds
        }
        return offset == 0 ? "0s" : (offset < 0 ? "-" : "+") + text
    }

    /// When the trigger fires for an occurrence: its edge plus the offset,
    /// counted on the wall clock of `zone`, so `offset: 9h` on an all-day
    /// event is 09:00 on the day the clocks change too.
    public func time(of occurrence: CalendarOccurrence, zone: Zone) -> Instant {
        let at = edge == .start ? occurrence.start : occurrence.end
        guard offset != 0 else { return at }
        return zone.instant(for: LocalDateTime(secondsSinceEpoch: zone.localDateTime(at).secondsSinceEpoch + offset))
    }
}

/// One `match:` entry: an event field and the pattern it must match.
public struct EventMatch: Sendable, Equatable {
    public enum Field: String, Sendable, CaseIterable {
        case summary, description, location, categories
    }

    public var field: Field
    public var pattern: TextPattern

    public func matches(_ o: CalendarOccurrence) -> Bool {
        switch field {
        case .summary: pattern.matches(o.summary)
        case .description: pattern.matches(o.description)
        case .location: pattern.matches(o.location)
        case .categories: o.categories.contains { pattern.matches($0) }
        }
    }
}

/// A substring to find without regard to case, or `/regex/` (`/regex/i`
/// ignores case), as rule files write them.
public struct TextPattern: Sendable, Equatable, CustomStringConvertible {
    /// As written in the rule file.
    public let description: String
    private let kind: Kind

    private enum Kind: Sendable {
        case substring(String)
        case regex(CompiledRegex)
    }

    /// Reads `standup` or `/stand ?up|sync/i`; a regex that does not
    /// compile is an error saying why.
    init(_ text: String) throws(InvalidValue) {
        description = text
        guard text.count >= 2, text.hasPrefix("/"), let close = text.lastIndex(of: "/"), close != text.startIndex else {
            guard !text.isEmpty else { throw InvalidValue("expected text to match or /regex/, found an empty value") }
            kind = .substring(text.lowercased())
            return
        }
        let flags = text[text.index(after: close)...]
        guard flags.isEmpty || flags == "i" else {
            throw InvalidValue("unknown regex flag \"\(flags)\" in \(text); only i (ignore case) is supported")
        }
        let source = String(text[text.index(after: text.startIndex)..<close])
        do {
            var regex = try Regex(source)
            if flags == "i" { regex = regex.ignoresCase() }
            kind = .regex(CompiledRegex(regex))
        } catch {
            throw InvalidValue("invalid regex \(text): \(error)")
        }
    }

    public func matches(_ text: String) -> Bool {
        switch kind {
        case .substring(let folded): text.lowercased().contains(folded)
        case .regex(let compiled): text.contains(compiled.regex)
        }
    }

    public static func == (a: TextPattern, b: TextPattern) -> Bool { a.description == b.description }
}

/// A compiled `Regex`. The standard library does not mark `Regex` Sendable
/// (its output type may not be); this one's output is `AnyRegexOutput`,
/// only ever used to test for a match, and never mutated after init.
final class CompiledRegex: @unchecked Sendable {
    let regex: Regex<AnyRegexOutput>
    init(_ regex: Regex<AnyRegexOutput>) { self.regex = regex }
}

extension TriggerKind {
    static let calendar = TriggerKind(
        key: "calendar", options: ["event", "offset", "match", "all_day"],
        fields: ["calendar", "uid", "summary", "description", "location", "categories", "category", "start", "end", "all_day"],
        timeFields: ["start", "end"]
    ) { fields, reader in
        guard let value = fields["calendar"], let name = reader.name(value, "calendar") else { return nil }
        var trigger = CalendarTrigger(calendar: name)
        var ok = true
        if let edge = fields["event"] {
            if let parsed = reader.parsed(edge, parseEdge) { trigger.edge = parsed } else { ok = false }
        }
        if let offset = fields["offset"] {
            if let parsed = reader.parsed(offset, parseOffset) { trigger.offset = parsed } else { ok = false }
        }
        if let allDay = fields["all_day"] {
            if let parsed = reader.parsed(allDay, parseAllDay) { trigger.allDay = parsed } else { ok = false }
        }
        if let match = fields["match"] {
            if let parsed = readMatch(match, reader) { trigger.match = parsed } else { ok = false }
        }
        reader.referCalendar(name, at: value)
        return ok ? trigger : nil
    }

    private static func readMatch(_ value: YAMLValue, _ reader: RuleFileReader) -> [EventMatch]? {
        guard let fields = reader.fields(value, known: EventMatch.Field.allCases.map(\.rawValue)) else { return nil }
        var matches: [EventMatch] = []
        var ok = true
        for entry in fields.entries {
            if let pattern = reader.parsed(entry.value, { (text: String) throws(InvalidValue) in try TextPattern(text) }) {
                matches.append(EventMatch(field: EventMatch.Field(rawValue: entry.key)!, pattern: pattern))
            } else {
                ok = false
            }
        }
        return ok ? matches : nil
    }
}

private func parseEdge(_ text: String) throws(InvalidValue) -> CalendarEdge {
    guard let edge = CalendarEdge(rawValue: text) else { throw InvalidValue("expected start or end, found \"\(text)\"") }
    return edge
}

private func parseAllDay(_ text: String) throws(InvalidValue) -> Bool {
    switch text {
    case "include": return true
    case "exclude": return false
    default: throw InvalidValue("expected include or exclude, found \"\(text)\"")
    }
}

/// `-2m`, `+1h`, `30s`, `0s`: a signed duration.
private func parseOffset(_ text: String) throws(InvalidValue) -> Int64 {
    var body = Substring(text)
    var sign: Int64 = 1
    if body.first == "-" {
        sign = -1
        body.removeFirst()
    } else if body.first == "+" {
        body.removeFirst()
    }
    do {
        return sign * (try parseDuration(String(body))).components.seconds
    } catch {
        throw InvalidValue("expected an offset such as -5m, 10m or +1h, found \"\(text)\"")
    }
}

extension RuleTrigger where Self == CalendarTrigger {
    public static func calendar(_ trigger: CalendarTrigger) -> CalendarTrigger { trigger }
}
