import TrackeeCore

/// One VEVENT as written: a whole event, a series, or an override of one
/// instance of a series (it has a RECURRENCE-ID).
struct EventComponent: Sendable {
    var line: Int
    var uid: String
    var start: EventTime
    /// Nil when the event gives neither DTEND nor DURATION.
    var length: EventLength?
    var rules: [(rule: Libical.Rule, line: Int)]
    var rdates: [(time: EventTime, length: EventLength?)]
    var exdates: [EventTime]
    var recurrenceID: EventTime?
    /// `RANGE=THISANDFUTURE` on the RECURRENCE-ID.
    var thisAndFuture: Bool
    var sequence: Int
    var status: CalendarOccurrence.Status
    var summary: String
    var description: String
    var location: String
    var categories: [String]

    var recurs: Bool { !rules.isEmpty || !rdates.isEmpty }

    /// Its length in seconds or as a nominal duration, DATE events lasting
    /// a day when nothing says otherwise and timed ones no time at all.
    var effectiveLength: EventLength {
        length ?? (start.isDate ? .nominal(NominalDuration(days: 1, seconds: 0)) : .exact(seconds: 0))
    }
}

/// Reads VEVENTs: each property's value through libical's parsers, each
/// TZID through the ``ZoneResolver``, each problem as a ``LineError``.
struct EventReader {
    var zones: ZoneResolver
    let local: Zone
    /// X-WR-TIMEZONE: UTC and floating times are read on this zone's wall
    /// clock, so a weekly 09:00 exported by Google in UTC stays at 09:00
    /// across DST (as the x-wr-timezone package reads such calendars).
    let calendarZone: Zone?
    /// Names events without a UID: the file's name and a counter.
    let anonymousPrefix: String
    private var anonymous = 0

    init(zones: ZoneResolver, local: Zone, calendarZone: Zone?, anonymousPrefix: String) {
        self.zones = zones
        self.local = local
        self.calendarZone = calendarZone
        self.anonymousPrefix = anonymousPrefix
    }

    mutating func read(_ c: Component) throws(LineError) -> EventComponent {
        guard let startLine = c.property("DTSTART") else {
            throw LineError(line: c.line, message: "VEVENT has no DTSTART")
        }
        var start = try time(startLine)
        var uid = c.property("UID")?.value ?? ""
        if uid.isEmpty {
            anonymous += 1
            uid = "\(anonymousPrefix)#\(anonymous)"
        }
        var length: EventLength?
        if let endLine = c.property("DTEND") {
            var end = try time(endLine)
            // An end before the start is taken for the two written the wrong way round.
            if end.isDate == start.isDate, end.instant(local: local) < start.instant(local: local) { swap(&start, &end) }
            if start.isDate {
                let days = end.isDate ? Int(end.value.local.date.daysSinceEpoch - start.value.local.date.daysSinceEpoch) : 1
                length = .nominal(NominalDuration(days: max(days, 0), seconds: 0))
            } else {
                length = .exact(seconds: max(0, end.instant(local: local) - start.instant(local: local)))
            }
        } else if let durationLine = c.property("DURATION") {
            guard let d = Libical.duration(durationLine.value) else {
                throw LineError(line: durationLine.line, message: "DURATION: \"\(durationLine.value)\" is not a duration such as PT1H30M")
            }
            length = .nominal(d.days < 0 || d.seconds < 0 ? NominalDuration(days: 0, seconds: 0) : d)
        }
        var rules: [(Libical.Rule, Int)] = []
        // An empty RRULE (some exports write one for every event) is no rule.
        for line in c.properties where line.name == "RRULE" && !line.value.trimmingWhitespace().isEmpty {
            switch Libical.rule(Self.tidyRule(line.value)) {
            case .success(let rule):
                guard Libical.Iterator(rule.withoutUntil, start: start.value) != nil else {
                    throw LineError(line: line.line, message: "RRULE: libical cannot expand \"\(line.value)\" from DTSTART \(startLine.value)")
                }
                rules.append((rule, line.line))
            case .failure(.rscale(let name)):
                throw LineError(line: line.line, message: "RRULE: RSCALE=\(name) (a non-Gregorian calendar) is not supported")
            case .failure(.unreadable):
                throw LineError(line: line.line, message: "RRULE: cannot read \"\(line.value)\"")
            }
        }
        var rdates: [(EventTime, EventLength?)] = []
        for line in c.properties where line.name == "RDATE" {
            rdates += try rdateValues(line)
        }
        var exdates: [EventTime] = []
        for line in c.properties where line.name == "EXDATE" {
            exdates += try times(line)
        }
        var recurrenceID: EventTime?
        var thisAndFuture = false
        if let line = c.property("RECURRENCE-ID") {
            recurrenceID = try time(line)
            thisAndFuture = line.parameter("RANGE")?.uppercased() == "THISANDFUTURE"
        }
        let sequence = c.property("SEQUENCE").flatMap { Int($0.value.trimmingWhitespace()) } ?? 0
        let status: CalendarOccurrence.Status =
            switch c.property("STATUS")?.value.uppercased() {
            case "CANCELLED": .cancelled
            case "TENTATIVE": .tentative
            default: .confirmed
            }
        return EventComponent(
            line: c.line, uid: uid, start: start, length: length, rules: rules, rdates: rdates, exdates: exdates,
            recurrenceID: recurrenceID, thisAndFuture: thisAndFuture, sequence: sequence, status: status,
            summary: text(c.property("SUMMARY")), description: text(c.property("DESCRIPTION")),
            location: text(c.property("LOCATION")),
            categories: c.properties.filter { $0.name == "CATEGORIES" }.flatMap { Self.list($0.value) })
    }

    // MARK: Values

    /// A property holding one DATE or DATE-TIME.
    private mutating func time(_ line: ContentLine) throws(LineError) -> EventTime {
        let values = try times(line)
        guard values.count == 1 else {
            throw LineError(line: line.line, message: "\(line.name): expected one date or date-time, found \(values.count)")
        }
        return values[0]
    }

    /// A property holding a comma-separated list of DATE or DATE-TIME values.
    private mutating func times(_ line: ContentLine) throws(LineError) -> [EventTime] {
        let placement = try self.placement(line)
        var result: [EventTime] = []
        // A trailing comma is common in exports and harmless.
        for text in line.value.split(separator: ",") where !text.allSatisfy(\.isWhitespace) {
            let text = String(text).trimmingWhitespace()
            guard let value = Libical.time(text) else {
                throw LineError(line: line.line, message: "\(line.name): \"\(text)\" is not a date (20261123) or date-time (20261123T093000)")
            }
            result.append(place(value, placement))
        }
        return result
    }

    /// RDATE: dates, date-times or periods (`START/END`, `START/DURATION`).
    private mutating func rdateValues(_ line: ContentLine) throws(LineError) -> [(EventTime, EventLength?)] {
        guard line.parameter("VALUE")?.uppercased() == "PERIOD" || line.value.contains("/") else {
            return try times(line).map { ($0, nil) }
        }
        let placement = try self.placement(line)
        var result: [(EventTime, EventLength?)] = []
        for text in line.value.split(separator: ",") {
            let text = String(text).trimmingWhitespace()
            guard let period = Libical.period(text) else {
                throw LineError(line: line.line, message: "RDATE: \"\(text)\" is not a period such as 20261123T090000Z/PT1H")
            }
            let start = place(period.start, placement)
            switch period.length {
            case .duration(let d):
                result.append((start, .nominal(d)))
            case .end(let endValue):
                let end = place(endValue, placement)
                result.append((start, .exact(seconds: max(0, end.instant(local: local) - start.instant(local: local)))))
            }
        }
        return result
    }

    private func place(_ value: TimeValue, _ placement: EventTime.Placement) -> EventTime {
        if value.isDate { return EventTime(value: value, placement: .floating) }
        guard value.isUTC else {
            if case .floating = placement, let calendarZone { return EventTime(value: value, placement: .zone(calendarZone)) }
            return EventTime(value: value, placement: placement)
        }
        if let calendarZone {
            let instant = Instant(seconds: value.local.secondsSinceEpoch)
            return EventTime(value: TimeValue(local: calendarZone.localDateTime(instant), isDate: false, isUTC: false),
                             placement: .zone(calendarZone))
        }
        return EventTime(value: value, placement: .utc)
    }

    private mutating func placement(_ line: ContentLine) throws(LineError) -> EventTime.Placement {
        guard let tzid = line.parameter("TZID") else { return .floating }
        return .zone(try zones.zone(tzid, line: line.line))
    }

    /// Mends two slips that exporters make and libical refuses: an empty
    /// item in a list (`BYMONTH=1,2,`) and a negative COUNT, which some
    /// write for "no count" (Confluence).
    static func tidyRule(_ text: String) -> String {
        guard text.contains(",;") || text.hasSuffix(",") || text.contains("=,") || text.contains(",,") || text.contains("COUNT=-")
        else { return text }
        return text.split(separator: ";").compactMap { part -> String? in
            if part.uppercased().hasPrefix("COUNT=-") { return nil }
            guard let eq = part.firstIndex(of: "=") else { return String(part) }
            let items = part[part.index(after: eq)...].split(separator: ",")
            return part[...eq] + items.joined(separator: ",")
        }.joined(separator: ";")
    }

    // MARK: Text

    private func text(_ line: ContentLine?) -> String {
        line.map { Self.unescape(Substring($0.value)) } ?? ""
    }

    /// TEXT escapes (RFC 5545 3.3.11): `\n` and `\N` newline, `\,` `\;` `\\`.
    static func unescape(_ s: Substring) -> String {
        guard s.contains("\\") else { return String(s) }
        var out = ""
        var escaped = false
        for c in s {
            if escaped {
                out.append(c == "n" || c == "N" ? "\n" : c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// A comma-separated TEXT list, where `\,` is a comma inside an item.
    static func list(_ value: String) -> [String] {
        var items: [String] = []
        var current = Substring()
        var start = value.startIndex
        var i = value.startIndex
        var escaped = false
        while i < value.endIndex {
            let c = value[i]
            if escaped {
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "," {
                current = value[start..<i]
                items.append(unescape(current).trimmingWhitespace())
                start = value.index(after: i)
            }
            i = value.index(after: i)
        }
        items.append(unescape(value[start...]).trimmingWhitespace())
        return items.filter { !$0.isEmpty }
    }
}
