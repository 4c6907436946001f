import TrackeeCore

/// Every component of one UID: the event or series itself (the master) and
/// the overrides of single instances. This is where recurrence is worked
/// out; ``RuleExpansion`` (or, for the rules it leaves, libical) gives each
/// RRULE's instances.
///
/// The recurrence set (RFC 5545 3.8.5) is DTSTART, every RRULE instance
/// and every RDATE, less every EXDATE. Instances are told apart by their
/// recurrence id (their original start), so a date that two rules, a rule
/// and an RDATE, or two copies of the same component give is one instance.
/// An override replaces the instance its RECURRENCE-ID names, wherever it
/// moves it; with `RANGE=THISANDFUTURE` it also moves every later instance
/// by the same wall-clock amount and gives them its length and text.
///
/// Where RFC 5545 leaves a choice, the choice matches the
/// recurring-ical-events package (see README, "Calendar conformance"):
/// DTSTART is an instance even when the rule does not produce it; of
/// several components for one instance the highest SEQUENCE wins, the
/// first on a tie; a DATE EXDATE removes every instance on that day.
struct Series: Sendable {
    typealias RecurrenceID = CalendarOccurrence.RecurrenceID

    var uid: String
    var master: EventComponent?
    /// Each component's text for its occurrences, made once.
    var texts: [ObjectIdentifier: CalendarOccurrence.EventText] = [:]
    /// One per instance.
    var overrides: [RecurrenceID: EventComponent] = [:]
    /// THISANDFUTURE overrides by the instant they take effect, ascending,
    /// with the wall-clock seconds they move later instances by.
    var ranges: [(from: Instant, shift: Int64, override: EventComponent)] = []
    var excluded: Set<RecurrenceID> = []
    /// DATE EXDATEs of a timed series: every instance on that day goes.
    var excludedDays: Set<LocalDate> = []
    /// How far a THISANDFUTURE override moves instances, at the extremes,
    /// in seconds (a day of slack for DST).
    var shifts: (earliest: Int64, latest: Int64) = (0, 0)
    /// The longest instance, in seconds (nominal days counted generously).
    var longest: Int64 = 0

    init(uid: String, components: [EventComponent], calendar: String, local: Zone) {
        self.uid = uid
        for c in components {
            texts[ObjectIdentifier(c)] = CalendarOccurrence.EventText(
                calendar: calendar, uid: uid, summary: c.summary, description: c.description, location: c.location,
                categories: c.categories)
        }
        var master: EventComponent?
        for c in components where c.recurrenceID == nil {
            if master == nil || c.sequence > master!.sequence { master = c }
        }
        self.master = master
        for c in components {
            guard let rid = c.recurrenceID else { continue }
            let key = master.map { rid.recurrenceID(matching: $0.start, local: local) } ?? rid.recurrenceID(local: local)
            if let existing = overrides[key], existing.sequence >= c.sequence { continue }
            overrides[key] = c
        }
        guard let master else { return }
        let zone = master.start.zone(local: local)
        for exdate in master.exdates {
            if exdate.isDate && !master.start.isDate {
                excludedDays.insert(exdate.value.local.date)
            } else {
                excluded.insert(exdate.recurrenceID(matching: master.start, local: local))
            }
        }
        // An override of an instance that no longer exists is gone with it:
        // an excluded one (how calendars delete an edited instance), or a
        // stale copy of an older version of the series.
        for (key, c) in overrides {
            let instant = c.recurrenceID!.instant(matching: master.start, local: local)
            let day = zone.localDateTime(instant).date
            if excluded.contains(key) || excludedDays.contains(day)
                || (c.recurs && c.sequence < master.sequence
                    && !instances(of: master, from: instant, through: instant, local: local).contains { $0.id == key })
            {
                overrides[key] = nil
            }
        }
        for (_, c) in overrides where c.thisAndFuture {
            let from = c.recurrenceID!.instant(matching: master.start, local: local)
            let shift = zone.localDateTime(c.start.instant(local: local)).secondsSinceEpoch
                - zone.localDateTime(from).secondsSinceEpoch
            ranges.append((from, shift, c))
            shifts = (min(shifts.earliest, shift - 86_400), max(shifts.latest, shift + 86_400))
        }
        ranges.sort { $0.from < $1.from }
        longest = ([master.effectiveLength] + master.rdates.compactMap(\.length) + ranges.map(\.override.effectiveLength))
            .map(Self.upperBound).max() ?? 0
    }

    /// Whether the series is a single event with nothing to expand.
    var isSingle: Bool { overrides.isEmpty && !(master?.recurs ?? true) }

    /// The occurrences that overlap `[from, to)`, in no particular order.
    func occurrences(from: Instant, to: Instant, calendar: String, local: Zone) -> [CalendarOccurrence] {
        var result: [CalendarOccurrence] = []
        forEachOccurrence(from: from, to: to, calendar: calendar, local: local) { result.append($0) }
        return result
    }

    /// ``occurrences(from:to:calendar:local:)`` handed to `body` one by one.
    @inline(__always)
    func forEachOccurrence(from: Instant, to: Instant, calendar: String, local: Zone, _ body: (CalendarOccurrence) -> Void) {
        if let master {
            let zone = master.start.zone(local: local)
            let masterText = text(of: master, calendar: calendar)
            let lo = from - longest - max(0, shifts.latest)
            let hi = to - min(0, shifts.earliest)
            for instance in instances(of: master, from: lo, through: hi, local: local)
            where (excluded.isEmpty || !excluded.contains(instance.id)) && (overrides.isEmpty || overrides[instance.id] == nil)
                && (excludedDays.isEmpty || !excludedDays.contains(zone.localDateTime(instance.start).date))
            {
                let occurrence: CalendarOccurrence
                if !ranges.isEmpty, let range = ranges.last(where: { $0.from < instance.start }) {
                    let wall = zone.localDateTime(instance.start).secondsSinceEpoch + range.shift
                    occurrence = make(range.override, text: text(of: range.override, calendar: calendar), id: instance.id,
                                      start: zone.instant(for: LocalDateTime(secondsSinceEpoch: wall)),
                                      length: instance.length ?? range.override.effectiveLength, status: master.status, local: local)
                } else {
                    occurrence = make(master, text: masterText, id: master.recurs ? instance.id : nil, start: instance.start,
                                      length: instance.length ?? master.effectiveLength, status: master.status, local: local)
                }
                if Self.overlaps(occurrence, from: from, to: to) { body(occurrence) }
            }
        }
        for (id, c) in overrides {
            let status = master?.status == .cancelled ? .cancelled : c.status
            let occurrence = make(c, text: text(of: c, calendar: calendar), id: id, start: c.start.instant(local: local),
                                  length: c.length ?? master?.effectiveLength ?? c.effectiveLength, status: status, local: local)
            if Self.overlaps(occurrence, from: from, to: to) { body(occurrence) }
        }
    }

    /// One instance before overrides: its recurrence id, original start,
    /// and its own length when an RDATE PERIOD gives one.
    struct Instance {
        var id: RecurrenceID
        var start: Instant
        var length: EventLength?
    }

    /// The recurrence set's instances whose original start lies in
    /// `[from, through]`, each once, before EXDATEs.
    func instances(of master: EventComponent, from: Instant, through: Instant, local: Zone) -> [Instance] {
        // One rule and no RDATE can repeat only DTSTART: the rest of its
        // instances are told apart without a set.
        let simple = master.rules.count <= 1 && master.rdates.isEmpty
        var seen: Set<RecurrenceID> = []
        var first: RecurrenceID?
        var result: [Instance] = []
        func add(_ id: RecurrenceID, _ start: Instant, _ length: EventLength?) {
            guard start >= from && start <= through else { return }
            if simple {
                if id == first { return }
                if first == nil { first = id }
            } else if !seen.insert(id).inserted {
                return
            }
            result.append(Instance(id: id, start: start, length: length))
        }
        let start = master.start
        let zone = start.zone(local: local)
        let walks = master.rules.map { RuleWalk(rule: $0, start: start, zone: zone) }
        // RDATEs first: a PERIOD's own length wins over the rule's instance at the same time.
        for (time, length) in master.rdates {
            add(time.recurrenceID(matching: start, local: local), time.instant(matching: start, local: local), length)
        }
        // DTSTART is an instance, unless every rule with an UNTIL ended before it.
        let untils = walks.compactMap(\.untilWall)
        if untils.isEmpty || untils.contains(where: { $0 >= start.value.local }) {
            add(start.recurrenceID(local: local), start.instant(local: local), nil)
        }
        let floating = if case .floating = start.placement { true } else { false }
        for walk in walks {
            for wall in walk.walls(from: from, through: through) {
                if start.isDate {
                    add(.date(wall.date), local.startOfDay(wall.date), nil)
                } else {
                    let instant = zone.instant(for: wall)
                    add(floating ? .floating(wall) : .instant(instant), instant, nil)
                }
            }
        }
        return result
    }

    /// The text `c`'s occurrences share.
    private func text(of c: EventComponent, calendar: String) -> CalendarOccurrence.EventText {
        texts[ObjectIdentifier(c)]
            ?? CalendarOccurrence.EventText(calendar: calendar, uid: uid, summary: c.summary, description: c.description,
                                            location: c.location, categories: c.categories)
    }

    private func make(_ c: EventComponent, text: CalendarOccurrence.EventText, id: RecurrenceID?, start: Instant, length: EventLength,
                      status: CalendarOccurrence.Status, local: Zone) -> CalendarOccurrence {
        let end: Instant
        if c.start.isDate, case .nominal(let d) = length, d.seconds == 0 {
            end = local.startOfDay(local.localDateTime(start).date.adding(days: d.days))
        } else {
            end = max(start, length.end(from: start, zone: c.start.zone(local: local)))
        }
        return CalendarOccurrence(text: text, recurrenceID: id, start: start, end: end, allDay: c.start.isDate, status: status)
    }

    static func overlaps(_ o: CalendarOccurrence, from: Instant, to: Instant) -> Bool {
        o.start < to && (o.end > from || (o.start == o.end && o.start >= from))
    }

    /// A length in seconds at least as long as any instance with it.
    static func upperBound(_ length: EventLength) -> Int64 {
        switch length {
        case .exact(let seconds): seconds
        case .nominal(let d): Int64(max(0, d.days)) * 90_000 + max(0, d.seconds)
        }
    }
}

/// Walks one RRULE over a window of wall time, jumping to the window
/// instead of walking from DTSTART when the rule allows it (no COUNT).
struct RuleWalk {
    let seriesRule: SeriesRule
    let start: EventTime
    let zone: Zone
    /// UNTIL as a wall time on the series' clock (inclusive).
    let untilWall: LocalDateTime?
    /// A COUNT rule must be walked from DTSTART; this bounds the walk.
    static let countedLimit = 1_000_000

    init(rule: SeriesRule, start: EventTime, zone: Zone) {
        seriesRule = rule
        self.start = start
        self.zone = zone
        untilWall = Self.untilWall(rule.rule, start: start, zone: zone)
    }

    private var rule: Libical.Rule { seriesRule.rule }

    /// Wall times of instances whose instant may lie in `[from, through]`
    /// (a day of slack either side).
    func walls(from: Instant, through: Instant) -> [LocalDateTime] {
        let high = zone.localDateTime(through + 86_400)
        if high < start.value.local { return [] }
        let low = zone.localDateTime(from - 86_400)
        if let untilWall, low > untilWall { return [] }
        if let pattern = seriesRule.pattern { return repeating(pattern, low: low, high: high) }
        if let monthly = seriesRule.monthly, rule.count == 0 { return monthlyWalls(monthly, low: low, high: high) }
        if let expansion = seriesRule.expansion {
            return expansion.walls(from: low, through: high, until: untilWall)
        }
        var from = start.value
        var jump: LocalDateTime?
        if rule.count == 0 && low > start.value.local {
            if let step = rule.stepSeconds {
                // libical's jump restarts a sub-daily rule's steps at the
                // jump's day, losing their phase (instances are DTSTART + k
                // steps); starting the walk on a later step keeps it.
                let begin = start.value.local.secondsSinceEpoch
                let steps = (low.secondsSinceEpoch - begin) / step
                from = TimeValue(local: LocalDateTime(secondsSinceEpoch: begin + steps * step), isDate: false, isUTC: false)
            } else {
                jump = start.isDate ? LocalDateTime(date: low.date) : low
            }
        }
        guard let iterator = Libical.Iterator(rule.withoutUntil, start: from) else { return [] }
        if let jump, !iterator.jump(to: jump) { return [] }
        var walls: [LocalDateTime] = []
        var steps = 0
        while let wall = iterator.next() {
            steps += 1
            if wall > high || steps > Self.countedLimit { break }
            if let untilWall, wall > untilWall { break }
            if wall >= low { walls.append(wall) }
        }
        return walls
    }

    /// ``walls(from:through:)`` for a rule with a pattern: the first
    /// span's instances moved by whole spans, from the span before `low`.
    /// Compared as wall seconds, each wall is turned into a date once.
    private func repeating(_ pattern: (days: Int, walls: [LocalDateTime]), low: LocalDateTime, high: LocalDateTime)
        -> [LocalDateTime]
    {
        let perSpan = pattern.walls.count
        guard perSpan > 0 else { return [] }
        let elapsed = low.date.daysSinceEpoch - start.value.local.date.daysSinceEpoch
        var span = max(0, Int(elapsed) / pattern.days - 1)
        let bases = pattern.walls.map(\.secondsSinceEpoch)
        let (lowSeconds, highSeconds) = (low.secondsSinceEpoch, high.secondsSinceEpoch)
        let untilSeconds = untilWall?.secondsSinceEpoch ?? .max
        let spanSeconds = Int64(pattern.days) * 86_400
        var walls: [LocalDateTime] = []
        while true {
            for (index, base) in bases.enumerated() {
                if rule.count > 0 && span * perSpan + index >= rule.count { return walls }
                let wall = base + Int64(span) * spanSeconds
                if wall > highSeconds || wall > untilSeconds { return walls }
                if wall >= lowSeconds { walls.append(LocalDateTime(secondsSinceEpoch: wall)) }
            }
            span += 1
        }
    }

    /// ``walls(from:through:)`` for a monthly rule on one weekday of the
    /// month by its place: each month, every `interval` from DTSTART's,
    /// that day (if the month has it) at DTSTART's time of day, from
    /// DTSTART on.
    private func monthlyWalls(_ rule: (interval: Int, weekday: Int, ordinal: Int), low: LocalDateTime, high: LocalDateTime)
        -> [LocalDateTime]
    {
        let first = start.value.local
        let firstMonth = first.date.year * 12 + first.date.month - 1
        let lowMonth = low.date.year * 12 + low.date.month - 1
        var month = firstMonth + max(0, (lowMonth - firstMonth) / rule.interval) * rule.interval
        let (lowSeconds, highSeconds) = (low.secondsSinceEpoch, high.secondsSinceEpoch)
        let untilSeconds = untilWall?.secondsSinceEpoch ?? .max
        let startSeconds = first.secondsSinceEpoch
        let timeOfDay = Int64(first.hour * 3600 + first.minute * 60 + first.second)
        var walls: [LocalDateTime] = []
        while true {
            let year = month >= 0 ? month / 12 : (month - 11) / 12
            let number = month - year * 12 + 1
            let length = LocalDate.daysIn(year: year, month: number)
            var day: Int
            if rule.ordinal > 0 {
                let weekdayOfFirst = LocalDate(year: year, month: number, day: 1).weekday
                day = 1 + (rule.weekday - weekdayOfFirst + 7) % 7 + (rule.ordinal - 1) * 7
            } else {
                let weekdayOfLast = LocalDate(year: year, month: number, day: length).weekday
                day = length - (weekdayOfLast - rule.weekday + 7) % 7 + (rule.ordinal + 1) * 7
            }
            let monthStart = LocalDate(year: year, month: number, day: 1).daysSinceEpoch * 86_400
            if monthStart > highSeconds || monthStart > untilSeconds { return walls }
            if day >= 1 && day <= length {
                let wall = monthStart + Int64(day - 1) * 86_400 + timeOfDay
                if wall > highSeconds || wall > untilSeconds { return walls }
                if wall >= lowSeconds && wall >= startSeconds { walls.append(LocalDateTime(secondsSinceEpoch: wall)) }
            }
            month += rule.interval
        }
    }

    /// A DATE UNTIL includes its whole day; a UTC one is converted to the
    /// series' clock; a floating one is taken as it stands.
    private static func untilWall(_ rule: Libical.Rule, start: EventTime, zone: Zone) -> LocalDateTime? {
        guard let until = rule.until else { return nil }
        if until.isDate {
            return start.isDate ? until.local : LocalDateTime(date: until.local.date, hour: 23, minute: 59, second: 59)
        }
        if until.isUTC {
            let wall = zone.localDateTime(Instant(seconds: until.local.secondsSinceEpoch))
            return start.isDate ? LocalDateTime(date: wall.date) : wall
        }
        return start.isDate ? LocalDateTime(date: until.local.date) : until.local
    }
}
