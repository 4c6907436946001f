import TrackeeCore

/// Finds elapses the way systemd 252 does: its `find_next()`
/// (calendarspec.c) step for step, with glibc's `mktime()` played by ``Zone``.
///
/// The search moves wall-clock fields from the largest to the smallest: each
/// field jumps to the next value its list allows, which resets the smaller
/// fields; when a field has no value left, the next larger one carries. After
/// every move the fields are read as a time in the zone. If that reading
/// changes them (a day 31 in April, a minute 60, 02:30 in a spring-forward
/// gap), the normalized time is taken and the search starts over from there.
/// So the number of steps depends on the fields, never on the distance.
///
/// Like glibc's `struct tm`, the fields carry a daylight-saving flag that
/// `mktime()` may insist on; ``carriedOffset`` stands for it.
struct CalendarSearch {
    private let spec: CalendarSpec
    private let zone: Zone
    /// The UTC offset the last `mktime()` used. glibc tries it first, which
    /// decides which of the two instants of a repeated wall time it returns.
    private var lastOffset = 0
    /// The `tm_isdst` the fields carry, told by the offset that goes with it;
    /// nil for -1, "find out". systemd sets -1 after normalizing the fields at
    /// the top of each round, so the flag survives only from the start and
    /// from a normalization (``settle(_:)``) to the next round, unless
    /// ``keepsDaylightFlag``.
    private var carriedOffset: Int?
    /// Set once a result came out no later than the start, which a
    /// daylight-saving change can cause: systemd then moves on an hour and
    /// keeps the flag `mktime()` found from there on. (Debian's systemd
    /// 252.38 has this from upstream systemd#36897.)
    private var keepsDaylightFlag = false

    /// systemd's `MAX_CALENDAR_ITERATIONS`: it gives up after this many rounds.
    private static let maxIterations = 1000

    init(spec: CalendarSpec, zone: Zone) {
        self.spec = spec
        self.zone = zone
    }

    /// The first elapse strictly after `instant`.
    mutating func next(after instant: Instant) -> Instant? {
        let start = WallFields(zone.localDateTime(instant))
        var fields = start
        lastOffset = zone.offset(at: instant)
        carriedOffset = lastOffset
        keepsDaylightFlag = false
        // systemd searches from 1 µs after `instant`: the current second is over.
        var pastSecond = true

        restart: for _ in 0..<Self.maxIterations {
            let top = mktime(fields, insisting: carriedOffset)
            fields = top.fields
            carriedOffset = keepsDaylightFlag ? zone.offset(at: top.instant) : nil
            guard case .settled = advance(.year, &fields, &pastSecond) else { return nil }
            for unit in CalendarUnit.allCases.dropFirst() {
                switch advance(unit, &fields, &pastSecond) {
                case .exhausted:
                    let larger = unit.larger!
                    fields[larger] += 1
                    fields.reset(below: larger)
                    pastSecond = false
                    continue restart
                case .normalized:
                    continue restart
                case .settled(let elapse):
                    // systemd checks the weekday once the day has settled.
                    if unit == .day, !spec.allows(fields.date) {
                        fields.day += 1
                        fields.reset(below: .day)
                        pastSecond = false
                        continue restart
                    }
                    if unit == .second {
                        if fields.isAfter(start) { return elapse }
                        fields.hour += 1
                        keepsDaylightFlag = true
                        continue restart
                    }
                }
            }
        }
        return nil
    }

    private enum Outcome {
        /// The fields read as they are, at this instant.
        case settled(Instant)
        /// Reading the fields changed them; search again from the new ones.
        case normalized
        /// The field has no value left in its unit, or the time would lie
        /// beyond the last year or before the fields.
        case exhausted
    }

    /// Moves `unit` to the next value the spec allows and checks the result.
    private mutating func advance(_ unit: CalendarUnit, _ fields: inout WallFields, _ pastSecond: inout Bool)
        -> Outcome
    {
        let current = fields[unit]
        let wanted = unit == .second && pastSecond ? current + 1 : current
        let field = spec.field(unit)
        let found =
            unit == .day && spec.daysFromMonthEnd
            ? field.firstMatch(atLeast: wanted) { daysFromMonthEnd($0, in: fields) }
            : field.firstMatch(atLeast: wanted)
        guard let value = found else { return .exhausted }
        if unit == .second { pastSecond = false }
        if value != current {
            fields[unit] = value
            fields.reset(below: unit)
            pastSecond = false
        }
        return settle(&fields)
    }

    /// The days a `~` component means in the fields' month: `~7/1` is the
    /// 25th onwards in October, `~1..3` the 29th to the 31st.
    private mutating func daysFromMonthEnd(_ component: CalendarComponent, in fields: WallFields)
        -> (start: Int, stop: Int?)
    {
        let start = dayFromMonthEnd(component.start, in: fields)
        // systemd looks up a missing stop too, as -1, which falls outside the month.
        let stop = dayFromMonthEnd(component.stop ?? -1, in: fields)
        return stop > 0 ? (stop, start) : (start, nil)
    }

    /// systemd's `find_end_of_month()`: the day `mktime()` reads for day
    /// `1 - n` of the next month, at the fields' time of day, or -1 when it is
    /// not in the fields' month. That `mktime()` call sets the offset glibc
    /// tries next, which can decide a repeated hour on the same day.
    private mutating func dayFromMonthEnd(_ n: Int, in fields: WallFields) -> Int {
        var probe = fields
        probe.month += 1
        probe.day = 1 - n
        let read = mktime(probe, insisting: carriedOffset).fields
        return read.month == fields.month ? read.day : -1
    }

    /// systemd's `tm_within_bounds()`: reads the fields as a time and, when
    /// that changes them, takes the changed ones with the field below the
    /// first change reset, so `03-33` becomes `04-01` and not `04-02`.
    private mutating func settle(_ fields: inout WallFields) -> Outcome {
        guard fields.year <= CalendarUnit.year.bounds.upperBound else { return .exhausted }
        let (read, instant) = mktime(fields, insisting: carriedOffset)
        for unit in CalendarUnit.allCases where read[unit] != fields[unit] {
            // A reading earlier than the fields would go backwards.
            guard read[unit] > fields[unit] else { return .exhausted }
            fields = read
            if let smaller = unit.smaller { fields[smaller] = smaller.first }
            carriedOffset = zone.offset(at: instant)
            return .normalized
        }
        return .settled(instant)
    }

    /// glibc's `mktime()`. Overflowing fields carry. A wall time in a
    /// spring-forward gap reads with the offset before the gap (02:30 becomes
    /// 03:30). One that happens twice reads with the offset used last, which
    /// keeps a search that started in the repeated hour in it.
    ///
    /// With `insisted` (a `tm_isdst` of 0 or 1, told by the offset that goes
    /// with it), a wall time that has another offset reads with this one
    /// instead: glibc takes the offset of the nearest time with the asked-for
    /// `tm_isdst`. So midnight of a summer day, asked for in standard time,
    /// becomes 01:00. A gap time asked for in daylight time reads backwards.
    ///
    /// glibc's preference for daylight time in a gap is followed as "the
    /// offset after the gap", which is what it is except where tzdata calls
    /// winter time daylight time (Europe/Dublin); ``Zone`` does not tell.
    private mutating func mktime(_ fields: WallFields, insisting insisted: Int?)
        -> (fields: WallFields, instant: Instant)
    {
        let wall = fields.wallTime
        let instants = zone.instants(for: wall)
        let preferred = insisted ?? lastOffset
        let instant: Instant
        if instants.isEmpty {
            // Of the two readings of a gap glibc prefers the one whose
            // tm_isdst differs from the one insisted on, else the daylight
            // one: the forward reading, unless daylight time was insisted on.
            let forward = zone.instant(for: wall)
            let after = zone.offset(at: forward)
            instant = insisted == after ? Instant(seconds: wall.secondsSinceEpoch - Int64(after)) : forward
        } else if let match = instants.first(where: { zone.offset(at: $0) == preferred }) {
            instant = match
        } else if let insisted {
            instant = Instant(seconds: wall.secondsSinceEpoch - Int64(insisted))
        } else {
            instant = instants[0]
        }
        lastOffset = Int(wall.secondsSinceEpoch - instant.seconds)
        return (WallFields(zone.localDateTime(instant)), instant)
    }
}

/// Wall-clock fields as `find_next()` handles them: any field may run past
/// its unit (minute 60, day 32) until ``wallTime`` folds it into the next.
private struct WallFields {
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int

    init(_ time: LocalDateTime) {
        year = time.date.year
        month = time.date.month
        day = time.date.day
        hour = time.hour
        minute = time.minute
        second = time.second
    }

    subscript(unit: CalendarUnit) -> Int {
        get {
            switch unit {
            case .year: year
            case .month: month
            case .day: day
            case .hour: hour
            case .minute: minute
            case .second: second
            }
        }
        set {
            switch unit {
            case .year: year = newValue
            case .month: month = newValue
            case .day: day = newValue
            case .hour: hour = newValue
            case .minute: minute = newValue
            case .second: second = newValue
            }
        }
    }

    /// Whether these fields come later on the wall clock than `other`.
    func isAfter(_ other: WallFields) -> Bool {
        (year, month, day, hour, minute, second) > (other.year, other.month, other.day, other.hour, other.minute, other.second)
    }

    /// The date of valid fields.
    var date: LocalDate { LocalDate(year: year, month: month, day: day) }

    /// Sets every field smaller than `unit` to its first value.
    mutating func reset(below unit: CalendarUnit) {
        var next = unit.smaller
        while let smaller = next {
            self[smaller] = smaller.first
            next = smaller.smaller
        }
    }

    /// The wall time the fields mean, with overflow carried into larger units.
    var wallTime: LocalDateTime {
        let firstOfMonth = LocalDate(year: year, month: 1, day: 1).adding(months: month - 1)
        let days = firstOfMonth.daysSinceEpoch + Int64(day - 1)
        return LocalDateTime(secondsSinceEpoch: days * 86_400 + Int64(hour * 3600 + minute * 60 + second))
    }
}
