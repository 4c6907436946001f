import TrackeeCore

/// Turns a TZID into a zone, once per name and file.
///
/// In order:
/// 1. a tzdata name (`Europe/Prague`), also at the end of a prefixed TZID
///    such as `/mozilla.org/20050126_1/Europe/Prague` or `/Europe/Prague`;
/// 2. a Windows name (`W. Europe Standard Time`), through CLDR's table;
/// 3. the file's own `VTIMEZONE` with that TZID, expanded into transitions;
/// 4. an Outlook display name (`(UTC+01:00) Amsterdam, Berlin, …`): the
///    tzdata zone of the first city it names that keeps that offset;
/// 5. nothing: the time is read as floating (on the file's X-WR-TIMEZONE
///    when it has one, else the local zone), with a warning.
///
/// tzdata comes first because exported VTIMEZONEs are often cut down to
/// the rules of one year, while the name means the zone people live in.
struct ZoneResolver {
    private let definitions: [String: Component]
    private var cache: [String: Zone?] = [:]

    init(timezones: [Component]) {
        var definitions: [String: Component] = [:]
        for component in timezones {
            if let tzid = component.property("TZID")?.value, definitions[tzid] == nil { definitions[tzid] = component }
        }
        self.definitions = definitions
    }

    /// The zone `tzid` names, or nil when nothing defines it; what was
    /// read past on the way is added to `warnings`.
    mutating func zone(_ tzid: String, warnings: inout [LineWarning]) -> Zone? {
        if let known = cache[tzid] { return known }
        var zone = Self.named(tzid)
        if zone == nil, let definition = definitions[tzid] {
            do throws(LineError) {
                zone = try VTimezone.zone(definition, tzid: tzid)
            } catch {
                warnings.append(LineWarning(line: error.line, "\(error.message); VTIMEZONE \"\(tzid)\" not used",
                                            once: "VTIMEZONE \(tzid)"))
            }
        }
        if zone == nil { zone = Self.outlookDisplayName(tzid) }
        cache[tzid] = zone
        return zone
    }

    /// A tzdata or Windows zone name, possibly behind a vendor prefix.
    static func named(_ tzid: String) -> Zone? {
        let name = tzid.trimmingWhitespace()
        if let zone = Zone.tzdata(name) { return zone }
        if let iana = WindowsZones.iana[name], let zone = Zone.tzdata(iana) { return zone }
        let parts = name.split(separator: "/")
        guard !parts.isEmpty else { return nil }
        for count in (1...min(3, parts.count)).reversed() where count < parts.count || name.hasPrefix("/") {
            if let zone = Zone.tzdata(parts.suffix(count).joined(separator: "/")) { return zone }
        }
        return nil
    }

    /// Outlook's display name of a Windows zone, `(UTC+01:00) Amsterdam,
    /// Berlin, Bern, Rome, Stockholm, Vienna`: the first city that is the
    /// last part of a tzdata name and has the offset given (in winter or
    /// in summer, whichever is standard time there).
    static func outlookDisplayName(_ tzid: String) -> Zone? {
        let name = tzid.trimmingWhitespace()
        guard name.hasPrefix("(UTC") || name.hasPrefix("(GMT"), let close = name.firstIndex(of: ")") else { return nil }
        let head = name[name.index(name.startIndex, offsetBy: 4)..<close]
        var offset = 0
        if !head.isEmpty {
            let digits = head.dropFirst().split { $0 == ":" || $0 == "." }.compactMap { Int($0) }
            guard head.first == "+" || head.first == "-", digits.count == 2 else { return nil }
            offset = (digits[0] * 3600 + digits[1] * 60) * (head.first == "-" ? -1 : 1)
        }
        let list: Substring = name[name.index(after: close)...]
        let parts: [Substring] = list.split { (c: Character) -> Bool in c == "," || c == "/" }
        let cities: [String] = parts.map { (part: Substring) -> String in String(part).trimmingWhitespace().replacingSpaces() }
        let regions = ["Europe", "America", "Asia", "Africa", "Australia", "Pacific", "Atlantic", "Indian"]
        let january = Instant(seconds: 1_767_225_600)  // 2026-01-01
        let july = Instant(seconds: 1_782_864_000)  // 2026-07-01
        for city in cities where !city.isEmpty {
            for region in regions {
                guard let zone = Zone.tzdata("\(region)/\(city)") else { continue }
                if zone.offset(at: january) == offset || zone.offset(at: july) == offset { return zone }
            }
        }
        return nil
    }
}

private extension String {
    /// `New York` → `New_York`, as tzdata spells cities.
    func replacingSpaces() -> String {
        String(map { $0 == " " ? "_" : $0 })
    }
}

/// A `VTIMEZONE` component as a zone: every onset of its STANDARD and
/// DAYLIGHT observances up to ``horizon``, from DTSTART, RRULE and RDATE.
enum VTimezone {
    /// Onsets are worked out up to this year; the last offset holds after.
    static let horizon = 2100
    /// And from this year on; earlier onsets are jumped over when the rule
    /// allows (Outlook writes DTSTART:16010101T000000).
    static let earliest = 1900

    static func zone(_ component: Component, tzid: String) throws(LineError) -> Zone {
        var transitions: [Zone.Transition] = []
        var first: (at: Int64, offset: Int)?
        for observance in component.children where observance.name == "STANDARD" || observance.name == "DAYLIGHT" {
            let from = try offset("TZOFFSETFROM", in: observance)
            let to = try offset("TZOFFSETTO", in: observance)
            guard let startLine = observance.property("DTSTART") else {
                throw LineError(line: observance.line, message: "\(observance.name) of VTIMEZONE \"\(tzid)\" has no DTSTART")
            }
            // A DATE (its midnight) or a UTC time (read as written) says the same, loosely.
            guard var start = Libical.time(startLine.value) else {
                throw LineError(line: startLine.line, message: "DTSTART: expected a local date-time such as 19701025T030000, found \"\(startLine.value)\"")
            }
            start = TimeValue(local: start.local, isDate: false, isUTC: false)
            let name = observance.property("TZNAME")?.value ?? ""
            let isDaylight = observance.name == "DAYLIGHT"
            var onsets: [LocalDateTime] = [start.local]
            for line in observance.properties where line.name == "RRULE" {
                onsets += try ruleOnsets(line, start: start, utcOffsetBefore: from)
            }
            for line in observance.properties where line.name == "RDATE" {
                for text in line.value.split(separator: ",") {
                    // A period's start is the onset; a DATE is its midnight.
                    let onset = text.split(separator: "/").first.map(String.init) ?? String(text)
                    guard let value = Libical.time(onset) else {
                        throw LineError(line: line.line, message: "RDATE: \"\(text)\" is not a date-time")
                    }
                    onsets.append(value.isUTC ? LocalDateTime(secondsSinceEpoch: value.local.secondsSinceEpoch + Int64(from)) : value.local)
                }
            }
            for local in onsets where local.date.year <= horizon {
                let at = local.secondsSinceEpoch - Int64(from)
                transitions.append(Zone.Transition(at: Instant(seconds: at), offset: to, isDaylight: isDaylight, abbreviation: name))
                if first == nil || at < first!.at { first = (at, from) }
            }
        }
        guard let first else {
            throw LineError(line: component.line, message: "VTIMEZONE \"\(tzid)\" has no STANDARD or DAYLIGHT observance")
        }
        return Zone(identifier: "VTIMEZONE " + tzid, initialOffset: first.offset, transitions: transitions)
    }

    /// The onsets an observance's RRULE gives after its DTSTART, as local
    /// times in the offset before the change.
    private static func ruleOnsets(_ line: ContentLine, start: TimeValue, utcOffsetBefore from: Int) throws(LineError) -> [LocalDateTime] {
        let rule: Libical.Rule
        switch Libical.rule(line.value) {
        case .success(let parsed): rule = parsed
        case .failure: throw LineError(line: line.line, message: "RRULE: cannot read \"\(line.value)\"")
        }
        // UNTIL is in UTC here (RFC 5545 3.8.3.2); compare it as local time before the change.
        let until = rule.until.map { $0.isUTC ? LocalDateTime(secondsSinceEpoch: $0.local.secondsSinceEpoch + Int64(from)) : $0.local }
        guard let iterator = Libical.Iterator(rule.withoutUntil, start: start) else {
            throw LineError(line: line.line, message: "RRULE: libical cannot expand \"\(line.value)\"")
        }
        if rule.count == 0 && start.local.date.year < earliest {
            _ = iterator.jump(to: LocalDateTime(year: earliest, month: 1, day: 1))
        }
        var onsets: [LocalDateTime] = []
        while let next = iterator.next(), next.date.year <= horizon {
            if let until, next > until { break }
            if next != start.local { onsets.append(next) }
        }
        return onsets
    }

    /// `+0100`, `-0430`, `+013045` as seconds east of UTC.
    private static func offset(_ name: String, in observance: Component) throws(LineError) -> Int {
        guard let line = observance.property(name) else {
            throw LineError(line: observance.line, message: "\(observance.name) has no \(name)")
        }
        let bytes = Array(line.value.trimmingWhitespace().utf8)
        guard bytes.count == 5 || bytes.count == 7, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
              bytes.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { throw LineError(line: line.line, message: "\(name): expected an offset such as +0100, found \"\(line.value)\"") }
        func two(_ i: Int) -> Int { Int(bytes[i] - 0x30) * 10 + Int(bytes[i + 1] - 0x30) }
        let seconds = two(1) * 3600 + two(3) * 60 + (bytes.count == 7 ? two(5) : 0)
        return bytes[0] == UInt8(ascii: "-") ? -seconds : seconds
    }
}
