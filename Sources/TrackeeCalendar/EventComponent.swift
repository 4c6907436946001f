import TrackeeCore

/// One VEVENT as written: a whole event, a series, or an override of one
/// instance of a series (it has a RECURRENCE-ID). A class, because series
/// and their occurrences share it, and it never changes once read.
final class EventComponent: Sendable {
    let line: Int
    let uid: String
    let start: EventTime
    /// Nil when the event gives neither DTEND nor DURATION.
    let length: EventLength?
    let rules: [SeriesRule]
    let rdates: [(time: EventTime, length: EventLength?)]
    let exdates: [EventTime]
    let recurrenceID: EventTime?
    /// `RANGE=THISANDFUTURE` on the RECURRENCE-ID.
    let thisAndFuture: Bool
    let sequence: Int
    let status: CalendarOccurrence.Status
    let summary: String
    let description: String
    let location: String
    let categories: [String]

    init(
        line: Int, uid: String, start: EventTime, length: EventLength?, rules: [SeriesRule],
        rdates: [(time: EventTime, length: EventLength?)], exdates: [EventTime], recurrenceID: EventTime?,
        thisAndFuture: Bool, sequence: Int, status: CalendarOccurrence.Status, summary: String, description: String,
        location: String, categories: [String]
    ) {
        self.line = line
        self.uid = uid
        self.start = start
        self.length = length
        self.rules = rules
        self.rdates = rdates
        self.exdates = exdates
        self.recurrenceID = recurrenceID
        self.thisAndFuture = thisAndFuture
        self.sequence = sequence
        self.status = status
        self.summary = summary
        self.description = description
        self.location = location
        self.categories = categories
    }

    var recurs: Bool { !rules.isEmpty || !rdates.isEmpty }

    /// Its length in seconds or as a nominal duration, DATE events lasting
    /// a day when nothing says otherwise and timed ones no time at all.
    var effectiveLength: EventLength {
        length ?? (start.isDate ? .nominal(NominalDuration(days: 1, seconds: 0)) : .exact(seconds: 0))
    }
}

/// One RRULE of a series.
struct SeriesRule: Sendable {
    var rule: Libical.Rule
    var line: Int
    /// For a rule whose instances repeat every few days on the wall clock
    /// (``Libical/Rule/periodDays``): that many days, and the instances of
    /// the first span of them from DTSTART. Later spans are these moved by
    /// whole spans, so a year of a daily meeting costs no walk.
    var pattern: (days: Int, walls: [LocalDateTime])?
    /// For a monthly rule on the n-th (or n-th last) weekday of the month
    /// (``Libical/Rule/monthlyWeekday``), so a window's instances are
    /// computed rather than walked through libical.
    var monthly: (interval: Int, weekday: Int, ordinal: Int)?
    /// For a rule without BYWEEKNO: its instances worked out in Swift
    /// (``RuleExpansion``); other rules are walked through libical.
    var expansion: RuleExpansion?

    /// A pattern longer than this is not worth keeping; the rule is walked.
    static let largestPattern = 4096

    /// Nil when neither ``RuleExpansion`` nor libical can expand the rule
    /// from this start.
    init?(_ rule: Libical.Rule, line: Int, start: TimeValue) {
        self.rule = rule
        self.line = line
        expansion = RuleExpansion(rule.parts, start: start)
        monthly = rule.monthlyWeekday
        let end = rule.periodDays.map {
            LocalDateTime(date: start.local.date.adding(days: $0), hour: start.local.hour, minute: start.local.minute,
                          second: start.local.second)
        }
        if let expansion {
            guard let days = rule.periodDays, let end else { return }
            let walls = expansion.walls(from: start.local, through: LocalDateTime(secondsSinceEpoch: end.secondsSinceEpoch - 1),
                                        until: nil, counted: false)
            if walls.count <= Self.largestPattern { pattern = (days, walls) }
            return
        }
        guard let iterator = Libical.Iterator(rule.unbounded, start: start) else { return nil }
        guard let days = rule.periodDays, let end else { return }
        var walls: [LocalDateTime] = []
        while let wall = iterator.next(), wall < end {
            walls.append(wall)
            if walls.count > Self.largestPattern { return }
        }
        pattern = (days, walls)
    }
}

/// Reads VEVENTs: each property's value through libical's parsers, each
/// TZID through the ``ZoneResolver``. A problem that leaves the event's
/// times unknown is a ``LineError`` (the caller skips the event); a TZID
/// read past is a warning in ``warnings``.
struct EventReader {
    var zones: ZoneResolver
    let local: Zone
    /// What was read past, since the reader was made or last emptied.
    var warnings: [LineWarning] = []
    /// X-WR-TIMEZONE: UTC and floating times are read on this zone's wall
    /// clock, so a weekly 09:00 exported by Google in UTC stays at 09:00
    /// across DST (as the x-wr-timezone package reads such calendars).
    let calendarZone: Zone?
    init(zones: ZoneResolver, local: Zone, calendarZone: Zone?) {
        self.zones = zones
        self.local = local
        self.calendarZone = calendarZone
    }

    /// Reads one VEVENT; `anonymousUID` names it when it has no UID.
    mutating func read(_ c: Component, anonymousUID: String?) throws(LineError) -> EventComponent {
        guard let startLine = c.property("DTSTART") else {
            throw LineError(line: c.line, message: "VEVENT has no DTSTART")
        }
        var start = try time(startLine)
        var uid = c.property("UID")?.value ?? ""
        if uid.isEmpty { uid = anonymousUID ?? "" }
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
        var rules: [SeriesRule] = []
        // An empty RRULE (some exports write one for every event) is no rule.
        for line in c.properties where line.name == "RRULE" && !line.value.trimmingWhitespace().isEmpty {
            switch Libical.rule(Self.tidyRule(line.value)) {
            case .success(let rule):
                guard let seriesRule = SeriesRule(rule, line: line.line, start: start.value) else {
                    throw LineError(line: line.line, message: "RRULE: libical cannot expand \"\(line.value)\" from DTSTART \(startLine.value)")
                }
                rules.append(seriesRule)
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
        for text in Self.items(line.value) {
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
        for text in Self.items(line.value) {
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

    /// The TZID's zone; a TZID nothing defines is read as floating time
    /// (which ``place(_:_:)`` puts on X-WR-TIMEZONE's clock when the file
    /// names one), with a warning once per file.
    private mutating func placement(_ line: ContentLine) throws(LineError) -> EventTime.Placement {
        guard let tzid = line.parameter("TZID") else { return .floating }
        if let zone = zones.zone(tzid, warnings: &warnings) { return .zone(zone) }
        let clock = calendarZone.map { "on X-WR-TIMEZONE \($0.identifier)'s clock" } ?? "in the local zone"
        warnings.append(LineWarning(line: line.line,
            "\(line.name): unknown TZID \"\(tzid)\" (not a tzdata, Windows or Outlook name, and no usable VTIMEZONE in the file); read as floating time \(clock)",
            once: "TZID \(tzid)"))
        return .floating
    }

    /// Mends two slips that exporters make and libical refuses: an empty
    /// item in a list (`BYMONTH=1,2,`) and a negative COUNT, which some
    /// write for "no count" (Confluence).
    static func tidyRule(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let slip = bytes.indices.contains { i in
            let b = bytes[i]
            let next = i + 1 < bytes.count ? bytes[i + 1] : UInt8(ascii: ";")
            return (b == UInt8(ascii: ",") && (next == UInt8(ascii: ";") || next == UInt8(ascii: ",")))
                || (b == UInt8(ascii: "=") && (next == UInt8(ascii: ",") || next == UInt8(ascii: "-")))
        }
        guard slip else { return text }
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
        var s = s
        return s.withUTF8 { bytes in
            guard bytes.contains(UInt8(ascii: "\\")) else { return String(decoding: bytes, as: UTF8.self) }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var escaped = false
            for b in bytes {
                if escaped {
                    out.append(b == UInt8(ascii: "n") || b == UInt8(ascii: "N") ? 0x0A : b)
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else {
                    out.append(b)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// A comma-separated TEXT list, where `\,` is a comma inside an item.
    static func list(_ value: String) -> [String] {
        var value = value
        return value.withUTF8 { bytes in
            var items: [String] = []
            var start = 0
            var escaped = false
            for i in 0...bytes.count {
                if i < bytes.count {
                    let b = bytes[i]
                    if escaped { escaped = false; continue }
                    if b == UInt8(ascii: "\\") { escaped = true; continue }
                    if b != UInt8(ascii: ",") { continue }
                }
                let item = unescape(Substring(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)))
                    .trimmingWhitespace()
                if !item.isEmpty { items.append(item) }
                start = i + 1
            }
            return items
        }
    }

    /// The comma-separated values of a DATE, DATE-TIME or PERIOD list, with
    /// spaces around them and empty ones (a trailing comma) dropped.
    static func items(_ value: String) -> [String] {
        var value = value
        return value.withUTF8 { bytes in
            var items: [String] = []
            var start = 0
            for i in 0...bytes.count where i == bytes.count || bytes[i] == UInt8(ascii: ",") {
                var a = start
                var b = i
                while a < b && (bytes[a] == 0x20 || bytes[a] == 0x09) { a += 1 }
                while b > a && (bytes[b - 1] == 0x20 || bytes[b - 1] == 0x09) { b -= 1 }
                if b > a { items.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[a..<b]), as: UTF8.self)) }
                start = i + 1
            }
            return items
        }
    }
}
